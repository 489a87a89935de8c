"""Writing a record while a game is played: `Tape` wraps a fresh state and notes every move applied to it."""

from collections.abc import Callable
from pathlib import Path

from pipeline import games
from pipeline.decks.files import content_hash
from pipeline.games.core import CHANCE as CHANCE_NODE
from pipeline.records import record as records


def new_record(deck: dict, seats: list[records.Seat], seed, state, deck_hash: str | None = None) -> records.Record:
    """An empty record of `state`, a game of `deck` just dealt (before its first move); pass `deck_hash` (the
    deck's content hash) when recording many games of one deck."""
    ids = games.get(deck["game"]).notation.card_ids(state.game)
    return records.Record(
        game=deck["game"],
        deck_version=deck.get("version"),
        deck_hash=deck_hash or content_hash(deck),
        options=state.game.options(),
        seats=list(seats),
        seed=seed,
        deal=[ids[i] for i in state.deal],
    )


class Tape:
    """A state that writes each applied move into `record` (everything else is the wrapped state's own), and
    fills in the result when the game ends; `on_end(record)` is then called once (e.g. to save it)."""

    def __init__(self, state, record: records.Record, on_end: Callable[[records.Record], None] = lambda _: None):
        self._state, self.record, self._on_end = state, record, on_end
        self._notation = games.get(record.game).notation

    def __getattr__(self, name):
        return getattr(self._state, name)

    @property
    def state(self):
        return self._state

    def apply_action(self, action: int) -> None:
        player = self._state.current_player()
        text = self._notation.write(self._state, action)
        self._state.apply_action(action)
        self.record.moves.append(records.Move(records.CHANCE if player == CHANCE_NODE else player, text))
        if self._state.is_terminal():
            self.close()

    def close(self) -> records.Record:
        """The record with the result so far (a game left early: finished false, the scores at that point)."""
        self.record.finished = self._state.is_terminal()
        self.record.scores = list(self._state.scores())
        self.record.winners = list(self._state.winners())
        self._on_end(self.record)
        return self.record


class Saver:
    """Saves each game it is given as `<folder>/<name>.json` (play-check --save-records)."""

    def __init__(self, folder: Path, deck: dict):
        self.folder, self.deck, self.deck_hash = folder, deck, content_hash(deck)

    def __call__(self, state, seed: str, seats: list[str]) -> Tape:
        """Wrap a fresh `state` dealt from `seed`, whose seats play `seats` (e.g. "bot:random")."""
        players = [records.Seat(f"seat {p}", plays) for p, plays in enumerate(seats)]
        record = new_record(self.deck, players, seed, state, self.deck_hash)
        path = self.folder / f"{seed.replace(':', '-')}.json"
        return Tape(state, record, on_end=lambda r: records.save(path, r))
