"""The World Game in play-check: each fact round a comparison, tie-breaks on the next card, challenges,
games stopped at the round cap (a verdict among the bots above random)."""

from pipeline.games.world_game import engine
from pipeline.playcheck.config import Config
from pipeline.playcheck.stats import verdict, wilson
from pipeline.playcheck.tally import Tally

BOTS = engine.BOTS  # the ladder, weakest first: random, novice, skilled, expert


def checkpoint(state: engine.State) -> int:
    """Where the lead (most cards) is looked at: after each round."""
    return len(state.turns)


def collect(state: engine.State, tally: Tally) -> None:
    ids = state.game.ids
    for turn in state.turns:
        if turn.action == engine.CHALLENGE:
            tally.count("challenges")
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
    tally.count("unfinished (round cap)", state.capped)


def length(state: engine.State, moves: int) -> int:
    """Rounds, not moves: a round is one fact comparison or one challenge."""
    return len(state.turns)


def verdicts(report: dict, config: Config) -> list[dict]:
    """Unfinished games among the bots above random (every seat the seat bot)."""
    found = []
    limit = float(config.get("game.max_unfinished"))
    for name, summary in report["playouts"].items():
        if summary["bot"] != "random":
            share = summary["per_game"].get("unfinished (round cap)", {"value": 0.0})["value"]
            found.append(
                verdict(
                    f"unfinished games ({name}, cap {engine.MAX_ROUNDS} rounds)",
                    wilson(share * summary["games"], summary["games"]),
                    0.0,
                    limit,
                    config.reason("game"),
                )
            )
    return found
