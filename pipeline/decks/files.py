"""The files of a deck version: deck.json, deck.csv, datapackage.json and manifest.json (bytes, and back).

Every writer returns text that depends only on its inputs: sorted JSON keys, fixed float formatting,
no timestamps (the version string is the only date).
"""

import csv
import io
import re
from decimal import Decimal
from typing import Any

from pipeline import __version__
from pipeline.decks.canonical import content_hash, dumps
from pipeline.decks.card import Card
from pipeline.decks.spec import DeckSpec
from pipeline.extract import load_sources
from pipeline.hashing import sha256

TABLE_TYPES = {"integer": "integer", "number": "number", "string": "string", "list": "string"}
# A text cell a spreadsheet would run as a formula (OWASP's CSV injection: = + - @ tab CR first) is written
# behind a quote; a text already quoted so is quoted once more, so that reading deck.csv back is exact.
FORMULA = re.compile(r"'*[=+\-@\t\r]")


def deck_document(spec: DeckSpec, cards: list[dict], version: str | None, metadata: dict | None = None) -> dict:
    """deck.json: game, version, title, card size, cards and the game's top-level metadata (e.g. a grid)."""
    return {
        "game": spec.game,
        "version": version,
        "title": spec.title,
        "card_size_mm": list(spec.card_size_mm),
        "cards": cards,
        **(metadata or {}),
    }


def cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return format(Decimal(repr(value)), "f") if "e" in repr(value) else repr(value)  # 1e-05: 0.00001
    if isinstance(value, int):
        return str(value)
    written = ";".join(value) if isinstance(value, list) else str(value)
    return f"'{written}" if FORMULA.match(written) else written


def cited_columns(columns: list[str], cards: list[dict]) -> list[str]:
    """The columns of which some card's value carries its own citation (a reviewed value, an override)."""
    return [c for c in columns if any("citation" in card.get("provenance", {}).get(c, {}) for card in cards)]


def header(columns: list[str], cited: list[str]) -> list[str]:
    """deck.csv's header for these value columns: id, kind, the values, then each one's source and vintage,
    then the citations of the `cited` columns."""
    provenance = [f"{c}__{p}" for c in columns for p in ("source", "vintage")]
    return ["id", "kind", *columns, *provenance, *(f"{c}__citation" for c in cited)]


def value_columns(header_row: list[str]) -> list[str]:
    """The value columns a deck.csv header names (the inverse of `header`)."""
    cited = sum(1 for name in header_row if name.endswith("__citation"))
    rest = header_row[2 : len(header_row) - cited]
    return rest[: len(rest) // 3]


def deck_csv(spec: DeckSpec, cards: list[dict]) -> str:
    """One row per card: its values, then each value's source and vintage, then the citations of the
    columns that have any; lists ';'-joined; null empty."""
    return csv_text(spec.columns, cards)


def csv_text(columns: list[str], cards: list[dict]) -> str:
    """deck.csv of `cards` with these value columns (`geodeck verify` regenerates a version's from its header)."""
    cited = cited_columns(columns, cards)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header(columns, cited))
    for card in cards:
        prov = card["provenance"]
        writer.writerow(
            [
                card["id"],
                card["kind"],
                *(cell(card["fields"].get(c)) for c in columns),
                *(cell(prov.get(c, {}).get(p)) for c in columns for p in ("source", "vintage")),
                *(cell(prov.get(c, {}).get("citation")) for c in cited),
            ]
        )
    return buffer.getvalue()


def parse_cell(text: str, kind: str):
    if text == "":
        return None
    if kind not in ("integer", "number"):
        text = unquoted(text)
    if kind == "list":
        return text.split(";")
    if kind == "integer":
        return int(text)
    if kind == "number":
        return float(text) if re.search(r"[.eE]", text) else int(text)
    return text


def unquoted(text: str) -> str:
    """A text cell as `cell` had it before it quoted a formula-like one."""
    return text[1:] if text.startswith("'") and FORMULA.match(text[1:]) else text


