"""The World Game in play-check: each fact round a comparison, tie-breaks on the next card, challenges,
games stopped at the round cap (a verdict among heuristic players)."""

from pipeline.games.world_game import engine
from pipeline.playcheck.tally import Tally, verdict

MAX_UNFINISHED = 0.02  # at most 2 % of the heuristic players' games stopped at the round cap

HEURISTIC = engine.greedy_policy  # the simple heuristic player of the one-greedy and greedy playouts


def collect(state: engine.State, tally: Tally) -> None:
    ids = state.game.ids
    for turn in state.turns:
        if turn.action == engine.CHALLENGE:
            tally.extra["challenges"] += 1
            continue
        credit = 1 / len(turn.best)
        tally.comparison(
            engine.FACTS[turn.action],
            [ids[c] for _, c in turn.top],
            [credit if p in turn.best else 0.0 for p, _ in turn.top],
            len(turn.best) > 1,
        )
        tally.extra["tie-breaks on a next card"] += len(turn.best) > 1
        tally.extra["deepest tie-break"] = max(tally.extra["deepest tie-break"], turn.tie_levels)
    tally.extra["rounds"] += len(state.turns)
    tally.extra["unfinished (round cap)"] += state.capped


def length(state: engine.State, moves: int) -> int:
    """Rounds, not moves: a round is one fact comparison or one challenge."""
    return len(state.turns)


def verdicts(report: dict) -> list[dict]:
    """Unfinished games among heuristic players."""
    found = []
    for kind in ("one-greedy", "greedy"):
        share = report["playouts"][kind]["per_game"].get("unfinished (round cap)", 0.0)
        found.append(
            verdict(
                f"unfinished games ({kind}, cap {engine.MAX_ROUNDS} rounds)",
                share,
                MAX_UNFINISHED,
                share <= MAX_UNFINISHED,
            )
        )
    return found
