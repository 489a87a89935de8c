"""The World Game in play-check: each fact round a comparison, tie-breaks on the next card, challenges
(by kind, and how often answered right), and games long enough to need the house rule (a verdict among
heuristic players)."""

from pipeline.games.world_game import engine
from pipeline.playcheck.tally import Tally, verdict

LONG_GAME = 1000  # rounds: a game this long would need the house rule round_limit at a table
MAX_LONG = 0.02  # at most 2 % of the heuristic players' games that long

HEURISTIC = engine.BOTS["expert"]  # the heuristic player of the one-greedy and greedy playouts


def collect(state: engine.State, tally: Tally) -> None:
    ids = state.game.ids
    for turn in state.turns:
        if turn.action == engine.CHALLENGE:
            tally.extra["challenges"] += 1
            tally.extra[f"challenges: {turn.kind}"] += 1
            tally.extra["challenges won by an answer"] += turn.winner != turn.setter
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
    tally.extra[f"longer than {LONG_GAME} rounds"] += len(state.turns) > LONG_GAME


def length(state: engine.State, moves: int) -> int:
    """Rounds, not moves: a round is one fact comparison or one challenge."""
    return len(state.turns)


def verdicts(report: dict) -> list[dict]:
    """Games long enough to need the house rule, among heuristic players."""
    found = []
    for kind in ("one-greedy", "greedy"):
        share = report["playouts"][kind]["per_game"].get(f"longer than {LONG_GAME} rounds", 0.0)
        found.append(verdict(f"games longer than {LONG_GAME} rounds ({kind})", share, MAX_LONG, share <= MAX_LONG))
    return found
