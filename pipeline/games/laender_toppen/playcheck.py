"""Länder toppen! in play-check: each trick a comparison of its category, cards removed by ties."""

from pipeline.games.laender_toppen import engine
from pipeline.playcheck.config import Config
from pipeline.playcheck.tally import Tally

BOTS = engine.BOTS  # the ladder, weakest first: random, novice, skilled, expert


def checkpoint(state: engine.State) -> int:
    """Where the lead is looked at: after each round."""
    return state.round


def collect(state: engine.State, tally: Tally) -> None:
    ids = state.game.ids
    for _, slot, played, winners in state.tricks:
        if len(played) < 2:
            continue
        credit = 1 / len(winners)
        tally.comparison(
            engine.SLOT_NAMES[slot],
            [ids[c] for _, c in played],
            [credit if p in winners else 0.0 for p, _ in played],
            len(winners) > 1,
        )
    tally.count("removed by ties", len(state.removed))


def length(state: engine.State, moves: int) -> int:
    return moves


def verdicts(report: dict, tallies: dict[str, Tally], config: Config, alpha: float) -> list[dict]:
    return []
