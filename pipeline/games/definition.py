"""What a game slice declares: its name and defaults here, its code in modules of a fixed name.

A slice package (`package`) provides these modules, imported only when a stage needs them so that a
command that touches one game (or none) does not import every game's drawing code:

| module | provides | used by |
|---|---|---|
| `deck` | `cards(table, spec)`; optional `metadata(build_root)`, `reasons(table, spec)` | deck publisher |
| `cards` | `check(card, ctx)`, `front(canvas, card, ctx)`, `back(canvas, card, ctx)` (and below) | print engine |
| `accessories` | `draw(canvas, deck, ctx, words, paper_name, paper_mm)` | print engine |
| `engine` | `Game.from_deck(deck, players=N)` (OpenSpiel-style states, core.py), `BOTS` (name -> bot) | play-check |
| `playcheck` | `BOTS`, `checkpoint(state)`, `collect(state, tally)`, `length`, `verdicts(report, cfg)` | play-check |
| `notation` | `card_ids(game)`, `write(state, action)`, `read(state, text)`: moves as text | records, replay |
| `terminal` | `seat_names`, `board(state, player, view)`, `label`, `rules` (see below) | `geodeck play` |
| `commands` (optional) | `COMMANDS`: extra click commands of the game | CLI |

Steps the game needs before its deck (e.g. Deutschland's place selection) are declared in `steps` and
join the build's step graph (pipeline.graph); the deck itself is a step reading `input_table` and `deck_reads`.

`cards` and `accessories` may declare `SOURCES` (the sources they draw from besides the deck, credited by
the kit) and `FOR_SALE` (source -> the stand-in drawn in a print for sale, pipeline.render.licences);
`cards.steps(cards, ctx)` returns a field's sizes across the deck (`{field: (large, small)}` pt, text.two_steps).

`notation`: `card_ids(game)` are the ids of the cards a deal orders (`game.initial_state(deal)`);
`write(state, action) -> str` and `read(state, text) -> action` (ValueError naming the problem) turn a move
into stable text and back (docs/records.md); a game with decisions that are not moves (Länder toppen's
Russia and Turkey at scoring) adds `choices(state) -> list[str]` and `choose(state, text)`.

`terminal`: `seat_names(players, lang)`, `board(state, player, view)` (a rich renderable of what `player`
may see), `label(state, action, view, own)` (a move in words; hidden details only when `own`),
`rules(view)` (the rules in short), optionally `moves(state, legal, view)` (the numbered legal moves laid
out, e.g. as a grid; None: a plain list); `view` is a `pipeline.play.view.View`.

The deck spec is `templates/decks/<name>.toml` and the card layout `templates/cards/<name>.toml`, unless
`templates` names another folder holding `decks/` and `cards/`.
"""

import importlib
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from pipeline.errors import GeodeckError
from pipeline.games import contracts
from pipeline.paths import TEMPLATES_DIR
from pipeline.steps import Step


@dataclass(frozen=True)
class GameDefinition:
    name: str  # the CLI's GAME and the deck folder name, e.g. "my-game"
    package: str  # the slice's Python package, e.g. "pipeline.games.my_game"
    default_players: int
    input_table: str  # the table under build/ the deck is built from, e.g. "geo/countries.parquet"
    length_unit: str = "moves"  # what play-check counts as a game's length
    card_verdicts: bool = False  # judge dominant and useless cards (where the deck's selection can fix them)
    accessories_help: str = ""  # one line for `geodeck print --help`: what --what accessories prints
    deck_reads: tuple[str, ...] = ()  # further files under build/ the deck module reads (its `metadata`)
    steps: tuple[Step, ...] = ()  # the game's own build steps (pipeline.steps.Step), e.g. making its input table
    in_build: bool = True  # `geodeck build` publishes its deck (False: a command of its own does, e.g. regions)
    templates: Path = TEMPLATES_DIR

    def module(self, name: str) -> ModuleType:
        return importlib.import_module(f"{self.package}.{name}")

    @property
    def deck(self) -> contracts.DeckModule:
        return self.module("deck")

    @property
    def cards(self) -> contracts.CardsModule:
        return self.module("cards")

    @property
    def accessories(self) -> contracts.AccessoriesModule:
        return self.module("accessories")

    @property
    def engine(self) -> contracts.EngineModule:
        return self.module("engine")

    def player_counts(self, deck: dict) -> tuple[int, int]:
        """The fewest and most players the rules allow with `deck` (the World Game's depend on its size)."""
        counts = self.engine.Game.from_deck(deck, players=self.default_players).player_counts
        return counts[0], counts[-1]

    @property
    def playcheck(self) -> contracts.PlaycheckModule:
        return self.module("playcheck")

    @property
    def notation(self) -> contracts.NotationModule:
        return self._needed("notation", "recorded or replayed")

    @property
    def terminal(self) -> contracts.TerminalModule:
        return self._needed("terminal", "played in the terminal")

    def _needed(self, name: str, purpose: str) -> ModuleType:
        """A module only some commands need; a slice without it is a one-line error naming the module."""
        try:
            return self.module(name)
        except ModuleNotFoundError as exc:
            if exc.name != f"{self.package}.{name}":
                raise
            raise GeodeckError(f"{self.name} cannot be {purpose}: its slice has no module {exc.name}") from exc

    @property
    def spec_path(self) -> Path:
        return self.templates / "decks" / f"{self.name}.toml"

    @property
    def layout_path(self) -> Path:
        return self.templates / "cards" / f"{self.name}.toml"

    @property
    def playcheck_path(self) -> Path:
        return self.templates / "playcheck" / f"{self.name}.toml"

    @property
    def template_files(self) -> dict[str, Path]:
        """Every template the game reads, by what it holds."""
        return {"deck spec": self.spec_path, "card layout": self.layout_path, "play-check": self.playcheck_path}

    def commands(self) -> list:
        """The game's own CLI commands (module `commands`, list `COMMANDS`), if it has any."""
        try:
            module = self.module("commands")
        except ModuleNotFoundError as exc:
            if exc.name != f"{self.package}.commands":
                raise
            return []
        return list(module.COMMANDS)
