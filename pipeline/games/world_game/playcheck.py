"""The World Game in play-check: each fact round a comparison, tie-breaks on the next card, challenges
(by kind, and how often answered right), and games long enough to need the house rule (a verdict among
the bots above random)."""

from pipeline.games.world_game import engine
from pipeline.playcheck.config import Config
from pipeline.playcheck.stats import verdict, wilson
from pipeline.playcheck.tally import Tally

BOTS = engine.BOTS  # the ladder, weakest first: random, novice, skilled, expert
LONG_GAME = 1000  # rounds: a game this long would need the house rule round_limit at a table


def checkpoint(state: engine.State) -> int:
    """Where the lead (most cards) is looked at: after each round."""
    return state.rounds()


def collect(state: engine.State, tally: Tally) -> None:
    ids = state.game.ids
    for turn in state.turns:
        if turn.action == engine.CHALLENGE:
            tally.count("challenges")
            tally.count(f"challenges: {turn.kind}")
            tally.count("challenges won by an answer", turn.winner != turn.setter)
            continue
        credit = 1 / len(turn.best)
        tally.comparison(
            engine.FACTS[turn.action],
            [ids[c] for _, c in turn.top],
            [credit if p in turn.best else 0.0 for p, _ in turn.top],
            len(turn.best) > 1,
        )
        tally.count("tie-breaks on a next card", len(turn.best) > 1)
        tally.maximum("deepest tie-break", turn.tie_levels)
    tally.count("rounds", len(state.turns))
    tally.count(f"longer than {LONG_GAME} rounds", len(state.turns) > LONG_GAME)


def length(state: engine.State, moves: int) -> int:
    """Rounds, not moves: a round is one fact comparison or one challenge."""
    return state.rounds()


def verdicts(report: dict, config: Config) -> list[dict]:
    """Games long enough to need the house rule, among the bots above random (seat playouts)."""
    found = []
    limit = float(config.get("game.max_long"))
    for name, summary in report["playouts"].items():
        if summary["bot"] != "random":
            share = summary["per_game"].get(f"longer than {LONG_GAME} rounds", {"value": 0.0})["value"]
            found.append(
                verdict(
                    f"games longer than {LONG_GAME} rounds ({name})",
                    wilson(share * summary["games"], summary["games"]),
                    0.0,
                    limit,
                    config.reason("game"),
                )
            )
    return found
