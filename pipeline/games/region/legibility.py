"""Whether a region deck's map can be read (docs/regions.md): the map accessory as it would be printed (the
deck's grid, its page, the template's sizes and fonts, the names inside the grid or, for a long country,
beside it), measured with reportlab's font metrics (pdfmetrics.stringWidth): no place name on another,
outside its area, on another place's dot or crossed by a leader (pipeline.render.labels.problems), no name
on a grid number nor a leader through one, and no two printed grid numbers touching."""

import numpy as np

from pipeline import placeholders
from pipeline.games.grid import accessories as grid_map
from pipeline.games.grid.decks import deck_grid
from pipeline.games.region import accessories
from pipeline.render import fonts, layouts
from pipeline.render import labels as label_rules
from pipeline.render.accessories import PAPERS_MM, words


def problems(game, deck: dict, paper: str = "a4") -> list[str]:
    """What makes the deck's map illegible on `paper` in the game's own language, in words (empty: legible)."""
    layout = layouts.load(game)
    lang = layout.language(None)
    w = words(layout, lang)
    w = {**w, "map_title": placeholders.fill(w["map_title"], title=deck["title"])}
    grid = deck_grid(deck)
    shown = accessories.starred(deck, layout.localised(lang).words(lang)["capital"])
    page = accessories.page_for(grid, PAPERS_MM[paper])
    model = grid_map.map_model(shown, grid, page, w, fonts.register())
    dots = [(x, y, grid_map.DOT_MM) for x, y in model.dots]
    found = {**label_rules.problems(model.labels, model.label_box, dots), "on_grid_numbers": on_numbers(model)}
    out = [f"{n} {what.replace('_', ' ')}" for what, n in found.items() if n]
    if out:
        out = [f"place names: {', '.join(out)}"]
    if touching := grid_map.touching(list(model.numbers)):
        out.append(f"grid numbers touching: {', '.join('/'.join(pair) for pair in touching[:3])}")
    return out


def on_numbers(model: grid_map.MapModel) -> int:
    """How many place names lie on a printed grid number or lead to their dot through one."""
    numbers = np.array([n.box for n in model.numbers]).reshape(-1, 4)
    return sum(
        int(label_rules.overlapping(p.box, numbers).sum())
        + (int(label_rules.through((*p.anchor, *p.leader_end), numbers).sum()) if p.leader else 0)
        for p in model.labels
    )
