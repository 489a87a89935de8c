"""A region's map: Deutschland's map (pipeline.games.deutschland.accessories.draw_map) of the deck's mainland
outline on the deck's grid, with the borders of the divisions its places draw (pipeline/geo/divisions.py, as
on the cards), the capital's name starred; on a landscape page when that fills more of it (a
country wider than tall)."""

import math

from shapely.geometry import shape

from pipeline.extract import names
from pipeline.games.deutschland import accessories as deutschland
from pipeline.games.deutschland.deck import deck_grid
from pipeline.games.region import cards, geography
from pipeline.geo import divisions
from pipeline.render.context import CardContext
from pipeline.render.pages import begin_page, end_page

SOURCES = (names.NATURAL_EARTH,)  # the outline the map draws (the kit credits it)


def starred(deck: dict, star: str) -> dict:
    """The deck with the capital's name followed by `star` (as on its card)."""
    cards = [
        {**card, "fields": {**card["fields"], "name": f"{card['fields']['name']} {star}"}}
        if card["fields"].get("capital") == "country"
        else card
        for card in deck["cards"]
    ]
    return {**deck, "cards": cards}


def page_for(deck: dict, grid, paper: tuple[float, float], words: dict, font: str) -> tuple[float, float]:
    """The paper upright or turned, whichever the grid fills more of (then: the less stretched)."""

    def fill(page: tuple[float, float]) -> tuple[float, float]:
        frame = deutschland.map_model(deck, grid, page, words, font).frame
        area = deutschland.WE_MAX * frame.ux * deutschland.NS_MAX * frame.uy
        return round(area), -abs(math.log(deutschland.stretch(grid, frame)))

    return max((paper, (paper[1], paper[0])), key=fill)


def draw(c, deck: dict, ctx: CardContext, w: dict, paper_name: str, paper: tuple[float, float]) -> None:
    """The country's map on one page, on the deck's own grid (a card from another grid fails first)."""
    grid = deck_grid(deck)
    deutschland.place_positions(deck["cards"], grid)
    words = {**w, "map_title": w["map_title"].format(title=cards.title(deck, w["lang"]))}
    shown = starred(deck, ctx.layout.words(words["lang"])["capital"])
    page = page_for(shown, grid, paper, words, ctx.regular)
    begin_page(c, page)
    land = shape(deck["region"]["outline"])
    drawn = divisions.voronoi(divisions.places(deck["cards"]), land, geography.local_laea(land))
    deutschland.draw_map(c, shown, drawn, grid, page, words, (ctx.regular, ctx.bold))
    end_page(c)
