"""The record of one game as data and as JSON (docs/records.md): deck, options, seats, deal, moves, result.

A move is the game's own notation of one decision (e.g. "W de-03402000"), never an engine's action number,
so a record stays readable and replayable when an engine renumbers its actions. Chance outcomes are moves
of the player "chance".
"""

import hashlib
import json
import re
from pathlib import Path
from typing import Annotated, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from pipeline import atomic, jsonfile, text
from pipeline.errors import GeodeckError

FORMAT: Final = "geodeck-record/1"
CHANCE: Final = "chance"  # the player of a chance outcome


class RecordError(GeodeckError):
    """A record that cannot be read or does not replay: the message names the move and the rule."""


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


SEED = re.compile(r"[0-9]{1,10}:[a-z0-9 >_-]{1,60}:[0-9]{1,10}")  # play-check's "SEED:KIND:I"
LARGEST_SEED = 2**32 - 1  # `geodeck play --seed`


class Seat(_Strict):
    name: Annotated[str, Field(min_length=1, max_length=100)]
    plays: Annotated[str, Field(pattern=r"^(human|bot:[a-z0-9_-]{1,40})$")]  # a bot's level: replay checks it


class Move(_Strict):
    player: int | Literal["chance"]  # a seat index, or CHANCE
    move: str


class Deck(_Strict):
    version: str | None  # None: an unpublished deck
    content_hash: str


class Record(_Strict):
    format: Literal["geodeck-record/1"]
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
    # SHA-256 of the seed, deal, moves and choices as written (`moves_digest`): a record changed after it was
    # written, a legal move swapped for another that keeps the score too, is refused (issue 48; records
    # written before carry none and are not checked)
    moves_hash: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")] | None = None

    def moves_digest(self) -> str:
        """The hash of what was played: the seed, the deal, every move (player and notation) and choice."""
        played = [self.seed, self.deal, [[m.player, m.move] for m in self.moves], self.choices]
        return hashlib.sha256(json.dumps(played, ensure_ascii=False, separators=(",", ":")).encode()).hexdigest()

    def sealed(self) -> "Record":
        """This record with the hash of its moves."""
        return self.model_copy(update={"moves_hash": self.moves_digest()})

    @field_validator("seed")
    @classmethod
    def _seed(cls, seed: int | str | None) -> int | str | None:
        if seed is None or (isinstance(seed, int) and 0 <= seed <= LARGEST_SEED):
            return seed
        if isinstance(seed, str) and SEED.fullmatch(seed):
            return seed
        raise ValueError(f'must be an integer 0-{LARGEST_SEED}, play-check\'s "SEED:KIND:I" or null')

    def to_json(self) -> str:
        """One key per line, each seat and move on a line of its own (diffable, readable)."""
        lines = []
        for key, value in self.model_dump(mode="json").items():
            if (key == "private" and not value) or (key == "moves_hash" and value is None):
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
    """A record from parsed JSON; the first problem found is a one-line RecordError naming the field (a
    control character or bidi override in any string, an over-long one, a field of the wrong type or range)."""
    try:
        text.check_all(data, f"{source} is not a game record")
    except GeodeckError as exc:
        raise RecordError(str(exc)) from exc
    try:
        return Record.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = text.place(".".join(str(part) for part in first["loc"])) or "the document"
        got = "" if first["type"] == "missing" else f", got {first['input']!r:.60}"
        raise RecordError(f"{source} is not a game record: {where}: {first['msg']}{got} (docs/records.md)") from exc
