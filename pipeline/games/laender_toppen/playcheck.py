"""Länder toppen! in play-check: each trick a comparison of its category, cards removed by ties."""

from pipeline.games.laender_toppen import engine
from pipeline.playcheck.config import Config
from pipeline.playcheck.tally import Tally

BOTS = engine.BOTS  # the ladder, weakest first: random, novice, skilled, expert


def checkpoint(state: engine.State) -> int:
    """Where the lead is looked at: after each round."""
    return state.round


def collect(state: engine.State, tally: Tally) -> None:
    cards = state.game.cards
    for trick in state.tricks:
        if len(trick.played) < 2:
            continue
        credit = 1 / len(trick.winners)
        tally.comparison(
            engine.slot_name(trick.slot),
            [cards[c].id for _, c in trick.played],
            [credit if p in trick.winners else 0.0 for p, _ in trick.played],
            len(trick.winners) > 1,
        )
    tally.count("removed by ties", len(state.removed))


def length(state: engine.State, moves: int) -> int:
    return moves


def verdicts(report: dict, config: Config) -> list[dict]:
    return []
