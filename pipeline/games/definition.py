"""What a game slice declares: its name and defaults here, its code in modules of a fixed name.

A slice package (`package`) provides these modules, imported only when a stage needs them so that a
command that touches one game (or none) does not import every game's drawing code:

| module | provides | used by |
|---|---|---|
| `deck` | `cards(table, spec) -> list[Card]`; optional `metadata(build_root) -> (extra, inputs)` | deck publisher |
| `cards` | `check(card, ctx)`, `front(canvas, card, ctx)`, `back(canvas, card, ctx)` | print engine |
| `accessories` | `draw(canvas, deck, ctx, words, paper_name, paper_mm)` | print engine |
| `engine` | `Game.from_deck(deck, players=N)` (OpenSpiel-style states, core.py), `BOTS` (name -> bot) | play-check |
| `playcheck` | `BOTS`, `checkpoint(state)`, `collect(state, tally)`, `length`, `verdicts(report, config)` | play-check|
| `commands` (optional) | `COMMANDS`: extra click commands of the game | CLI |
| module named by `prepare` (optional) | `run(force) -> bool` (a checksummed step), `outputs()` | geo stage |

The deck spec is `templates/decks/<name>.toml` and the card layout `templates/cards/<name>.toml`, unless
`templates` names another folder holding `decks/` and `cards/`.
"""

import importlib
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from pipeline.paths import TEMPLATES_DIR


@dataclass(frozen=True)
class GameDefinition:
    name: str  # the CLI's GAME and the deck folder name, e.g. "my-game"
    package: str  # the slice's Python package, e.g. "pipeline.games.my_game"
    default_players: int
    input_table: str  # the table under build/ the deck is built from, e.g. "geo/countries.parquet"
    length_unit: str = "moves"  # what play-check counts as a game's length
    card_verdicts: bool = False  # judge dominant and useless cards (where the deck's selection can fix them)
    accessories_help: str = ""  # one line for `geodeck print --help`: what --what accessories prints
    prepare: str | None = None  # module of a geo-stage step that makes the input table (e.g. a selection)
    templates: Path = TEMPLATES_DIR

    def module(self, name: str) -> ModuleType:
        return importlib.import_module(f"{self.package}.{name}")

    @property
    def deck(self) -> ModuleType:
        return self.module("deck")

    @property
    def cards(self) -> ModuleType:
        return self.module("cards")

    @property
    def accessories(self) -> ModuleType:
        return self.module("accessories")

    @property
    def engine(self) -> ModuleType:
        return self.module("engine")

    @property
    def playcheck(self) -> ModuleType:
        return self.module("playcheck")

    @property
    def spec_path(self) -> Path:
        return self.templates / "decks" / f"{self.name}.toml"

    @property
    def layout_path(self) -> Path:
        return self.templates / "cards" / f"{self.name}.toml"

    def commands(self) -> list:
        """The game's own CLI commands (module `commands`, list `COMMANDS`), if it has any."""
        try:
            module = self.module("commands")
        except ModuleNotFoundError as exc:
            if exc.name != f"{self.package}.commands":
                raise
            return []
        return list(module.COMMANDS)
