"""Source classes (`[source_classes]` of pipeline/fields.toml): the kind of source behind each card value.

Every source of a card value is declared with its class; a reviewed row or an override names its own (its
`source_class` column, carried in the observation note as "source class: …"). A value of a class a card may
not print ("other": travel and blog pages, regional statements, values without a source page) is taken only
where no other candidate exists; the chooser flags it on the provenance and lists it in the report.

A value citing a page of a refused kind (`[source_classes.pages]`: travel, blog, news or mirror pages, by host)
is never chosen (pipeline/validate/schema.py `refusal`); a card value whose provenance still cites one (an
override's citation) is refused at publishing (`refused`, `check_deck`).
"""

import re
from urllib.parse import urlsplit

from pipeline.errors import GeodeckError
from pipeline.fields import source_classes

URL = re.compile(r"https?://[^\s;,'\"()]+")

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


def page_kind(citation: str) -> tuple[str, str] | None:
    """(host, kind) of the first page `citation` cites whose host (or a domain above it) is declared in
    `[source_classes.pages]`; None when it cites none."""
    kinds = {host: kind for kind, hosts in declared().get("pages", {}).items() for host in hosts}
    for url in URL.findall(citation or ""):
        host = (urlsplit(url).hostname or "").lower()
        parts = host.split(".")
        for i in range(len(parts) - 1):
            if ".".join(parts[i:]) in kinds:
                return host, kinds[".".join(parts[i:])]
    return None


def refused(deck: dict, spec) -> list[dict]:
    """Every card value of `deck` whose provenance cites a refused page: card, field, iso3, master field
    (the spec's column), host and kind."""
    found = []
    for card in deck["cards"]:
        for name, origin in (card.get("provenance") or {}).items():
            page = page_kind(str(origin.get("citation") or ""))
            field = spec.fields.get(name)
            if page and field is not None:
                iso3 = str(card["fields"].get("iso3") or card["fields"].get("country") or "")
                found.append(
                    {
                        "card": card["id"],
                        "field": name,
                        "iso3": iso3,
                        "column": field.column,
                        "host": page[0],
                        "kind": page[1],
                    }
                )
    return found


def check_deck(deck: dict, spec, game: str) -> None:
    """One error naming the first card value that cites a travel, blog, news or mirror page (the fix: a
    source an editor cites)."""
    new = refused(deck, spec)
    if new:
        first = new[0]
        more = f" (and {len(new) - 1} more)" if len(new) > 1 else ""
        raise GeodeckError(
            f"{game}: card {first['card']} {first['field']} cites a {first['kind']} page ({first['host']}){more}: "
            "a card value needs a source an editor cites (a weather service's or the WMO's normal, CHELSA's, an "
            "encyclopaedia's list): replace the citation in sources/overrides.csv or sources/reviewed/"
        )
