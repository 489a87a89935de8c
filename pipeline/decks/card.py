"""One card of a deck as a typed record: what every game's deck builder returns (docs/deck-format.md)."""

from dataclasses import dataclass, field
from typing import Any

from pipeline.decks import translated
from pipeline.decks.spec import DeckSpec, FieldSpec
from pipeline.decks.values import card_value, provenance


def card_from_row(row, spec_fields: dict[str, FieldSpec], names) -> tuple[dict, dict]:
    """Fields and provenance of one card from one master-table row (fields without a column are skipped; a
    translated field's name in its language from pipeline/decks/translated.py)."""
    fields, prov = {}, {}
    for name in names:
        field = spec_fields[name]
        if field.column is None:
            continue
        if field.translated:
            fields[name], origin = translated.value(field, row)
        else:
            fields[name], origin = card_value(row.get(field.column), field), provenance(row, field.column)
        if origin and fields[name] is not None:
            prov[name] = origin
    return fields, prov


@dataclass
class Card:
    id: str
    kind: str
    fields: dict[str, Any]
    provenance: dict[str, dict] = field(default_factory=dict)  # field name -> {"source", "vintage"[, "citation"]}

    @classmethod
    def from_row(cls, id: str, kind: str, row: dict, spec: DeckSpec) -> "Card":
        """A card of `kind` with its spec fields' values and provenance read from a master-table row."""
        fields, provenance = card_from_row(row, spec.fields, spec.kinds[kind])
        return cls(id, kind, fields, provenance)

    def to_dict(self) -> dict:
        """The card as deck.json holds it."""
        return {"id": self.id, "kind": self.kind, "fields": self.fields, "provenance": self.provenance}
