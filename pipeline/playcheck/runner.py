"""`geodeck play-check`: does a deck play well? Seeded playouts of the rules engines, metrics with 95 %
intervals, verdicts that pass, fail or stay undecided.

Kinds of playouts (game i of a kind is seeded with "<seed>:<kind>:<i>", so a report is the same for every
`--jobs` and on a cluster): `random` (every seat random, N games at the chosen player count: the deck's
own properties: card strength, ties, length, branching factor, lead changes, shared wins); `seats Pp` (every
seat plays the configured bot, N games per configured player count: first-player advantage); `ladder
A>B` (one seat, rotating, plays bot A against seats of the next weaker bot B, N/4 games per rung: does
skill pay, step by step?; the top rung, the search bot over `expert`, N/100 games, reported, not judged).
The thresholds are the game's `templates/playcheck/<game>.toml` (config.py); `pipeline/games/<game>/playcheck.py`
adds the game's own counts and verdicts.

Sequential: after the first N games per kind (a look), the kinds of playout that an undecided verdict is
measured on play on, to about the games its interval needs to decide (at least 1.5 × and at most STEP × as
many, at most `max_games`; the last of the looks goes to `max_games`), until every verdict is decided or the
budget is spent. A verdict the budget cannot decide outright plays on only until it is level (`_more`).
Every verdict's intervals are Bonferroni-corrected for all verdicts at all possible looks (each verdict
gets an equal share of the family's 5 % per look, split among the intervals it judges), so the verdicts
together err with at most 5 % at every size and after any number of looks.
"""

import math
import statistics
from collections import defaultdict
from collections.abc import Callable
from contextlib import nullcontext
from functools import cache, partial
from itertools import pairwise
from pathlib import Path

from pipeline.decks import published
from pipeline.decks.values import card_name
from pipeline.framework import search
from pipeline.framework.definition import GameDefinition
from pipeline.framework.levels import level
from pipeline.i18n.catalogue import N_, labelled, translate
from pipeline.i18n.language import Language
from pipeline.playcheck import config as thresholds
from pipeline.playcheck import execute, ports, words
from pipeline.playcheck.numbers import fixed, interval, plain, short
from pipeline.playcheck.play import RANDOM, Kind, Watch, batches, deck_json
from pipeline.playcheck.stats import (
    ALPHA,
    TIES,
    UNDECIDED,
    Interval,
    Judge,
    games_to_decide,
    mean,
    mean_of,
    noticed,
    settled,
    verdict,
    wilson,
    worst,
)
from pipeline.playcheck.tally import Tally

LADDER_SHARE = 4  # ladder playouts: games // 4 per rung
SEARCH_SHARE = 100  # the search bot's rung (its top, `search.NAME`): games // 100, as its games cost far more
GROWTH = 8  # `geodeck play-check`'s default budget: at most 8 × --games per kind (four looks)
STEP = 4  # a look plays at most 4 × what its kind has played (except the last, which goes to the budget)


def plan(definition, config: thresholds.Config, game, players: int) -> list[Kind]:
    """The kinds of playout of one check and their order (random, seats per player count, ladder); `game`
    is the engine's game at `players` (its `player_counts` may depend on the deck)."""
    counts = [c for c in sorted({players, *config.get("seats.player_counts")}) if c in game.player_counts]
    seat_bot = config.get("seats.bot")
    bots = list(ports.playcheck(definition).BOTS)
    kinds = [Kind(RANDOM, players, RANDOM)]
    kinds += [Kind.seats(count, seat_bot) for count in counts]
    for count in _ladder_counts(config, game, players):  # the check's own count keeps its rungs' names (seeds)
        at = count != players
        kinds += [Kind.ladder(count, lower, upper, at) for lower, upper in pairwise(bots)]
        controls = ports.controls(ports.playcheck(definition))  # a rung against its control bot
        kinds += [Kind.ladder(count, name, upper, at) for name, (upper, _) in controls.items()]
    return kinds


