"""The game contracts: what each module of a game slice provides, as `typing.Protocol`s mypy checks.

`GameDefinition`'s accessors return a slice's modules typed by these, and each slice's `__init__.py` assigns
its modules to them under `TYPE_CHECKING` (`_deck: contracts.DeckModule = deck`), so mypy checks every
slice, the test's toy game included, and names a missing or mistyped member. A member here is required;
the optional ones are documented on each Protocol and looked up where they are used (`hasattr`).
Parameters are positional-only: a slice may name them as it likes (`c` for the canvas).

States, games and actions are `Any` here: each engine has its own `State` and `Game` classes
(`pipeline.games.core`), which its other modules take.
"""

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # the stages' types, not imported when a game is looked up
    import click
    import pandas as pd
    from rich.console import RenderableType

    from pipeline.decks.card import Card
    from pipeline.decks.spec import DeckSpec
    from pipeline.games.core import EngineGame
    from pipeline.play.view import View
    from pipeline.playcheck.config import Config
    from pipeline.playcheck.stats import Judge
    from pipeline.playcheck.tally import Tally
    from pipeline.render.context import CardContext


class DeckModule(Protocol):
    """`deck`: the cards of a deck from the game's input table (the deck publisher, pipeline/decks/stage.py).

    Optional: `metadata(build_root, reads) -> (fields, {file: sha256})` (the deck's further fields and the
    build files they were read from: `reads`, the definition's `deck_reads`), `reasons(table, spec) ->
    DataFrame` (why each candidate is a card or not, for the changelog: pipeline/decks/reasons.py)."""

    def cards(self, table: "pd.DataFrame", spec: "DeckSpec", /) -> "list[Card]": ...


class CardsModule(Protocol):
    """`cards`: the card renderer (the print engine, pipeline/render/printing.py and kit.py).

    Optional: `steps(cards, ctx) -> {field: pt}` (each field's one size across the deck,
    text.one_size), `SOURCES` (what the cards draw from besides the deck, credited by the kit) and
    `FOR_SALE` (source -> its stand-in in a print for sale, pipeline/render/licences.py)."""

    def check(self, card: dict, ctx: "CardContext", /) -> None: ...
    def front(self, canvas: Any, card: dict, ctx: "CardContext", /) -> None: ...
    def back(self, canvas: Any, card: dict, ctx: "CardContext", /) -> None: ...


class AccessoriesModule(Protocol):
    """`accessories`: the pages beside the cards (pipeline/render/accessories.py). Optional: `SOURCES`,
    `FOR_SALE` as in `CardsModule`."""

    def draw(
        self, canvas: Any, deck: dict, ctx: "CardContext", words: dict, paper_name: str, paper: tuple[float, float], /
    ) -> None: ...


class EngineModule(Protocol):
    """`engine`: the rules engine: `Game.from_deck(deck, players=N)`, a `core.EngineGame` whose states are
    `core.EngineState`s, and `BOTS` (name -> bot factory `(game, rng) -> policy`) for `geodeck play`."""

    @property
    def Game(self) -> "type[EngineGame]": ...
    @property
    def BOTS(self) -> Mapping[str, Callable]: ...


class PlaycheckModule(Protocol):
    """`playcheck`: the game in play-check (pipeline/playcheck/runner.py): `BOTS` (the ladder of bot
    factories, weakest first), `checkpoint(state)` (when the lead is looked at), `collect(state, tally)`,
    `length(state, moves)` (in the definition's `length_unit`), `verdicts(report, tallies, config)` (each a
    `stats.Judge`: the verdict judged at the error it is given, once the runner has counted them all).
    Optional: `COUNTS` and `CATEGORIES`, the messages its counts' and categories' names (and their parts)
    are made from (`N_("placed {guess}")`, `N_("most")`), so that a report shows them in its language
    (pipeline/playcheck/words.py)."""

    @property
    def BOTS(self) -> Mapping[str, Callable]: ...
    def checkpoint(self, state: Any, /) -> int: ...
    def collect(self, state: Any, tally: "Tally", /) -> None: ...
    def length(self, state: Any, moves: int, /) -> int: ...
    def verdicts(self, report: dict, tallies: "dict[str, Tally]", config: "Config", /) -> "list[Judge]": ...


class NotationModule(Protocol):
    """`notation`: moves as stable text (records and replay, docs/records.md): `card_ids(game)` (the cards a
    deal orders), `write(state, action)`, `read(state, text)` (ValueError naming the problem).

    Optional, for decisions that are not moves (Länder toppen's Russia and Turkey at scoring):
    `choices(state) -> list[str]` and `choose(state, text)`."""

    def card_ids(self, game: Any, /) -> tuple[str, ...]: ...
    def write(self, state: Any, action: int, /) -> str: ...
    def read(self, state: Any, text: str, /) -> int: ...


class TerminalModule(Protocol):
    """`terminal`: the table drawn for a human in `geodeck play` (pipeline/play/loop.py), `view` a
    `pipeline.play.view.View`: `seat_names(players, lang)`, `board(state, player, view)` (what `player` may
    see), `label(state, action, view, own)` (a move in words, hidden details only when `own`), `rules(view)`.

    Optional: `moves(state, legal, view)` (the numbered legal moves laid out, e.g. as a grid; None: a plain
    list), `progress(state)` and `revealed(state, index, view)` (each trick or round as it is revealed),
    `free_text(state, legal, view)` and `read(state, legal, text, view)` (a decision typed as text instead of
    chosen from a list), `VARIANTS` (the rulebook's variants for `--variant`, pipeline/play/variants.py),
    `refusal_words(state, fields, view)` (the words of an engine's `core.Refusal` fields other than the seat
    `player`: its cards, slots, moves). Every word is a message of the catalogues (`view.say`)."""

    def seat_names(self, players: int, lang: str, /) -> list[str]: ...
    def board(self, state: Any, player: int, view: "View", /) -> "RenderableType": ...
    def label(self, state: Any, action: int, view: "View", own: bool, /) -> str: ...
    def rules(self, view: "View", /) -> str: ...


class CommandsModule(Protocol):
    """`commands` (optional module): the game's own click commands, added to `geodeck`."""

    @property
    def COMMANDS(self) -> "Sequence[click.Command]": ...
