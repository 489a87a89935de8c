"""The grid game in play-check: each round's extremes as comparisons, how often M can be right, guesses placed."""

from collections import Counter
from functools import cache

from pipeline.framework import search
from pipeline.games.grid import engine
from pipeline.i18n.catalogue import N_
from pipeline.playcheck.config import Config
from pipeline.playcheck.stats import Judge
from pipeline.playcheck.tally import Tally

# the ladder, weakest first: random, novice, skilled, expert, master; the search bot (a seat in `geodeck play`)
# is off it, below the expert (issue 35: 0.500 [0.404, 0.596] of 100 duels; issue 48: 0.406 [0.359, 0.455])
BOTS = {name: bot for name, bot in engine.BOTS.items() if name != search.NAME}
# the counts per game (their names are messages: a report shows them translated, `COUNTS`)
ROUNDS, M_RIGHT = N_("rounds"), N_("rounds where M can be right")
PLACED_AS, RIGHT_AS = N_("placed {guess}"), N_("right {guess}")
PLACED = tuple(PLACED_AS.format(guess=guess) for guess in engine.GUESSES)  # by guess
RIGHT = tuple(RIGHT_AS.format(guess=guess) for guess in engine.GUESSES)
COUNTS: tuple[str, ...] = (ROUNDS, M_RIGHT, PLACED_AS, RIGHT_AS)
CATEGORIES: tuple[str, ...] = (
    N_("most"),
    N_("fewest"),
)  # the guesses that name a category (N, S, W, O are the compass's)
COMPARED = tuple(enumerate(engine.GUESSES[:-1]))  # every guess but M names an extreme: a comparison


def checkpoint(state: engine.State) -> int:
    """Where the lead is looked at: after each round."""
    return state.round


def collect(state: engine.State, tally: Tally) -> None:
    """Per round the six comparisons (each extreme place wins, tied ones share) and whether M can be right;
    per game how often each guess was placed and was right."""
    game = state.game
    width = game.width
    right_moves: list[int] = []
    for r, scored in enumerate(state.scored):
        ids = [game.fronts[i][0] for i in scored.places]
        for guess, name in COMPARED:
            mask = scored.correct[guess]
            tally.comparison(name, ids, credits(mask, width), mask.bit_count() > 1)
        right_moves += [action for action in state.moves(r) if scored.right >> action & 1]
    tally.count(ROUNDS, len(state.scored))
    tally.count(M_RIGHT, sum(scored.correct[engine.M] != 0 for scored in state.scored))
    guess_of = width.__rfloordiv__  # an action's guess: action // width
    placed, right = Counter(map(guess_of, state.history())), Counter(map(guess_of, right_moves))
    for guess in sorted(placed):
        tally.count(PLACED[guess], placed[guess])
        tally.count(RIGHT[guess], right[guess])


@cache
def credits(mask: int, width: int) -> list[float]:
    """Each position's share of a comparison's win: 1/k for the k positions in `mask`, 0 elsewhere."""
    return [1 / mask.bit_count() if mask >> i & 1 else 0.0 for i in range(width)]


def length(state: engine.State, moves: int) -> int:
    return moves


def verdicts(report: dict, tallies: dict[str, Tally], config: Config) -> list[Judge]:
    return []
