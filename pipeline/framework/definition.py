"""What a game slice declares: its name and defaults here, its code in modules of a fixed name.

A slice package (`package`) provides the modules `deck`, `cards`, `accessories`, `engine`, `playcheck`,
`notation`, `terminal` and optionally `commands`, found here by name (`module`) and typed by the ports of the
stages that read them (pipeline/framework/contracts.py: ports; the engine's here). They are imported only
when a stage needs them, so that a command that touches one game (or none) does not import every game's
drawing code.

Steps the game needs before its deck (e.g. Deutschland's place selection) are declared in `steps` and
join the build's step graph (pipeline.build.graph); the deck itself is a step reading `input_table` and `deck_reads`.

A game of a family (`family`: a shared package, not a game, e.g. pipeline.games.grid, the grid card game of
Deutschland and every region; or a game's package, e.g. a custom deck's recipe game's) is a configuration of it:
a module its slice does not have comes from the family, so a slice holds only what differs (its deck, its
pictures).

The templates a game reads (`template_files`) are its deck spec `templates/decks/<name>.toml`, card layout
`templates/cards/<name>.toml` and play-check thresholds `templates/playcheck/<name>.toml` (`<name>` its
`template_name`, else its name; without its own thresholds its family's, `templates/playcheck/<family>.toml`),
unless `templates` names another folder holding `decks/`, `cards/` and `playcheck/`; a game whose templates
are its own data (a custom deck's) pins them in each version it publishes (`pinned_templates`,
pipeline.decks.pinned).
"""

import importlib
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from pipeline.errors import GeodeckError
from pipeline.framework import contracts
from pipeline.framework.step import Step
from pipeline.i18n.catalogue import N_
from pipeline.paths import TEMPLATES_DIR


@dataclass(frozen=True)
class GameDefinition:
    name: str  # the CLI's GAME and the deck folder name, e.g. "my-game"
    package: str  # the slice's Python package, e.g. "pipeline.games.my_game"
    default_players: int
    input_table: str  # the table under build/ the deck is built from, e.g. "geo/countries.parquet"
    length_unit: str = N_("moves")  # what play-check counts as a game's length
    card_verdicts: bool = False  # judge dominant and useless cards (where the deck's selection can fix them)
    accessories_help: str = ""  # one line for `geodeck print --help`: what --what accessories prints
    deck_reads: tuple[str, ...] = ()  # further files under build/ the deck module reads (its `metadata`)
    steps: tuple[Step, ...] = ()  # the game's own build steps (framework.step.Step), e.g. making its input table
    in_build: bool = True  # `geodeck build` publishes its deck (False: a command of its own does, e.g. regions)
    made_by: str = "geodeck build"  # the command that writes its input table and publishes its deck
    templates: Path = TEMPLATES_DIR
    family: str = ""  # the shared package the slice's missing modules come from, e.g. "pipeline.games.grid"
    template_name: str = ""  # the name of its templates when several games share them (regions: "region")
    pinned_templates: bool = False  # its templates are its own data, kept in each version (pipeline.decks.pinned)
    # what it is, as OpenSpiel's GameType says it: "imperfect" (a seat may not see every card; the
    # conformance tests check that `resample` redraws what it has not seen) or "perfect"
    information: str = "imperfect"

    def own_language(self) -> str | None:
        """The registered language its decks print and play in unless `--lang` says otherwise, where it is
        not the card layout's `default_lang`: the slice package's `own_language(name)` where it has one (a
        region deck: its country's)."""
        own: contracts.OwnLanguage | None = contracts.member(importlib.import_module(self.package), "own_language")
        return own(self.name) if own else None

    def module(self, name: str) -> ModuleType:
        """The slice's module `name`, else its family's; ModuleNotFoundError naming the slice's when neither has it."""
        try:
            return importlib.import_module(f"{self.package}.{name}")
        except ModuleNotFoundError as exc:
            if not self.family or exc.name != f"{self.package}.{name}":
                raise
            try:
                return importlib.import_module(f"{self.family}.{name}")
            except ModuleNotFoundError as family:
                if family.name != f"{self.family}.{name}":
                    raise
                raise exc from None

    @property
    def engine(self) -> contracts.EngineModule:
        return self.module("engine")

    def player_counts(self, deck: dict) -> tuple[int, int]:
        """The fewest and most players the rules allow with `deck` (the World Game's depend on its size)."""
        counts = self.engine.Game.from_deck(deck, players=self.default_players).player_counts
        return counts[0], counts[-1]

    def needed(self, name: str, purpose: str) -> ModuleType:
        """A module only some commands need; a slice without it is a one-line error naming the module."""
        try:
            return self.module(name)
        except ModuleNotFoundError as exc:
            if exc.name != f"{self.package}.{name}":
                raise
            raise GeodeckError(f"{self.name} cannot be {purpose}: its slice has no module {exc.name}") from exc

    @property
    def spec_path(self) -> Path:
        return self.templates / "decks" / f"{self.template_name or self.name}.toml"

    @property
    def layout_path(self) -> Path:
        return self.templates / "cards" / f"{self.template_name or self.name}.toml"

    @property
    def playcheck_path(self) -> Path:
        own = self.templates / "playcheck" / f"{self.template_name or self.name}.toml"
        if own.is_file() or not self.family:
            return own
        return self.templates / "playcheck" / f"{self.family.rsplit('.', 1)[-1]}.toml"

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
