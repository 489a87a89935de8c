"""Whether a region deck's map can be read (docs/regions.md): the map accessory as it would be printed (the
deck's grid, its page, the template's sizes and fonts), measured with reportlab's font metrics
(pdfmetrics.stringWidth): no place name on another, outside the map, on another place's dot or crossed by
a leader (pipeline.render.labels.problems), and no two printed grid numbers touching."""

from pipeline.games.grid import accessories as grid_map
from pipeline.games.grid.decks import deck_grid
from pipeline.games.region import accessories
from pipeline.render import fonts, layouts
from pipeline.render import labels as label_rules
from pipeline.render.accessories import PAPERS_MM, words
from pipeline.render.text import PT_MM


def problems(game, deck: dict, paper: str = "a4") -> list[str]:
    """What makes the deck's map illegible on `paper` in the game's own language, in words (empty: legible)."""
    layout = layouts.load(game)
    lang = layout.language(None)
    w = words(layout, lang)
    w = {**w, "map_title": w["map_title"].format(title=deck["title"])}
    regular, bold = fonts.register()
    grid = deck_grid(deck)
    shown = accessories.starred(deck, layout.localised(lang).words(lang)["capital"])
    page = accessories.page_for(grid, PAPERS_MM[paper])
    model = grid_map.map_model(shown, grid, page, w, regular)
    found = label_rules.problems(model.labels, model.box, [(x, y, grid_map.DOT_MM) for x, y in model.dots])
    out = [f"{n} {what.replace('_', ' ')}" for what, n in found.items() if n]
    if out:
        out = [f"place names: {', '.join(out)}"]
    size = float(w["grid_label_pt"]) * page[0] / grid_map.A4_WIDTH_MM * PT_MM
    if touching := grid_map.touching(grid_map.axis_numbers(model, size, (regular, bold))):
        out.append(f"grid numbers touching: {', '.join('/'.join(pair) for pair in touching[:3])}")
    return out
