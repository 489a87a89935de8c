"""Cards survive the cut (issue 45), from the layout data: with the ±1 mm a card service's cut may miss by, an
edge drawn near the trim comes out uneven. Every box of every card layout is either ≥ 3 mm inside the trim (the
safe line) or, for the background bands, runs into the bleed; the frames in the continent colour end on or
inside the safe line, and the backs' frames too."""

import tomllib

import pytest

from pipeline.paths import TEMPLATES_DIR

SAFE_MM = 3.0  # docs/printing.md: nothing but background between the trim and the safe line
BACKGROUND = {"band", "header"}  # boxes that are background: they run into the bleed (or keep the safe line)
LAYOUTS = sorted(p for p in (TEMPLATES_DIR / "cards").glob("*.toml") if p.name != "common.toml")


def _layout(path) -> dict:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def _sides(box, card) -> dict[str, float]:
    """A box's distance inside the trim on each side (negative: beyond it, in the bleed)."""
    x, y, w, h = box
    return {"left": x, "bottom": y, "right": card[0] - (x + w), "top": card[1] - (y + h)}


def _misplaced(data: dict) -> list[str]:
    card, bad = data["card_mm"], []
    boxes = dict(data["boxes"])
    boxes |= {f"insets[{i}]": [x, y, d, d] for i, (x, y, d) in enumerate(data.get("insets", []))}
    boxes |= {"design.back.title": data.get("design", {}).get("back", {}).get("title", [SAFE_MM] * 2 + [0, 0])}
    for name, box in boxes.items():
        for side, inside in _sides(box, card).items():
            bleeds = name in BACKGROUND and inside <= 0
            if inside < SAFE_MM - 1e-9 and not bleeds:
                bad.append(f"{name} {side} {inside:g} mm inside the trim")
    return bad


@pytest.mark.parametrize("path", LAYOUTS, ids=lambda p: p.stem)
def test_every_box_keeps_the_safe_line_or_runs_into_the_bleed(path):
    assert not _misplaced(_layout(path))


@pytest.mark.parametrize("path", LAYOUTS, ids=lambda p: p.stem)
def test_frames_end_on_or_inside_the_safe_line(path):
    design = _layout(path).get("design", {})
    frames = {"frame": design.get("frame_mm"), "back": design.get("back", {}).get("frame_mm")}
    assert all(inset >= SAFE_MM for inset in frames.values() if inset is not None), frames


def test_the_check_finds_a_frame_at_the_trim_and_a_disc_over_the_safe_line():
    """The layouts before issue 45: The World Game's answer band 2 mm inside the trim, its map-number disc
    0.5 mm over the safe line; a band that stops short of the bleed."""
    data = {
        "card_mm": [63, 88],
        "boxes": {"band": [2, 2, 59, 26.5], "number": [46.5, 5, 14, 14], "header": [0, 75, 63, 12]},
    }
    assert _misplaced(data) == [
        "band left 2 mm inside the trim",
        "band bottom 2 mm inside the trim",
        "band right 2 mm inside the trim",
        "number right 2.5 mm inside the trim",
        "header top 1 mm inside the trim",
    ]
