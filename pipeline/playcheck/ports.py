"""What play-check reads of a game (pipeline/framework/contracts.py: ports): its `playcheck` module, read
by the runner (runner.py) and its playouts (play.py)."""

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from pipeline.framework.contracts import Port, member
from pipeline.framework.definition import GameDefinition

if TYPE_CHECKING:  # annotations only
    from pipeline.playcheck.config import Config
    from pipeline.playcheck.stats import Judge
    from pipeline.playcheck.tally import Tally


class PlaycheckModule(Protocol):
    """`playcheck`: `BOTS` (the ladder of bot factories `(game, rng) -> policy`, weakest first),
    `checkpoint(state)` (when the lead is looked at), `collect(state, tally)`, `length(state, moves)` (in the
    definition's `length_unit`), `verdicts(report, tallies, config)` (each a `stats.Judge`: the verdict judged at
    the error it is given, once the runner has counted them all). Optional: `CONTROLS`, `COUNTS`,
    `CATEGORIES`, `LADDER_NOTE`."""

    @property
    def BOTS(self) -> Mapping[str, Callable]: ...
    def checkpoint(self, state: Any, /) -> int: ...
    def collect(self, state: Any, tally: "Tally", /) -> None: ...
    def length(self, state: Any, moves: int, /) -> int: ...
    def verdicts(self, report: dict, tallies: "dict[str, Tally]", config: "Config", /) -> "list[Judge]": ...


# a control bot's name -> the rung of the ladder it plays against and its factory `(game, rng) -> policy`
Controls = Mapping[str, tuple[str, Callable[[Any, Any], Any]]]
# the messages a report's counts and its categories' names (and their parts) are made from (`N_("most")`),
# so that a report shows them in its language (pipeline/playcheck/words.py)
Names = Sequence[str]

# what a report says below the skill ladder about the game's bots (a message: shown in the report's language)
# and the bots its fields name: {levels} lists the levels given, {search} names the search bot given
LadderNote = tuple[str, Sequence[str], str]

PORTS = (
    Port(
        "playcheck",
        PlaycheckModule,
        {"CONTROLS": Controls, "COUNTS": Names, "CATEGORIES": Names, "LADDER_NOTE": LadderNote},
    ),
)


def playcheck(game: GameDefinition) -> PlaycheckModule:
    return game.module("playcheck")


def controls(module: PlaycheckModule) -> Controls:
    return member(module, "CONTROLS") or {}


def counts(module: PlaycheckModule) -> Names:
    return member(module, "COUNTS") or ()


def categories(module: PlaycheckModule) -> Names:
    return member(module, "CATEGORIES") or ()


def ladder_note(module: PlaycheckModule) -> LadderNote | None:
    return member(module, "LADDER_NOTE")
