"""The card optimiser: of a recipe's candidates (most familiar first) choose `size` cards that pass
play-check and are as familiar as possible.

It starts from the `size` most familiar candidates and play-checks them (the game's play-check, its
batches on all cores or a Dask cluster, whose processes start once for all the decks it tries:
pipeline/playcheck/execute.py). While a verdict about a card fails, the card it names goes out (a dominant
card, a useless one, the strongest, one that always wins a category, one sharing a tied value with the most
others) and the most familiar candidate left comes in; each swap is reported with the failed verdict that
caused it. It stops when no verdict fails, when a failure names no
card (a seat's advantage, the skill ladder: no choice of cards is known to fix it), or when the candidates
are spent.
"""

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from pipeline.framework.definition import GameDefinition
from pipeline.playcheck import execute, runner

FAIL = "fail"


@dataclass(frozen=True)
class Swap:
    out: str  # the label of the card taken out
    into: str  # the label of the card put in
    why: str  # the failed verdict and what it measured


@dataclass
class Outcome:
    chosen: list[int]  # positions in the candidates
    report: dict  # the last play-check's report
    swaps: list[Swap] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return self.report["result"] != FAIL


def offender(report: dict, deck: dict) -> tuple[str, str] | None:
    """The card a failed verdict of `report` names, and why; None when no failed verdict names a card."""
    cards = report["cards"]
    for verdict in report["verdicts"]:
        if verdict["result"] != FAIL:
            continue
        name = verdict["name"]
        if name.startswith("dominant") and cards.get("dominant"):
            card = max(cards["dominant"], key=lambda c: (cards["dominant"][c], c))
            return card, f"dominant: win index {cards['dominant'][card]} (random play)"
        if name.startswith("useless") and cards.get("useless"):
            card = min(cards["useless"], key=lambda c: (cards["useless"][c], c))
            return card, f"useless: win index {cards['useless'][card]} (random play)"
        if name == "strongest card's win index" and cards["strongest"]:
            card, index = cards["strongest"][0]
            return card, f"the strongest card: win index {index} above {verdict['band'][1]}"
        if name == "categories one card always wins":
            card = verdict["detail"].split(":")[0]
            return card, f"always wins {verdict['detail'].split(': ', 1)[-1]}"
        if "against expert play" in name and ":" in verdict["detail"]:
            return verdict["detail"].split(":")[0], f"{name}: {verdict['detail'].split(';')[0]}"
        if name.startswith("ties: "):
            category = name.removeprefix("ties: ").split(" ")[0]
            if found := _most_tied(deck, category):
                return found, f"ties in {category}: its value is shared by the most cards ({verdict['detail']})"
    return None


def _most_tied(deck: dict, category: str) -> str | None:
    """Of the cards sharing their value in `category` with the most others, the last (least familiar) one."""
    values = [(c["id"], c["fields"].get(category)) for c in deck["cards"] if c["fields"].get(category) is not None]
    counts = Counter(v for _, v in values)
    tied = [(counts[v], i) for i, (_, v) in enumerate(values) if counts[v] > 1]
    return values[max(tied)[1]][0] if tied else None


def choose(
    definition: GameDefinition,
    labels: list[str],
    ids: list[str],
    size: int,
    deck_of: Callable[[list[int]], dict],
    games: int,
    jobs: int = 1,
    scheduler: str | None = None,
    max_swaps: int = 40,
) -> Outcome:
    """The chosen candidates (module docstring): `labels` and card `ids` of the candidates, most familiar
    first; `deck_of(positions)` the deck those candidates make."""
    chosen, spare = list(range(size)), list(range(size, len(ids)))
    swaps: list[Swap] = []
    with execute.Workers(jobs, scheduler) as workers:  # started once for every deck tried
        while True:
            deck = deck_of(chosen)
            report = runner.check(definition, deck, games=games, workers=workers, deck_path="candidates")
            outcome = Outcome(list(chosen), report, list(swaps))
            culprit = offender(report, deck) if report["result"] == FAIL else None
            if culprit is None or not spare or len(swaps) >= max_swaps or culprit[0] not in ids:
                return outcome
            out = ids.index(culprit[0])
            if out not in chosen:
                return outcome
            into = spare.pop(0)
            chosen[chosen.index(out)] = into
            swaps.append(Swap(labels[out], labels[into], culprit[1]))
