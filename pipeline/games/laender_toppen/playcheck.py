"""Länder toppen! in play-check: each trick a comparison of its category, cards removed by ties."""

import random
from collections.abc import Callable
from functools import partial

from pipeline.framework.core import Policy
from pipeline.games.laender_toppen import engine
from pipeline.i18n.catalogue import N_, clauses, labelled
from pipeline.playcheck.config import Config
from pipeline.playcheck.numbers import fixed
from pipeline.playcheck.stats import Interval, Judge, mean, settled, verdict
from pipeline.playcheck.tally import Tally, WinSums
from pipeline.playcheck.words import named

BOTS = engine.BOTS  # the ladder, weakest first: random, novice, skilled, expert


def blind_expert(game: engine.Game, rng: random.Random) -> Policy:
    """The expert's play (placing by regret, piles by points) on values it does not know: each country card's
    row of slot values is another country card's, shuffled once per game. Against it the expert's edge is
    what knowing the values is worth, its pile play cancelling out."""
    values, countries = game.powered(game.players - 1), [i for i, card in enumerate(game.cards) if not card.joker]
    drawn = rng.sample(countries, len(countries))
    seen, slots = list(values), game.slots
    for card, other in zip(countries, drawn):
        seen[card * slots : (card + 1) * slots] = values[other * slots : (other + 1) * slots]

    def policy(observation: engine.Observation, rng: random.Random) -> int:
        if observation.deciding:
            return engine._best_points(observation, rng)
        return engine._most_regret(observation.legal_actions, seen, game.place, slots)

    return policy


TAKEN = N_("cards taken from the others")  # the counts per game (messages: a report shows them translated)
REMOVED = N_("removed by ties")
DEALT = N_("cards dealt to a player")  # a maximum per game: a hand times the rounds
COUNTS: tuple[str, ...] = (TAKEN, REMOVED, DEALT)
CATEGORIES: tuple[str, ...] = (
    N_("{field} above"),
    N_("{field} below"),
)  # the slots' names (engine.SLOT_NAMES), translated
AGAINST_EXPERTS = "seats 4p"  # the cards judged against expert play: at four players every card is dealt each game
CONTROLS: dict[str, tuple[str, Callable[[engine.Game, random.Random], Policy]]] = {
    "blind": ("expert", blind_expert)
}  # a control bot, the rung it plays against, its factory


def checkpoint(state: engine.State) -> int:
    """Where the lead is looked at: after each round."""
    return state.round


def collect(state: engine.State, tally: Tally) -> None:
    ids, names = state.game.ids, state.game.slot_names
    if tally.kind == AGAINST_EXPERTS:  # each card against what the experts played, in every slot
        _against_the_table(state, tally)
    for _, slot, played, winners in state.tricks:
        if len(played) < 2:
            continue
        credit = 1 / len(winners)
        tally.comparison(
            names[slot],
            [ids[c] for _, c in played],
            [credit if p in winners else 0.0 for p, _ in played],
            len(winners) > 1,
        )
    tally.count(REMOVED, len(state.removed))
    tally.maximum(DEALT, state.game.hand_size * state.game.rounds)
    taken = [0.0] * state.players  # the others' cards each player took: what knowing the values wins
    for _, _, played, winners in state.tricks:
        if len(winners) == 1:
            taken[winners[0]] += len(played) - 1
    tally.by_seat(TAKEN, taken)


def _against_the_table(state: engine.State, tally: Tally) -> None:
    """Each country card a player placed in a round, put in every slot of that round where it has a value and
    the others played a card: would it have won (a tie: its share)? Where the holder put it does not count,
    only the card against the cards a table of experts plays (`Tally.hypothetical`)."""
    game, ids = state.game, state.game.ids
    rounds: dict[int, list[engine.Trick]] = {}
    for trick in state.tricks:
        rounds.setdefault(trick.round, []).append(trick)
    for tricks in rounds.values():
        held: dict[int, list[int]] = {}
        for trick in tricks:
            for player, card in trick.played:
                held.setdefault(player, []).append(card)
        for trick in tricks:
            ranks, name = game.ranks[trick.slot], game.slot_names[trick.slot]
            for player, cards in held.items():
                rivals = [ranks[c] for p, c in trick.played if p != player]
                if not rivals:
                    continue
                best = max(rivals)
                for card in cards:
                    rank = ranks[card]
                    if rank != rank:  # NaN: a dash, never placed there
                        continue
                    credit = 1.0 if rank > best else 1 / (1 + rivals.count(best)) if rank == best else 0.0
                    tally.hypothetical(name, ids[card], len(rivals), credit)