def _ladder_counts(config: thresholds.Config, game, players: int) -> list[int]:
    """The player counts the ladder is measured at: the check's, then `skill.player_counts` (2 and 4: a
    rung must beat the one below in a duel and at a full table), where the game allows them."""
    wanted = [int(c) for c in config.get("skill.player_counts", [players])]
    return [players] + [c for c in sorted(set(wanted)) if c != players and c in game.player_counts]


def games_of(kind: Kind, games: int) -> int:
    """Random and seat playouts: `games` each (seat shares need them: ±10 % of 1/4 is ±0.025); ladder rungs
    a quarter (their edges are large), the search bot's a hundredth (a search per move)."""
    if kind.hero == search.NAME:
        return max(1, games // SEARCH_SHARE)
    return max(1, games // LADDER_SHARE) if kind.hero else games


def looks_of(games: int, max_games: int) -> int:
    """How many looks a check may make: as many as doubling games would take to reach max_games."""
    return 1 + max(0, math.ceil(math.log2(max(max_games, games) / games)))


def check(
    definition: GameDefinition,
    deck: dict,
    players: int | None = None,
    games: int = 2000,
    seed: int = 0,
    deck_path: str = "",
    jobs: int = 1,
    scheduler: str | None = None,
    workers: execute.Workers | None = None,
    on_start: Callable[[int], None] = lambda total: None,
    on_games: Callable[[int], None] = lambda n: None,
    watch: Watch | None = None,
    max_games: int | None = None,
    lang: Language | None = None,
) -> dict:
    """Simulate `deck` and return the report (metrics with intervals + verdicts), a JSON-ready dict: first
    `games` per kind of playout, then more of the kinds an undecided verdict needs (`_more`), up to
    `max_games` (default: `games`, one look); played on `workers` when given (open, shared by several
    checks), else on `jobs` processes or at `scheduler`, started for this check; `on_start(total)` when a
    look's games are planned; `watch(state, seed, seats)` is shown each game played (--save-records); the
    verdicts' names, reasons and details are in `lang` (default: the source language)."""
    config = thresholds.load(definition).speaking(lang)
    players = players or definition.default_players
    game = definition.engine.Game.from_deck(deck, players=players)  # a bad player count fails here, in one line
    kinds = plan(definition, config, game, players)
    max_games = max(max_games or games, games)
    looks = looks_of(games, max_games)
    wanted = {kind.name: games_of(kind, games) for kind in kinds}
    tallies: dict[str, Tally] = {}
    planned = 0
    with nullcontext(workers) if workers else execute.Workers(jobs, scheduler) as playing:
        for look in range(looks):
            played = {kind.name: tallies[kind.name].games if kind.name in tallies else 0 for kind in kinds}
            work = [b for k in kinds for b in batches(definition, k, wanted[k.name], seed, played[k.name])]
            # the search bot's batches first: a search per move makes each the longest, so they play beside the
            # others instead of after them on one core (tallies merge per kind in batch order: the same report)
            work.sort(key=lambda b: b.kind.hero != search.NAME)
            planned += sum(b.games for b in work)
            on_start(planned)
            results = execute.run(work, deck_json(deck), playing, lambda b: on_games(b.games), watch)
            for batch, tally in zip(work, results):
                if batch.kind.name in tallies:
                    tallies[batch.kind.name].merge(tally)
                else:
                    tallies[batch.kind.name] = tally
            report = _report(definition, config, deck, deck_path, kinds, tallies, games, seed, looks)
            report |= {"looks": look + 1, "max_looks": looks, "max_games": max_games}
            more = _more(report, kinds, wanted, max_games, last=look == looks - 2)
            if not more:
                break
            wanted |= more
    return report


def _more(report: dict, kinds: list[Kind], wanted: dict[str, int], max_games: int, last: bool) -> dict[str, int]:
    """The games each kind with an undecided or level verdict plays up to in the next look: 1.2 × the most its
    verdicts need, at least 1.5 × and at most STEP × what it played, at most its budget (the last look: its
    budget). A verdict needs the games that would pass or fail it outright (`games_to_decide`) when its kind's
    budget holds them; when it does not, a level verdict needs none (level is what the budget can say: more
    games would not decide it) and an undecided one the games that would make it level (`_to_level`). The
    cap: an estimate from a small look is noisy, and for the worst of several seats biased upward (the worst
    seat of 1,000 games lies further from fair than it will at 4,000), so a first look's estimate does not
    send a kind to its whole budget at once."""
    budget = {kind.name: games_of(kind, max_games) for kind in kinds}
    needed: dict[str, int] = {}
    for v in report["verdicts"]:
        if v["result"] == UNDECIDED or v.get("level"):
            guess = v["games_to_decide"] if v["result"] == UNDECIDED else _to_decide(v, report)
            if guess is None or guess > budget[v["playouts"]]:  # the budget cannot decide it outright
                if v.get("level"):
                    continue
                guess = _to_level(v, report)
            guess = guess or max_games * LADDER_SHARE  # no number of games: the budget
            needed[v["playouts"]] = max(needed.get(v["playouts"], 0), guess)
    more = {}
    for kind in kinds:
        if kind.name in needed:
            cap = budget[kind.name]
            played = wanted[kind.name]
            goal = max(math.ceil(1.2 * needed[kind.name]), math.ceil(1.5 * played))
            goal = cap if last else min(goal, STEP * played)
            if min(goal, cap) > played:
                more[kind.name] = min(goal, cap)
    return more


def _report(definition, config, deck, deck_path, kinds, tallies, games, seed, looks) -> dict:
    report = {
        "game": definition.name,
        "version": deck.get("version"),
        "deck": deck_path,
        "players": kinds[0].players,
        "games": games,
        "seed": seed,
        "length_unit": definition.length_unit,
        "thresholds": str(thresholds.path_of(definition).relative_to(definition.templates.parent)),
        "playouts": {kind.name: _summary(kind, tallies[kind.name]) for kind in kinds},
        # the messages the counts and categories were made from: a report shows them in any language
        "names": {
            "COUNTS": list(ports.counts(ports.playcheck(definition))),
            "CATEGORIES": list(ports.categories(ports.playcheck(definition))),
        },
    }
    note = ports.ladder_note(ports.playcheck(definition))
    if note:  # what the ladder does not say about the game's bots (the World Game's two axes)
        report["ladder_note"] = {"message": note[0], "levels": list(note[1]), "search": note[2]}
    report["cards"] = _cards(tallies[RANDOM], continents_of(deck), config, definition.card_verdicts)
    report["cards"]["names"] = _names(deck, report["cards"], config.lang)
    judges = _verdicts(definition, config, report, tallies)
    count = len(judges)  # the family's size: each verdict judges its intervals with its share of the error
    report["verdicts"] = [judge(ALPHA / (count * looks)) for judge in judges]
    for v in report["verdicts"]:
        v["alpha"] = float(
            f"{ALPHA / (count * looks * max(v['checks'], 1)):.3g}"
        )  # each of its intervals' (none: a rung of no games)
        if v["result"] == UNDECIDED:
            v["games_to_decide"] = _to_decide(v, report)
    report["result"] = worst([v["result"] for v in report["verdicts"]])
    needed = [  # the --max-games that would decide them (a ladder rung plays a quarter of it)
        v["games_to_decide"] * (LADDER_SHARE if "hero" in report["playouts"][v["playouts"]] else 1)
        for v in report["verdicts"]
        if v.get("games_to_decide")
    ]
    if needed:
        report["max_games_to_decide"] = max(needed)
    return report


def _to_decide(v: dict, report: dict) -> int | None:
    """About how many games of its playouts would pass or fail verdict `v` (`stats.games_to_decide`)."""
    low, high = v["band"]
    return games_to_decide(_interval(v), low, high, v["margin"], report["playouts"][v["playouts"]]["games"])


def _to_level(v: dict, report: dict) -> int | None:
    """About how many games of its playouts would make verdict `v` level (its interval within ± its equivalence
    bound of the band) or fail it; None for a verdict that cannot be level (no equivalence bound)."""
    if not v.get("equivalence"):
        return None
    low, high = v["band"]
    games = report["playouts"][v["playouts"]]["games"]
    return games_to_decide(_interval(v), low, high, max(v["margin"], v["equivalence"]), games)


def continents_of(deck: dict) -> dict[str, list[str]]:
    """Card ids by their first continent (Länder toppen, World Game); empty for Deutschland."""
    found = defaultdict(list)
    for card in deck["cards"]:
        continents = card["fields"].get("continents")
        if continents and card["kind"] != "joker":
            found[continents[0]].append(card["id"])
    return dict(found)


def _summary(kind: Kind, tally: Tally) -> dict:
    lengths = sorted(tally.lengths)
    n = tally.games
    by_cards: dict[str, dict[str, list[int]]] = defaultdict(dict)
    for (category, cards), pair in sorted(tally.ties.items()):
        by_cards[category][str(cards)] = pair
    ties = {}
    for category, pairs in by_cards.items():
        compared, tied = sum(n for n, _ in pairs.values()), sum(t for _, t in pairs.values())
        ties[category] = {
            "comparisons": compared,
            "ties": tied,
            "by_cards": pairs,
            "share": wilson(tied, compared).to_json(),
        }
    summary = {
        "players": kind.players,
        "bot": kind.bot,
        "games": n,
        "length": {
            "mean": mean_of([float(x) for x in lengths]).to_json(),
            "median": statistics.median(lengths),
            "p90": lengths[int(0.9 * (n - 1))],
            "max": lengths[-1],
            "counts": [[length, lengths.count(length)] for length in sorted(set(lengths))],
        },
        "seat_win_share": [wilson(w, n).to_json() for w in tally.seat_wins],
        "shared_wins": wilson(tally.shared, n).to_json(),
        "lead_changes": mean_of([float(x) for x in tally.lead_changes]).to_json(),
        "ties": ties,
        "per_game": {k: mean(n, total, squares).to_json() for k, (total, squares) in sorted(tally.extra.items())},
        **({"maxima": dict(sorted(tally.maxima.items()))} if tally.maxima else {}),
    }
    if tally.branching:
        summary["branching_factor"] = mean_of(tally.branching).to_json()
    if kind.hero:
        summary["hero"] = kind.hero
        summary["hero_win_share"] = wilson(sum(tally.hero_wins), sum(tally.hero_games)).to_json()
        summary["hero_win_share_by_seat"] = [
            round(w / g, 4) if g else None for w, g in zip(tally.hero_wins, tally.hero_games)
        ]
    return summary


def _names(deck: dict, cards: dict, lang: Language) -> dict[str, str]:
    """The names in `lang` of the cards the report lists (strongest, weakest, always winning), by id."""
    listed = {c for c, _ in cards["strongest"] + cards["weakest"]} | {
        c for ids in cards["always_wins"].values() for c in ids
    }
    return {c["id"]: card_name(c.get("fields") or {}, lang, c["id"]) for c in deck["cards"] if c["id"] in listed}


def _cards(
    tally: Tally, continents: dict[str, list[str]], config: thresholds.Config, judged_here: bool, alpha: float = ALPHA
) -> dict:
    """Win index per card (random playouts) with its interval; dominant and useless cards; always-winning ones."""
    min_contests = int(config.get("cards.min_contests", 20))
    index = {card: sums.index(alpha) for card, sums in sorted(tally.cards.items()) if sums.comparisons >= min_contests}
    always = defaultdict(list)
    for (card, category), (n, wins) in sorted(tally.always.items()):
        if n >= min_contests and wins == n:
            always[category].append(card)
    by_continent = {}
    for continent, ids in continents.items():
        judged = [index[i].value for i in ids if i in index]
        if judged:
            by_continent[continent] = {"cards": len(ids), "mean_win_index": mean_of(judged).to_json()}
    ranked = sorted(index.items(), key=lambda kv: (-kv[1].value, kv[0]))
    found = {
        "judged": len(index),
        "min_contests": min_contests,
        "win_index": {card: iv.to_json() for card, iv in index.items()},
        "always_wins": dict(always),
        "continents": by_continent,
        "strongest": [[c, round(iv.value, 3)] for c, iv in ranked[:5]],
        "weakest": [[c, round(iv.value, 3)] for c, iv in ranked[::-1][:5]],
    }
    if judged_here:
        dominant, useless = float(config.get("cards.dominant_index")), float(config.get("cards.useless_index"))
        found["dominant"] = {c: round(iv.value, 3) for c, iv in index.items() if iv.high >= dominant}
        found["useless"] = {c: round(iv.value, 3) for c, iv in index.items() if iv.low <= useless}
    return found


def _interval(data: dict) -> Interval:
    return Interval(data["value"], data["low"], data["high"])


def _verdicts(definition, config: thresholds.Config, report: dict, tallies: dict[str, Tally]) -> list[Judge]:
    """Every verdict, each to be judged with an error (split among its intervals) once they are counted."""
    playouts = report["playouts"]
    tables = [name for name in playouts if name == RANDOM or name.startswith("seats ")]
    found: list[Judge] = [partial(_seats, name, playouts[name]["bot"], tallies[name], config) for name in tables]
    found += [partial(_first_player, name, playouts[name]["bot"], tallies[name], config) for name in tables]
    categories = words.of(report, "CATEGORIES")
    found += [partial(_ties, category, tie, config, categories) for category, tie in playouts[RANDOM]["ties"].items()]
    found.append(partial(_shared_wins, tallies[RANDOM], config))
    found += [
        partial(_skill, name, summary, tallies[name], config)
        for name, summary in playouts.items()
        if "hero" in summary and summary["hero"] != search.NAME  # the search bot's rung measures the bots only
    ]
    found += ports.playcheck(definition).verdicts(report, tallies, config)
    if definition.card_verdicts:  # random play: a card goes to every category (with expert play a card's
        # win index measures where the experts put it: Nepal in peak above wins there every time)
        found += _card_verdicts(tallies[RANDOM], report["cards"]["judged"], config, RANDOM)
        found.append(settled(_sweeps(report["cards"], config, categories)))
    return found


def _ties(category: str, tie: dict, config: thresholds.Config, categories: tuple[str, ...], share: float) -> dict:
    """The share of tied comparisons in `category` (random play) below what its values' spread allows."""
    p = float(config.get(f"ties.categories.{category}.per_rival", config.get("ties.per_rival")))
    limit = sum(n * (1 - (1 - p) ** (int(k) - 1)) for k, (n, _) in tie["by_cards"].items()) / tie["comparisons"]
    return verdict(
        translate(config.lang, TIES, category=words.named(category, categories, config.lang)),
        wilson(tie["ties"], tie["comparisons"], share),
        0.0,
        limit,
        config.get(f"ties.categories.{category}.words.reason", config.reason("ties")),
        translate(
            config.lang,
            "{ties} of {comparisons}; {per_rival} per other card compared",
            ties=tie["ties"],
            comparisons=tie["comparisons"],
            per_rival=plain(p, config.lang),
        ),
        margin=limit * float(config.get("ties.margin", 0.0)),
        playouts=RANDOM,
    )


def _noticed(config: thresholds.Config, found: Interval, low: float, high: float) -> float:
    """A share of games' equivalence bound: the smallest difference from its band that a table notices in the
    `notice.games` games it plays (none set: 0, no verdict is level)."""
    return noticed(found, low, high, int(config.get("notice.games", 0)))


def _shared_wins(tally: Tally, config: thresholds.Config, share: float) -> dict:
    found, limit = wilson(tally.shared, tally.games, share), float(config.get("shared_wins.max"))
    return verdict(
        translate(config.lang, "shared wins (random)"),
        found,
        0.0,
        limit,
        config.reason("shared_wins"),
        margin=float(config.get("shared_wins.margin", 0.0)),
        playouts=RANDOM,
        equivalence=_noticed(config, found, 0.0, limit),
    )


def _skill(name: str, summary: dict, tally: Tally, config: thresholds.Config, share: float) -> dict:
    """A rung of the ladder: the stronger bot's seat wins more than its fair share by `skill.min_edge`."""
    fair = 1 / summary["players"]
    hero, bot = level(summary["hero"], config.lang), level(summary["bot"], config.lang)
    found, edge = wilson(sum(tally.hero_wins), sum(tally.hero_games), share), fair + float(config.get("skill.min_edge"))
    return verdict(
        translate(
            config.lang, "skill: {hero} vs {bot}, {players} players", hero=hero, bot=bot, players=summary["players"]
        ),
        found,
        edge,
        1.0,
        config.reason("skill"),
        translate(
            config.lang,
            "one {hero} seat among {others} {bot}; fair {fair}",
            hero=hero,
            bot=bot,
            others=summary["players"] - 1,
            fair=fixed(fair, config.lang),
        ),
        margin=float(config.get("skill.margin", 0.0)),
        playouts=name,
        equivalence=_noticed(config, found, edge, 1.0),
    )


def _seats(name: str, bot: str, tally: Tally, config: thresholds.Config, share: float) -> dict:
    """Every seat's win share within ±tolerance of fair, each seat's interval with its share of the error; the
    worst seat is reported. A pass may exceed the band by `margin`; both relative to fair, so a seat's edge
    counts the same at every player count."""
    players = tally.players
    fair = 1 / players
    tolerance, margin = float(config.get("seats.tolerance")), fair * float(config.get("seats.margin", 0.0))
    low, high = fair * (1 - tolerance), fair * (1 + tolerance)
    shares = [wilson(w, tally.games, share / players) for w in tally.seat_wins]
    within = [_noticed(config, s, low, high) for s in shares]
    judged = [verdict("", s, low, high, "", margin=margin, equivalence=x) for s, x in zip(shares, within)]
    rank = {"fail": 0, "undecided": 1, "pass": 2}
    seat = min(  # the worst seat: failing, else undecided, else level, else the furthest from fair
        range(players),
        key=lambda p: (rank[judged[p]["result"]], not judged[p]["level"], -abs(shares[p].value - fair), p),
    )
    lang = config.lang
    return verdict(
        translate(lang, "seats, {players} players ({bot})", players=players, bot=level(bot, lang)),
        shares[seat],
        low,
        high,
        config.reason("seats"),
        translate(
            lang,
            "seat {seat} (first player {first}); fair {fair}",
            seat=seat,
            first=interval(shares[0], lang),
            fair=fixed(fair, lang),
        ),
        margin=margin,
        playouts=name,
        checks=players,
        equivalence=within[seat],
    )


def _sweeps(cards: dict, config: thresholds.Config, categories: tuple[str, ...] = ()) -> dict:
    """The most categories one card won every comparison of, in the random playouts (`cards`: the report's;
    `categories`: the messages the game's categories are named by)."""
    sweeps: dict[str, list[str]] = defaultdict(list)
    for category, ids in cards["always_wins"].items():
        for card in ids:
            sweeps[card].append(category)
    most = max(sweeps.items(), key=lambda kv: (len(kv[1]), kv[0]), default=("", []))
    return verdict(
        translate(config.lang, "categories one card always wins"),
        Interval(len(most[1]), len(most[1]), len(most[1])),  # a count of the random playouts
        0,
        int(config.get("cards.max_always_categories")),
        config.reason("cards"),
        labelled(config.lang, most[0], ", ".join(words.named(c, categories, config.lang) for c in most[1]))
        if most[1]
        else "",
        playouts=RANDOM,
    )


def _first_player(name: str, bot: str, tally: Tally, config: thresholds.Config, share: float) -> dict:
    """The first player's win share within ±`seats.first_player` (absolute) of fair, no margin: what the
    players at a table ask ("does starting win?"), judged at every player count of the seat playouts."""
    fair, within = 1 / tally.players, float(config.get("seats.first_player"))
    lang, bot = config.lang, level(bot, config.lang)
    found = wilson(tally.seat_wins[0], tally.games, share)
    return verdict(
        translate(lang, "first player, {players} players ({bot})", players=tally.players, bot=bot),
        found,
        fair - within,
        fair + within,
        config.reason("seats"),
        translate(
            lang,
            "seat 0's wins of {games} games among {bot} players; fair {fair} ± {within}",
            games=tally.games,
            bot=bot,
            fair=fixed(fair, lang),
            within=short(within, lang),
        ),
        playouts=name,
        equivalence=_noticed(config, found, fair - within, fair + within),
    )


def _card_verdicts(tally: Tally, judged: int, config: thresholds.Config, playouts: str) -> list[Judge]:
    """Dominant and useless cards (share of the judged cards) and the strongest card's win index (where any
    card is judged), measured on `playouts` (its `tally`), every card's interval with the verdict's error."""
    cards = cache(lambda share: _cards(tally, {}, config, True, share / max(1, judged)))
    found = [partial(_card_share, cards, label, config, playouts) for label in ("dominant", "useless")]
    return found + ([partial(_strongest, cards, config, playouts)] if judged else [])


def _card_share(cards: Callable[[float], dict], label: str, config: thresholds.Config, playouts: str, share: float):
    """The share of the judged cards that are dominant (win index at least `cards.dominant_index`) or useless."""
    judged = cards(share)
    index = [_interval(iv) for iv in judged["win_index"].values()]
    count = max(len(index), 1)
    limit = float(config.get(f"cards.{label}_index"))
    if label == "dominant":
        interval = Interval(*(sum(v >= limit for v in values) / count for values in _bounds(index)))
    else:  # the least useless share counts the cards whose upper end is at most the limit
        value, low, high = _bounds(index)
        interval = Interval(*(sum(v <= limit for v in values) / count for values in (value, high, low)))
    names = {
        "dominant": N_("dominant cards (win index ≥ {limit})"),
        "useless": N_("useless cards (win index ≤ {limit})"),
    }
    return verdict(
        translate(config.lang, names[label], limit=plain(limit, config.lang)),
        interval,
        0.0,
        float(config.get("cards.max_share")),
        config.reason("cards"),
        ", ".join(sorted(judged[label])[:8]),
        playouts=playouts,
        checks=count,
    )


def _strongest(cards: Callable[[float], dict], config: thresholds.Config, playouts: str, share: float) -> dict:
    judged = cards(share)
    index = [_interval(iv) for iv in judged["win_index"].values()]
    value, low, high = _bounds(index)
    return verdict(
        translate(config.lang, "strongest card's win index"),
        Interval(max(value), max(low), max(high)),
        0.0,
        float(config.get("cards.max_index")),
        config.reason("cards"),
        ", ".join(f"{c} {plain(i, config.lang)}" for c, i in judged["strongest"][:3]),
        playouts=playouts,
        checks=len(index),
    )


def _bounds(index: list[Interval]) -> tuple[list[float], list[float], list[float]]:
    """The values, lower and upper ends of intervals."""
    return [i.value for i in index], [i.low for i in index], [i.high for i in index]


def load(game: GameDefinition, version: str | None = None, deck: Path | None = None) -> tuple[dict, Path]:
    """The deck to check: an explicit deck.json, else output/decks/GAME/<version or LATEST>/deck.json."""
    if deck:
        return published.read(deck, game), deck
    path, data = published.deck(game, version)
    return data, path
