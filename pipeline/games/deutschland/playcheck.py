"""Deutschland in play-check: each round's extremes as comparisons, how often M can be right, guesses placed."""

from pipeline.games.deutschland import engine
from pipeline.playcheck.tally import Tally

HEURISTIC = engine.BOTS["expert"]  # the simple heuristic player of the one-greedy and greedy playouts


def collect(state: engine.State, tally: Tally) -> None:
    places = state.game.places
    for rnd in state.rounds:
        ids = [places[i].id for i in rnd.places]
        for guess in engine.GUESSES[:-1]:
            right = rnd.correct[guess]
            tally.comparison(
                guess, ids, [1 / len(right) if i in right else 0.0 for i in range(len(ids))], len(right) > 1
            )
        tally.extra["rounds"] += 1
        tally.extra["rounds where M can be right"] += bool(rnd.correct["M"])
        for _, placed, _, hit, _ in rnd.placements:
            tally.extra[f"placed {engine.GUESSES[placed]}"] += 1
            tally.extra[f"right {engine.GUESSES[placed]}"] += hit


def length(state: engine.State, moves: int) -> int:
    return moves


def verdicts(report: dict) -> list[dict]:
    return []