def cards_from_csv(spec: DeckSpec, text: str) -> list[dict]:
    """deck.csv back into cards (the inverse of deck_csv): each card's fields its columns hold (a deck published
    before a language or a category was added has none of it)."""
    cards = []
    for row in csv.DictReader(io.StringIO(text)):
        names = [name for name in spec.kinds[row["kind"]] if name in row]
        prov = {
            n: {"source": unquoted(row[f"{n}__source"]), "vintage": parse_cell(row[f"{n}__vintage"], "string")}
            | ({"citation": unquoted(row[f"{n}__citation"])} if row.get(f"{n}__citation") else {})
            for n in names
            if row[f"{n}__source"]
        }
        fields = {n: parse_cell(row[n], spec.fields[n].type) for n in names}
        cards.append(Card(row["id"], row["kind"], fields, prov).to_dict())
    return cards


def table_schema(spec: DeckSpec, cited: list[str]) -> dict:
    fields: list[dict] = [
        {"name": "id", "type": "string", "constraints": {"required": True, "unique": True}},
        {"name": "kind", "type": "string", "constraints": {"required": True, "enum": list(spec.kinds)}},
    ]
    for name in spec.columns:
        field = spec.fields[name]
        entry: dict[str, Any] = {"name": name, "type": TABLE_TYPES[field.type]}
        if field.type == "list":
            entry["description"] = "list, ';'-joined"
        elif field.description:
            entry["description"] = field.description
        fields.append(entry)
    for name in spec.columns:
        fields += [
            {"name": f"{name}__source", "type": "string", "description": f"source of {name}"},
            {"name": f"{name}__vintage", "type": "string", "description": f"vintage of {name}"},
        ]
    fields += [
        {"name": f"{c}__citation", "type": "string", "description": f"citation of a reviewed {c}"} for c in cited
    ]
    return {"fields": fields, "primaryKey": ["id"], "missingValues": [""]}


def datapackage(spec: DeckSpec, version: str, csv_text: str, json_text: str, cited: list[str]) -> str:
    def resource(name: str, path: str, text: str, **extra) -> dict:
        data = text.encode("utf-8")
        return {
            "name": name,
            "path": path,
            "bytes": len(data),
            "hash": f"sha256:{sha256(data)}",
            "encoding": "utf-8",
            **extra,
        }

    return dumps(
        {
            "name": f"geodeck-{spec.game}",
            "title": spec.title,
            "version": version,
            "resources": [
                resource(
                    "deck-csv",
                    "deck.csv",
                    csv_text,
                    format="csv",
                    mediatype="text/csv",
                    schema=table_schema(spec, cited),
                ),
                resource(
                    "deck-json",
                    "deck.json",
                    json_text,
                    type="json",
                    format="json",
                    mediatype="application/json",
                    description="the cards with every value and its provenance (docs/deck-format.md)",
                ),
            ],
        }
    )


def snapshot_hash(source) -> str:
    """A source's snapshot: sha256 over its pinned files, or `package==version` for a package source."""
    if source.kind == "package" or not source.files:
        return f"{source.package}=={source.version}"
    return sha256("".join(f"{f.path} {f.sha256}\n" for f in sorted(source.files, key=lambda f: f.path)))


def used_sources(cards: list[dict]) -> dict:
    """The `sources/*.toml` named in the cards' provenance, each with its snapshot hash and vintage."""
    known = load_sources()
    names = {
        part
        for card in cards
        for origin in card["provenance"].values()
        for part in re.split(r"[\s/;,+]+", origin["source"])
        if part
    }
    return {n: {"snapshot": snapshot_hash(known[n]), "vintage": known[n].vintage} for n in sorted(names) if n in known}


def manifest(deck: dict, inputs: dict[str, str], templates: dict[str, str] | None = None) -> str:
    """manifest.json; `templates` the sha256 of each template the version pins (pipeline.decks.pinned)."""
    return dumps(
        {
            "game": deck["game"],
            "version": deck["version"],
            "pipeline_version": __version__,
            "content_hash": content_hash(deck),
            "cards": len(deck["cards"]),
            "inputs": dict(sorted(inputs.items())),
            "sources": used_sources(deck["cards"]),
        }
        | ({"templates": templates} if templates else {})
    )
