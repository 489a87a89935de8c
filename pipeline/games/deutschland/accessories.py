"""The Deutschlandkarte: Germany on the game's grid (the grid game's map, pipeline/games/grid/accessories.py)
with the `germany-boundaries` states' borders (in a kit for sale, the states the deck's places draw:
states.Drawn)."""

from pipeline.games.deutschland.states import FOR_SALE as FOR_SALE  # stand-ins for a print for sale
from pipeline.games.deutschland.states import SOURCE as STATES
from pipeline.games.deutschland.states import germany
from pipeline.games.grid.accessories import draw_map, place_positions
from pipeline.games.grid.decks import deck_grid
from pipeline.render.context import CardContext
from pipeline.render.pages import begin_page, end_page

SOURCES: tuple[str, ...] = (STATES,)  # what the map draws from besides the deck (the kit credits it)


def draw(c, deck: dict, ctx: CardContext, w: dict, paper_name: str, paper: tuple[float, float]) -> None:
    """The Deutschlandkarte on one portrait page, on the deck's own grid (a card from another grid fails
    before anything is drawn)."""
    grid = deck_grid(deck)
    place_positions(deck["cards"], grid)
    begin_page(c, paper)
    draw_map(c, deck, germany(ctx.store, ctx.for_sale, deck["cards"]).lonlat, grid, paper, w, (ctx.regular, ctx.bold))
    end_page(c)
