"""The record of one game as data and as JSON (docs/records.md): deck, options, seats, deal, moves, result.

A move is the game's own notation of one decision (e.g. "W de-03402000"), never an engine's action number,
so a record stays readable and replayable when an engine renumbers its actions. Chance outcomes are moves
of the player "chance".
"""

import json
from pathlib import Path
from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from pipeline import atomic, jsonfile
from pipeline.errors import GeodeckError

FORMAT: Final = "geodeck-record/1"
CHANCE: Final = "chance"  # the player of a chance outcome


class RecordError(GeodeckError):
    """A record that cannot be read or does not replay: the message names the move and the rule."""


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class Seat(_Strict):
    name: str
    plays: str  # "human", "bot:<level>"


class Move(_Strict):
    player: int | Literal["chance"]  # a seat index, or CHANCE
    move: str


class Deck(_Strict):
    version: str | None  # None: an unpublished deck
    content_hash: str


class Record(_Strict):
    format: Literal["geodeck-record/1"] = FORMAT
    game: str
    deck: Deck
    options: dict
    seats: list[Seat]
    seed: int | str | None
    deal: list[str]
    moves: list[Move]
    choices: list[str] = []  # decisions that are not moves, in the game's notation (Russia/Turkey at scoring)
    finished: bool
    # written before the end of a game played at the screen: it holds the whole deal and every hidden move,
    # which no seat has seen yet; not to be shown to a player while the game goes on (written only when true)
    private: bool = False
    scores: list[int | float]
    winners: list[int]

    def to_json(self) -> str:
        """One key per line, each seat and move on a line of its own (diffable, readable)."""
        lines = []
        for key, value in self.model_dump(mode="json").items():
            if key == "private" and not value:
                continue
            if key in ("seats", "moves"):
                items = ",\n".join(f"  {_compact(v)}" for v in value)
                lines.append(f' "{key}": [\n{items}\n ]' if value else f' "{key}": []')
            else:
                lines.append(f" {json.dumps(key)}: {_compact(value)}")
        return "{\n" + ",\n".join(lines) + "\n}\n"


_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "))  # one encoder for every seat and move


def _compact(value) -> str:
    return _COMPACT.encode(value)


def save(path: Path, record: Record) -> None:
    atomic.write_text(path, record.to_json())


def load(path: Path) -> Record:
    """A record file, read within the JSON limits (at most 5 MB, pipeline.jsonfile); anything but a
    well-formed record is a one-line RecordError naming the problem."""
    try:
        data = jsonfile.load(path, jsonfile.RECORD_BYTES)
    except jsonfile.Missing as exc:
        raise RecordError(f"{path} does not exist; name a record written by `geodeck play` or play-check") from exc
    except jsonfile.Unreadable as exc:
        raise RecordError(f"{path} is not a game record: it {exc}") from exc
    return from_dict(data, str(path))


def from_dict(data, source: str = "record") -> Record:
    """A record from parsed JSON; the first problem found is a one-line RecordError naming the field."""
    try:
        return Record.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "the document"
        got = "" if first["type"] == "missing" else f", got {first['input']!r:.60}"
        raise RecordError(f"{source} is not a game record: {where}: {first['msg']}{got} (docs/records.md)") from exc
