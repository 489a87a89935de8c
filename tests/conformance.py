"""The games the conformance tests run on, from the registry (as OpenSpiel's `random_sim_test` runs over every
registered game): a new game is tested by them without editing a test file.

A case is a registered game with the deck, players and options its conformance tests play: those its test
folder declares in `tests/games/<slice>/conformance.py` (`deck()`, `PLAYERS`, optional `PLAYER_COUNTS`,
`OPTIONS` and `PRINT_DECK`: a synthetic deck keeps the tests fast and apart from published data), else its
newest published deck at its default players (and two cards of each kind to print). Games sharing the
module a test is about (Deutschland and the region decks play the grid game's engine) are one case.

A test that needs more than the module names it among `CAPABILITIES` (`cases("engine", needs=...)`), each
read from what the game states as data, as OpenSpiel's tests read a game's `GameType`: a game without it
is a skipped case saying which capability it lacks, so every conformance test has a case of every game
(marked `conformance`: tests/games/test_games_registry.py runs them all on the toy game).
"""

import importlib
import json
from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from types import ModuleType

import pytest
from fixtures.tiny.games.decks import with_categories

from pipeline.decks import published
from pipeline.framework.definition import GameDefinition
from pipeline.games import registry as games


@dataclass(frozen=True)
class Case:
    definition: GameDefinition

    @property
    def name(self) -> str:
        return self.definition.name

    @cached_property
    def _own(self) -> ModuleType | None:
        """The game's test folder's `conformance` module, if it declares one."""
        name = f"games.{self.definition.package.rpartition('.')[2]}.conformance"
        try:
            return importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is None or not (name == exc.name or name.startswith(f"{exc.name}.")):
                raise
            return None

    @cached_property
    def deck(self) -> dict:
        return self._own.deck() if self._own else published.deck(self.definition)[1]

    @cached_property
    def print_deck(self) -> dict:
        """The deck the print tests draw: the file its test folder names (`PRINT_DECK`, with a value of every
        category of the deck spec: `with_categories`), else the first two cards of each kind of its newest
        published deck."""
        if path := getattr(self._own, "PRINT_DECK", None):
            return with_categories(json.loads(path.read_text(encoding="utf-8")))
        deck = published.deck(self.definition)[1]
        kinds: Counter[str] = Counter()
        cards = [card for card in deck["cards"] if kinds.update([card["kind"]]) or kinds[card["kind"]] <= 2]
        return deck | {"cards": cards}

    @property
    def players(self) -> int:
        return self._own.PLAYERS if self._own else self.definition.default_players

    @property
    def player_counts(self) -> tuple[int, ...]:
        """The player counts tests that go through them play (`PLAYER_COUNTS`; else every count the rules allow)."""
        return tuple(getattr(self._own, "PLAYER_COUNTS", ())) or self.game().player_counts

    @property
    def options(self) -> dict:
        return dict(getattr(self._own, "OPTIONS", {}))

    def game(self, **options):
        """The game of the case's deck and players (`players=` and other options override the case's)."""
        return self.definition.engine.Game.from_deck(self.deck, **({"players": self.players} | self.options | options))


CAPABILITIES = {  # what a conformance test may need beyond the module, read from the game's own data
    "hidden information": lambda case: case.definition.information == "imperfect",  # GameDefinition's
}


def cases(kind: str, needs: tuple[str, ...] = ()) -> list:
    """A pytest parameter per registered game with a module `kind` of its own (the first game using it),
    skipped where the game lacks a capability the test `needs` (`CAPABILITIES`)."""
    found: dict[str, Case] = {}
    for definition in games.registered().values():
        try:
            module = definition.module(kind).__name__
        except ModuleNotFoundError as exc:
            if exc.name != f"{definition.package}.{kind}":
                raise
            continue
        found.setdefault(module, Case(definition))
    return [
        pytest.param(case, id=case.name, marks=[pytest.mark.conformance, *_lacking(case, needs)])
        for case in found.values()
    ]


def _lacking(case: Case, needs: tuple[str, ...]) -> list:
    lacks = [need for need in needs if not CAPABILITIES[need](case)]
    return [pytest.mark.skip(reason=f"{case.name} states no {', '.join(lacks)}")] if lacks else []
