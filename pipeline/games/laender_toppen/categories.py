"""The categories of Länder toppen!, declared once: its deck spec's `[[categories]]` (in a deck recipe's form,
pipeline/decks/categories.py; in the strip's order, each with its `direction`: which end wins above). The
engine takes a deck's own categories (deck.json `categories`: a custom deck's) and these for a deck that
declares none."""

from functools import cache

from pipeline import readers
from pipeline.decks import categories
from pipeline.paths import TEMPLATES_DIR

SPEC = TEMPLATES_DIR / "decks" / "laender-toppen.toml"


@cache
def declared() -> list[tuple[str, str]]:
    """(field, direction) of each category of the game's deck spec."""
    found = categories.declared(readers.read_input("toml", SPEC).get("categories"), str(SPEC))
    return [(c.field, c.direction) for c in found]