def _knowing(report: dict, tallies: dict[str, Tally], config: Config) -> list[Judge]:
    """Does knowing the values pay? Per player count of the ladder, the cards the expert takes from the
    others per game over what a blind expert seat takes (the same play on another card's values), at least a
    share of the cards a player is dealt (`skill.min_taken_share`)."""
    return [
        partial(_knowing_at, name, summary["players"], tallies[name], config)
        for name, summary in report["playouts"].items()
        if summary.get("hero") == "expert" and summary["bot"] == "blind"
    ]


def _knowing_at(name: str, players: int, tally: Tally, config: Config, alpha: float) -> dict:
    total, squares = tally.extra.get(f"{TAKEN}: hero's edge", (0.0, 0.0))
    dealt = tally.maxima[DEALT]  # a player's cards a game
    return verdict(
        config.text("skill.words.knowing", players=players),
        mean(tally.games, total, squares, alpha),
        float(config.get("skill.min_taken_share")) * dealt,  # a card per eight dealt: about a trick a round
        (players - 1) * dealt,  # every card the others were dealt
        config.get("skill.words.knowing_reason"),
        config.text("skill.words.knowing_detail", games=tally.games),
        playouts=name,
    )


def length(state: engine.State, moves: int) -> int:
    return moves


def verdicts(report: dict, tallies: dict[str, Tally], config: Config) -> list[Judge]:
    """Issue 35: whether knowing the values pays, and the cards judged against expert play."""
    return [*_knowing(report, tallies, config), *_cards_against_experts(tallies, config)]


def _cards_against_experts(tallies: dict[str, Tally], config: Config) -> list[Judge]:
    """In the four-player seat playouts: the strongest card's win rate over the deck's average, and the most
    slots one card always wins."""
    name = AGAINST_EXPERTS
    if name not in tallies:  # thresholds without four-player seats
        return []
    tally = tallies[name]
    min_contests = int(config.get("cards.min_contests", 20))
    judged = {card: sums for card, sums in sorted(tally.against.items()) if sums.comparisons >= min_contests}
    sweeps: dict[str, list[str]] = {}
    for (card, slot), (n, wins) in sorted(tally.against_always.items()):
        if n >= min_contests and wins == n:
            sweeps.setdefault(card, []).append(slot)
    most = max(sweeps.items(), key=lambda kv: (len(kv[1]), kv[0]), default=("", []))
    games = config.text("cards.words.games_of_experts", games=tally.games)
    always = verdict(
        config.text("cards.words.always_against_experts"),
        Interval(len(most[1]), len(most[1]), len(most[1])),
        0,
        int(config.get("cards.max_always_categories")),
        config.reason("cards"),
        clauses(
            config.lang,
            [
                labelled(config.lang, most[0], ", ".join(named(slot, CATEGORIES, config.lang) for slot in most[1])),
                games,
            ],
        )
        if most[1]
        else games,
        playouts=name,
    )
    return [partial(_strongest_against_experts, judged, games, config), settled(always)]


def _strongest_against_experts(judged: dict[str, WinSums], games: str, config: Config, alpha: float) -> dict:
    """The strongest card's win index over the deck's average, every card's interval with a share of `alpha`."""
    average = sum(s.wins for s in judged.values()) / max(sum(s.fair for s in judged.values()), 1e-9)
    index = {card: sums.index(alpha / max(1, len(judged))) for card, sums in judged.items()}
    strongest = max(index, key=lambda card: (index[card].value, card), default="")
    top = index.get(strongest, Interval(0.0, 0.0, 0.0))
    return verdict(
        config.text("cards.words.against_experts"),
        Interval(top.value / average, top.low / average, top.high / average) if average else top,
        0.0,
        float(config.get("cards.max_against_experts")),
        config.reason("cards"),
        config.text(
            "cards.words.against_experts_detail", card=strongest, average=fixed(average, config.lang), games=games
        ),
        playouts=AGAINST_EXPERTS,
        checks=len(judged),
    )
