"""The record of one game as data and as JSON (docs/records.md): deck, options, seats, deal, moves, result.

A move is the game's own notation of one decision (e.g. "W de-03402000"), never an engine's action number,
so a record stays readable and replayable when an engine renumbers its actions. Chance outcomes are moves
of the player "chance".
"""

import json
from dataclasses import dataclass, field
from pathlib import Path

from pipeline import atomic
from pipeline.errors import GeodeckError

FORMAT = "geodeck-record/1"
CHANCE = "chance"  # the player of a chance outcome


class RecordError(GeodeckError):
    """A record that cannot be read or does not replay: the message names the move and the rule."""


@dataclass(frozen=True)
class Seat:
    name: str
    plays: str  # "human", "bot:<level>"


@dataclass(frozen=True)
class Move:
    player: int | str  # a seat index, or CHANCE
    move: str


@dataclass
class Record:
    game: str
    deck_version: str | None
    deck_hash: str
    options: dict
    seats: list[Seat]
    seed: int | str | None
    deal: list[str]
    moves: list[Move] = field(default_factory=list)
    finished: bool = False
    scores: list[float] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {
            "format": FORMAT,
            "game": self.game,
            "deck": {"version": self.deck_version, "content_hash": self.deck_hash},
            "options": self.options,
            "seats": [{"name": s.name, "plays": s.plays} for s in self.seats],
            "seed": self.seed,
            "deal": self.deal,
            "moves": [{"player": m.player, "move": m.move} for m in self.moves],
            "finished": self.finished,
            "scores": self.scores,
            "winners": self.winners,
        }

    def to_json(self) -> str:
        """One key per line, each seat and move on a line of its own (diffable, readable)."""
        lines = []
        for key, value in self.to_dict().items():
            if key in ("seats", "moves"):
                items = ",\n".join(f"  {_compact(v)}" for v in value)
                lines.append(f' "{key}": [\n{items}\n ]' if value else f' "{key}": []')
            else:
                lines.append(f" {json.dumps(key)}: {_compact(value)}")
        return "{\n" + ",\n".join(lines) + "\n}\n"


def _compact(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def save(path: Path, record: Record) -> None:
    atomic.write_text(path, record.to_json())


def load(path: Path) -> Record:
    """A record file; anything but a well-formed record is a one-line RecordError naming the problem."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise RecordError(f"{path} does not exist; name a record written by `geodeck play` or play-check") from exc
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RecordError(f"{path} is not a game record: {str(exc).splitlines()[0]}") from exc
    return from_dict(data, str(path))


def from_dict(data, source: str = "record") -> Record:
    def need(container, key, kind, where=""):
        if not isinstance(container, dict) or key not in container:
            raise RecordError(f"{source} is not a game record: {where}{key!r} is missing (see docs/records.md)")
        value = container[key]
        if not isinstance(value, kind) or (isinstance(value, bool) and bool not in _tuple(kind)):
            raise RecordError(f"{source} is not a game record: {where}{key!r} is {value!r} (see docs/records.md)")
        return value

    if need(data, "format", str) != FORMAT:
        raise RecordError(f"{source}: format {data['format']!r} is not {FORMAT!r}; geodeck reads only {FORMAT}")
    deck = need(data, "deck", dict)
    seats = need(data, "seats", list)
    moves = need(data, "moves", list)
    deal = need(data, "deal", list)
    if not all(isinstance(card, str) for card in deal):
        raise RecordError(f"{source} is not a game record: 'deal' must list card ids (strings)")
    record = Record(
        game=need(data, "game", str),
        deck_version=need(deck, "version", (str, type(None)), "deck."),
        deck_hash=need(deck, "content_hash", str, "deck."),
        options=need(data, "options", dict),
        seats=[
            Seat(need(s, "name", str, f"seat {i}: "), need(s, "plays", str, f"seat {i}: ")) for i, s in enumerate(seats)
        ],
        seed=need(data, "seed", (int, str, type(None))),
        deal=deal,
        moves=[
            Move(need(m, "player", (int, str), f"move {i}: "), need(m, "move", str, f"move {i}: "))
            for i, m in enumerate(moves, 1)
        ],
        finished=need(data, "finished", bool),
        scores=need(data, "scores", list),
        winners=need(data, "winners", list),
    )
    for number, move in enumerate(record.moves, 1):
        if isinstance(move.player, str) and move.player != CHANCE:
            raise RecordError(
                f"{source}: move {number}: player {move.player!r} is neither a seat number nor {CHANCE!r}"
            )
    return record


def _tuple(kind) -> tuple:
    return kind if isinstance(kind, tuple) else (kind,)
