"""Source classes (`[source_classes]` of pipeline/fields.toml): the kind of source behind each card value.

Every source of a card value is declared with its class; a reviewed row or an override names its own (its
`source_class` column, carried in the observation note as "source class: …"). A value of a class a card may
not print ("other": travel and blog pages, regional statements, values without a source page) is taken only
where no other candidate exists; the chooser flags it on the provenance and lists it in the report.
"""

import re

from pipeline.fields import source_classes

NOTED = re.compile(r"source class: ([a-z ]+?)(?:;|$)")


def declared() -> dict:
    """The `[source_classes]` table of pipeline/fields.toml."""
    return source_classes()


def fields() -> set[str]:
    """The card-value fields whose source must be of a declared class."""
    return set(declared()["fields"])


def of(source: str, note: str = "") -> str:
    """The class of a value from `source` (a reviewed row or an override: the class its note names); ''
    when neither declares one."""
    noted = NOTED.search(note or "")
    if noted:
        return noted.group(1)
    return declared()["of"].get(source, "")


def allowed(klass: str) -> bool:
    """Whether a card may print a value of this class without a flag."""
    return bool(declared()["classes"].get(klass, {}).get("allowed", False))


def flag(klass: str) -> str:
    """The provenance's flag of a value whose class a card may not print."""
    kind = klass or "undeclared"
    return f"flagged: source class {kind}, not one a card may print (none better in the mirror or packages)"


def note(klass: str) -> str:
    """How a reviewed row or an override carries its class in the observation note."""
    return f"source class: {klass}"
