"""Writing a record of a game played: its deal, every move (the engine's history) in the game's notation,
its result."""

import re
from pathlib import Path

from pipeline import atomic
from pipeline.decks.files import content_hash
from pipeline.framework.core import CHANCE as CHANCE_NODE
from pipeline.framework.definition import GameDefinition
from pipeline.records import ports
from pipeline.records import record as records


def record_of(
    definition: GameDefinition, deck: dict, state, seats: list[records.Seat], seed, deck_hash: str | None = None
) -> records.Record:
    """The record of `state`, a game of `deck` dealt by `game.initial_state` and played so far (finished or
    not); pass `deck_hash` (the deck's content hash) when recording many games of one deck."""
    notation = ports.notation(definition)
    ids = notation.card_ids(state.game)
    again = state.game.initial_state(state.deal)
    moves = []
    for action in state.history():
        player = again.current_player()
        moves.append(
            records.Move(player=records.CHANCE if player == CHANCE_NODE else player, move=notation.write(again, action))
        )
        again.apply_action(action)
    return records.Record(
        format=records.FORMAT,
        game=deck["game"],
        deck=records.Deck(version=deck.get("version"), content_hash=deck_hash or content_hash(deck)),
        options=state.game.options(),
        seats=list(seats),
        seed=seed,
        deal=[ids[i] for i in state.deal],
        moves=moves,
        choices=choices(state) if (choices := ports.choices(notation)) else [],
        finished=state.is_terminal(),
        scores=list(state.scores()),
        winners=list(state.winners()),
    ).sealed()


class Saver:
    """Saves each game it is shown as `<folder>/<seed>.json` (play-check --save-records)."""

    def __init__(self, folder: Path, definition: GameDefinition, deck: dict):
        self.folder, self.definition, self.deck, self.deck_hash = folder, definition, deck, content_hash(deck)

    def __call__(self, state, seed: str, seats: list[str]) -> None:
        """Save `state`, a game played from the deal of `seed` by `seats` (e.g. "bot:random")."""
        players = [records.Seat(name=f"seat {p}", plays=plays) for p, plays in enumerate(seats)]
        record = record_of(self.definition, self.deck, state, players, seed, self.deck_hash)
        records.save(self.folder / f"{file_stem(seed)}.json", record)


def file_stem(seed: str) -> str:
    """A play-check seed ("0:ladder expert>skilled:7") as a file name ("0-ladder-expert-skilled-7")."""
    return re.sub(r"[^A-Za-z0-9.]+", "-", seed)


class Recorder:
    """A game's record kept on disk while it is played (`geodeck play`): the file is claimed before the
    first move (an existing record is refused unless `force`) and rewritten atomically after every move,
    so a crash, a full disk or Ctrl-C loses at most the move being written, never the game."""

    def __init__(
        self, path: Path, definition: GameDefinition, deck: dict, seats: list[records.Seat], seed, force: bool = False
    ):
        atomic.check_new_target(path)
        if path.exists() and not force:
            raise records.RecordError(
                f"{path} already holds a record; pass --force to overwrite it, or --record PATH for another file"
            )
        self.path, self.definition, self.deck, self.seats, self.seed = path, definition, deck, seats, seed
        self.deck_hash = content_hash(deck)

    def save(self, state) -> records.Record:
        """Write the record of `state` (the game so far; marked private until the game has ended: it holds
        every hidden card) and return it."""
        record = record_of(self.definition, self.deck, state, self.seats, self.seed, self.deck_hash)
        if not record.finished:
            record = record.model_copy(update={"private": True})
        records.save(self.path, record)
        return record
