"""A region's map: the grid game's map (pipeline.games.grid.accessories.draw_map) of the deck's mainland
outline on the deck's grid, with the borders of the divisions its places draw (pipeline/geo/divisions.py, as
on the cards), the capital's name starred; on a landscape page when that fills more of it (a
country wider than tall)."""

import math

from shapely.geometry import shape

from pipeline import placeholders
from pipeline.extract import names
from pipeline.games.grid import accessories as grid_map
from pipeline.games.grid.decks import deck_grid
from pipeline.games.region import cards, geography
from pipeline.geo import divisions
from pipeline.render.context import CardContext
from pipeline.render.pages import begin_page, end_page

SOURCES: tuple[str, ...] = (names.NATURAL_EARTH,)  # the outline the map draws (the kit credits it)


def starred(deck: dict, star: str) -> dict:
    """The deck with the capital's name followed by `star` (as on its card)."""
    cards = [
        {**card, "fields": {**card["fields"], "name": f"{card['fields']['name']} {star}"}}
        if card["fields"].get("capital") == "country"
        else card
        for card in deck["cards"]
    ]
    return {**deck, "cards": cards}


def page_for(grid, paper: tuple[float, float]) -> tuple[float, float]:
    """The paper upright or turned, whichever the grid fills more of (then: the less stretched)."""

    def fill(page: tuple[float, float]) -> tuple[float, float]:
        frame = grid_map.fit_frame(grid, grid_map.map_area(page))
        area = grid_map.WE_MAX * frame.ux * grid_map.NS_MAX * frame.uy
        return round(area), -abs(math.log(grid_map.stretch(grid, frame)))

    return max((paper, (paper[1], paper[0])), key=fill)


def draw(c, deck: dict, ctx: CardContext, w: dict, paper_name: str, paper: tuple[float, float]) -> None:
    """The country's map on one page, on the deck's own grid (a card from another grid fails first)."""
    grid = deck_grid(deck)
    grid_map.place_positions(deck["cards"], grid)
    words = {**w, "map_title": placeholders.fill(w["map_title"], title=cards.title(deck, w["lang"]))}
    shown = starred(deck, ctx.layout.words(words["lang"])["capital"])
    page = page_for(grid, paper)
    begin_page(c, page)
    land = shape(deck["region"]["outline"])
    drawn = divisions.voronoi(divisions.places(deck["cards"]), land, geography.local_laea(land))
    grid_map.draw_map(c, shown, drawn, grid, page, words, (ctx.regular, ctx.bold))
    end_page(c)
