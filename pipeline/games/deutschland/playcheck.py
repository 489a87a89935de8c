"""Deutschland in play-check: each round's extremes as comparisons, how often M can be right, guesses placed."""

from pipeline.games.deutschland import engine
from pipeline.playcheck.config import Config
from pipeline.playcheck.tally import Tally

BOTS = engine.BOTS  # the ladder, weakest first: random, novice, skilled, expert
PLACED = tuple(f"placed {guess}" for guess in engine.GUESSES)  # the counts' names, by guess
RIGHT = tuple(f"right {guess}" for guess in engine.GUESSES)


def checkpoint(state: engine.State) -> int:
    """Where the lead is looked at: after each round."""
    return state.round


def collect(state: engine.State, tally: Tally) -> None:
    places = state.game.places
    for rnd in state.rounds:
        ids = [places[i].id for i in rnd.places]
        for name in engine.GUESSES[:-1]:
            extreme = rnd.correct[name]
            tally.comparison(
                name, ids, [1 / len(extreme) if i in extreme else 0.0 for i in range(len(ids))], len(extreme) > 1
            )
        tally.count("rounds")
        tally.count("rounds where M can be right", bool(rnd.correct["M"]))
        for _, guess, _, right, _ in rnd.placements:
            tally.count(PLACED[guess])
            tally.count(RIGHT[guess], right)


def length(state: engine.State, moves: int) -> int:
    return moves


def verdicts(report: dict, config: Config) -> list[dict]:
    return []
