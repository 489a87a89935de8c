"""How long a print or an export will take, said before it starts: per kind of print (the kit, the card sheets,
each card service) and kind of card (the game's rules package: a custom deck's is its recipe game's), a fixed
part (the kit's booklet and accessories, a service's files) and a part per card (its faces, its pages), fitted
by least squares to the runs `benchmarks/print_times.py record` measured: templates/studio/print-times.json, CPU
seconds, which is the wall time of the single-core job on an idle machine."""

import math
import statistics
from dataclasses import dataclass
from functools import cache

from pipeline import paths, readers
from pipeline.framework.definition import GameDefinition
from pipeline.i18n.catalogue import N_, translate

RUNS = paths.TEMPLATES_DIR / "studio" / "print-times.json"
LEAST_S = 1.0  # no estimate below a second (a worker's start)
ABOUT_S = N_("about {seconds} s")
ABOUT_MIN = N_("about {minutes} min")


@dataclass(frozen=True)
class Line:
    fixed: float  # seconds whatever the deck
    per_card: float  # seconds per card

    def seconds(self, cards: int) -> float:
        return max(LEAST_S, self.fixed + self.per_card * cards)


def family(game: GameDefinition) -> str:
    """The kind of card a game's prints draw: its rules package (a custom or region deck's: its family's)."""
    return game.family or game.package


@cache
def lines() -> dict[tuple[str, str], Line]:
    """(family, kind) -> the line through its measured runs."""
    runs = readers.read("print-times", RUNS)["runs"]
    points: dict[tuple[str, str], list[tuple[int, float]]] = {}
    for run in runs:
        points.setdefault((run["family"], run["kind"]), []).append((run["cards"], run["seconds"]))
    fitted = {}
    for key, measured in points.items():
        cards, seconds = zip(*measured, strict=True)
        slope, intercept = statistics.linear_regression(cards, seconds)
        fitted[key] = Line(intercept, slope)
    return fitted


def seconds(game: GameDefinition, kind: str, cards: int) -> float:
    """The estimated seconds of printing (`kind`: kit, cards) or exporting (`kind`: a service) `cards` cards of
    `game`; a kind of card not measured takes the slowest one's line (an estimate errs long)."""
    fitted = lines()
    line = fitted.get((family(game), kind))
    if line is None:
        line = max((f for (_family, k), f in fitted.items() if k == kind), key=lambda f: f.seconds(cards))
    return line.seconds(cards)


def all_kinds(game: GameDefinition, cards: int, services: list[str]) -> dict[str, float]:
    """Every kind the print form offers (kit, cards, each service) -> its estimated seconds for this deck."""
    return {kind: seconds(game, kind, cards) for kind in ("kit", "cards", *services)}


def duration(lang: str, seconds: float) -> str:
    """An estimate as said: "about 25 s" (up to 90 s, rounded up to 5 s from 10 s), else "about 3 min"."""
    if seconds < 90:
        shown = math.ceil(seconds) if seconds < 10 else 5 * math.ceil(seconds / 5)
        return translate(lang, ABOUT_S, seconds=shown)
    return translate(lang, ABOUT_MIN, minutes=math.ceil(seconds / 60))
