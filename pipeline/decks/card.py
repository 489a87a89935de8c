"""One card of a deck as a typed record: what every game's deck builder returns (docs/deck-format.md)."""

from dataclasses import dataclass, field
from typing import Any

from pipeline.decks.spec import DeckSpec
from pipeline.decks.values import card_from_row


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
