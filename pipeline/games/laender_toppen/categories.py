"""The categories of Länder toppen!, declared once: its card layout's `[[categories]]` (field, in the strip's
order, and `direction`: which end wins above, "higher" unless stated). The engine takes a deck's own
categories (a custom deck's, deck.json `categories`) and these for a deck that declares none."""

from functools import cache

from pipeline import readers
from pipeline.paths import TEMPLATES_DIR

LAYOUT = TEMPLATES_DIR / "cards" / "laender-toppen.toml"


@cache
def declared() -> list[tuple[str, str]]:
    """(field, direction) of each category of the game's card layout."""
    return [(c["field"], c.get("direction", "higher")) for c in readers.read_input("toml", LAYOUT)["categories"]]
