"""The World Game in play-check: each fact round a comparison, tie-breaks on the next card, challenges
(by kind, and how often answered right), and games long enough to need the house rule (a verdict among
the bots above random)."""

from functools import partial

from pipeline.framework import search
from pipeline.games.world_game import engine, players
from pipeline.i18n.catalogue import N_
from pipeline.playcheck.config import Config
from pipeline.playcheck.play import shown
from pipeline.playcheck.stats import Judge, verdict, wilson
from pipeline.playcheck.tally import Tally

OFF_THE_LADDER = ("child", "master")  # `geodeck play` seats: below the novice and above the expert
BOTS = {name: bot for name, bot in engine.BOTS.items() if name not in OFF_THE_LADDER}  # the ladder, weakest first:
# random, novice, skilled, expert, mcts
# the report's word on the bots below the ladder (issue 48): two axes, not one order
LADDER_NOTE: tuple[str, tuple[str, ...], str] = (
    N_(
        "The World Game's bots differ on two axes: what they know ({levels}) and how they play (by rule, or "
        "{search}: a search with the expert's knowledge). The ladder above climbs the knowledge of the bots that "
        "play by rule up to the expert, then the search; the child and the master are seats of geodeck play off "
        "the ladder, the master the strongest of all bots."
    ),
    tuple(players.SKILLS),
    search.NAME,
)
LONG_GAME = 1000  # rounds: a game this long would need the house rule round_limit at a table
# the counts per game (their names are messages: a report shows them translated)
CHALLENGES, BY_KIND, ANSWERED = N_("challenges"), N_("challenges: {kind}"), N_("challenges won by an answer")
TIE_BREAKS, DEEPEST = N_("tie-breaks on a next card"), N_("deepest tie-break")
ROUNDS, LONG = N_("rounds"), N_("longer than {rounds} rounds")
KINDS = (N_("continent"), N_("flag"), N_("location"), N_("capital"))  # the rulebook's challenges (engine.KINDS)
COUNTS: tuple[str, ...] = (
    CHALLENGES,
    BY_KIND,
    ANSWERED,
    TIE_BREAKS,
    DEEPEST,
    ROUNDS,
    LONG,
    *KINDS,
)  # names and their parts


def checkpoint(state: engine.State) -> int:
    """Where the lead (most cards) is looked at: after each round."""
    return state.rounds()


def collect(state: engine.State, tally: Tally) -> None:
    """Each fact round a comparison of the top cards; the game's counts (challenges, tie-breaks, rounds)."""
    ids, facts = state.game.ids, engine.FACTS
    fact_rounds = ties = deepest = 0
    for turn in state.turns:
        if turn.action == engine.CHALLENGE:
            tally.count(CHALLENGES)
            tally.count(BY_KIND.format(kind=turn.kind))
            tally.count(ANSWERED, turn.winner != turn.setter)
            continue
        best = turn.best
        tied = len(best) > 1
        credit = 1 / len(best)
        tally.comparison(
            facts[turn.action], [ids[c] for _, c in turn.top], [credit if p in best else 0.0 for p, _ in turn.top], tied
        )
        fact_rounds += 1
        ties += tied
        deepest = max(deepest, turn.tie_levels)
    if fact_rounds:
        tally.count(TIE_BREAKS, ties)
        tally.maximum(DEEPEST, deepest)
    tally.count(ROUNDS, state.rounds())
    tally.count(LONG.format(rounds=LONG_GAME), state.rounds() > LONG_GAME)


def length(state: engine.State, moves: int) -> int:
    """Rounds, not moves: a round is one fact comparison or one challenge."""
    return state.rounds()


def verdicts(report: dict, tallies: dict[str, Tally], config: Config) -> list[Judge]:
    """Games long enough to need the house rule, among the bots above random (seat playouts; not the search
    bot's few games, which measure the bots)."""
    return [
        partial(_long_games, name, shown(name, summary, report["players"], config.lang), tallies[name], config)
        for name, summary in report["playouts"].items()
        if summary["bot"] != "random" and summary.get("hero") != search.NAME
    ]


def _long_games(name: str, playouts: str, tally: Tally, config: Config, alpha: float) -> dict:
    """The share of `name`'s games longer than LONG_GAME rounds, its interval with the error `alpha`."""
    total, _ = tally.extra.get(LONG.format(rounds=LONG_GAME), (0.0, 0.0))
    return verdict(
        config.text("game.words.name", rounds=LONG_GAME, playouts=playouts),
        wilson(total, tally.games, alpha),
        0.0,
        float(config.get("game.max_long")),
        config.reason("game"),
        margin=float(config.get("game.margin", 0.0)),
        playouts=name,
    )
