"""`geodeck play-check`: does a deck play well? Seeded playouts of the rules engines, metrics, verdicts.

Three kinds of playouts per check (game i of a kind is seeded with "<seed>:<kind>:<i>", so a report is
reproducible): `random` (every seat plays uniformly random legal moves: the deck's own properties, N
games), `one-greedy` (one seat, rotating, plays the game's simple heuristic against random seats: does
skill pay? N/4 games) and `greedy` (every seat plays the heuristic: turn-order effects under sensible
play, N/4 games). Metrics: game length, win share per seat, ties for the extreme per category, each
card's win index (its wins over its fair share of the comparisons it was in; 1 = average), continent
balance, and per game: cards removed by ties (Länder toppen), M guesses that can be right (Deutschland),
unfinished games and tie-breaks on the next card (World Game). The verdicts compare them with the named
thresholds below (docs/rules-engines.md explains each); any failure makes the exit code 1. Dominant and
useless cards are verdicts only for Länder toppen; unfinished World Games are judged among heuristic players.
"""

import json
import math
import random
import statistics
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from pipeline import games as registry
from pipeline.decks import published
from pipeline.games import core
from pipeline.playcheck.tally import Tally, verdict

SEAT_TOLERANCE = 0.05  # every seat's win share within ±0.05 of 1/players (beyond the 95 % sampling margin)
MAX_TIE_SHARE = 0.05  # at most 5 % of the comparisons of a category/guess/fact decided by a tie
MAX_TIE_SHARE_COUNTS = 0.20  # ... 20 % for a small exact count (land neighbours: ties the rulebook expects)
COUNT_CATEGORIES = ("land_neighbours",)
DOMINANT_INDEX = 1.5  # a card winning ≥ 1.5 × its fair share of its comparisons is dominant ...
USELESS_INDEX = 0.5  # ... one winning ≤ 0.5 × its fair share is useless
MAX_DOMINANT_SHARE = 0.05  # at most 5 % of the cards dominant, at most 5 % useless
MAX_USELESS_SHARE = 0.05
MIN_CONTESTS = 20  # a card needs this many comparisons (random playouts) to be judged
GREEDY_SHARE = 4  # one-greedy and greedy playouts: games // 4 each


def simulate(
    game,
    rules: ModuleType,
    kind: str,
    games: int,
    seed: int,
    on_game: Callable[[], None] = lambda: None,
    watch: Callable | None = None,
) -> Tally:
    """`games` seeded playouts of one kind (random, one-greedy, greedy); `rules` is the game's playcheck module.
    `watch(state, seed, seats)` is shown each game played (e.g. to save its record, --save-records)."""
    players, heuristic = game.players, rules.HEURISTIC
    tally = Tally(players)
    for i in range(games):
        rng = random.Random(f"{seed}:{kind}:{i}")
        greedy_seat = i % players if kind == "one-greedy" else None
        bots = [heuristic if kind == "greedy" or p == greedy_seat else core.random_bot for p in range(players)]
        state = game.new_initial_state(rng)
        moves = core.playout(state, [bot(game, rng) for bot in bots], rng)
        if watch:
            watch(state, f"{seed}:{kind}:{i}", ["bot:expert" if bot is heuristic else "bot:random" for bot in bots])
        rules.collect(state, tally)
        tally.game(state.returns(), rules.length(state, moves), greedy_seat)
        on_game()
    return tally


def continents_of(deck: dict) -> dict[str, list[str]]:
    """Card ids by their first continent (Länder toppen, World Game); empty for Deutschland."""
    found = defaultdict(list)
    for card in deck["cards"]:
        continents = card["fields"].get("continents")
        if continents and card["kind"] != "joker":
            found[continents[0]].append(card["id"])
    return dict(found)


def check(
    deck: dict,
    players: int | None = None,
    games: int = 2000,
    seed: int = 0,
    deck_path: str = "",
    on_game: Callable[[], None] = lambda: None,
    watch: Callable | None = None,
) -> dict:
    """Simulate `deck` and return the report (metrics + verdicts), a JSON-ready dict; `watch` as in simulate."""
    name = deck["game"]
    definition = registry.get(name)
    players = players or definition.default_players
    game = definition.engine.Game.from_deck(deck, players=players)
    rules = definition.playcheck
    side = max(1, games // GREEDY_SHARE)
    tallies = {
        "random": simulate(game, rules, "random", games, seed, on_game, watch),
        "one-greedy": simulate(game, rules, "one-greedy", side, seed, on_game, watch),
        "greedy": simulate(game, rules, "greedy", side, seed, on_game, watch),
    }
    report = {
        "game": name,
        "version": deck.get("version"),
        "deck": deck_path,
        "players": players,
        "games": games,
        "seed": seed,
        "length_unit": definition.length_unit,
        "playouts": {kind: _summary(t) for kind, t in tallies.items()},
    }
    report["cards"] = _cards(tallies["random"], continents_of(deck))
    report["verdicts"] = _verdicts(definition, report)
    report["passed"] = all(v["passed"] for v in report["verdicts"])
    return report


def total_games(games: int) -> int:
    return games + 2 * max(1, games // GREEDY_SHARE)


def _summary(tally: Tally) -> dict:
    lengths = sorted(tally.lengths)
    seat_share = [round(w / tally.games, 4) for w in tally.seat_wins]
    greedy = [round(w / g, 4) if g else None for w, g in zip(tally.greedy_wins, tally.greedy_games)]
    return {
        "games": tally.games,
        "length": {
            "median": statistics.median(lengths),
            "p90": lengths[int(0.9 * (len(lengths) - 1))],
            "max": lengths[-1],
        },
        "seat_win_share": seat_share,
        **({"heuristic_win_share_by_seat": greedy} if any(tally.greedy_games) else {}),
        "ties": {
            c: {"comparisons": n, "ties": t, "share": round(t / n, 4)} for c, (n, t) in sorted(tally.ties.items())
        },
        "per_game": {
            k: round(v / tally.games, 4) if not k.startswith("deepest") else v for k, v in sorted(tally.extra.items())
        },
    }


def _cards(tally: Tally, continents: dict[str, list[str]]) -> dict:
    """Win index per card (random playouts), the dominant and useless cards, the always-winning ones."""
    index = {card: round(wins / fair, 3) for card, (n, fair, wins) in sorted(tally.cards.items()) if n >= MIN_CONTESTS}
    always = defaultdict(list)
    for (card, category), (n, wins) in sorted(tally.always.items()):
        if n >= MIN_CONTESTS and wins == n:
            always[category].append(card)
    by_continent = {}
    for continent, ids in continents.items():
        judged = [index[i] for i in ids if i in index]
        if judged:
            by_continent[continent] = {"cards": len(ids), "mean_win_index": round(statistics.fmean(judged), 3)}
    return {
        "judged": len(index),
        "min_contests": MIN_CONTESTS,
        "dominant": {c: i for c, i in index.items() if i >= DOMINANT_INDEX},
        "useless": {c: i for c, i in index.items() if i <= USELESS_INDEX},
        "always_wins": dict(always),
        "continents": by_continent,
        "strongest": sorted(index.items(), key=lambda kv: (-kv[1], kv[0]))[:5],
        "weakest": sorted(index.items(), key=lambda kv: (kv[1], kv[0]))[:5],
    }


def _verdicts(definition: registry.GameDefinition, report: dict) -> list[dict]:
    verdicts = []
    fair = 1 / report["players"]
    for kind in ("random", "greedy"):
        shares = report["playouts"][kind]["seat_win_share"]
        worst = max(range(len(shares)), key=lambda p: abs(shares[p] - fair))
        noise = 1.96 * math.sqrt(fair * (1 - fair) / report["playouts"][kind]["games"])  # 95 % sampling margin
        verdicts.append(
            verdict(
                f"seat fairness ({kind})",
                abs(shares[worst] - fair),
                SEAT_TOLERANCE,
                abs(shares[worst] - fair) - noise <= SEAT_TOLERANCE,
                f"seat {worst}: {shares[worst]:.3f} ± {noise:.3f}",
            )
        )
    for category, tie in report["playouts"]["random"]["ties"].items():
        limit = MAX_TIE_SHARE_COUNTS if category in COUNT_CATEGORIES else MAX_TIE_SHARE
        verdicts.append(
            verdict(
                f"ties: {category}",
                tie["share"],
                limit,
                tie["share"] <= limit,
                f"{tie['ties']} of {tie['comparisons']}",
            )
        )
    verdicts += definition.playcheck.verdicts(report)
    if not definition.card_verdicts:
        return verdicts
    cards = report["cards"]
    judged = max(cards["judged"], 1)
    for label, limit, limit_index in (
        ("dominant", MAX_DOMINANT_SHARE, DOMINANT_INDEX),
        ("useless", MAX_USELESS_SHARE, USELESS_INDEX),
    ):
        share = len(cards[label]) / judged
        verdicts.append(
            verdict(
                f"{label} cards (win index {'≥' if label == 'dominant' else '≤'} {limit_index})",
                share,
                limit,
                share <= limit,
                ", ".join(sorted(cards[label])[:8]),
            )
        )
    return verdicts


def to_json(report: dict) -> str:
    return json.dumps(report, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def to_markdown(report: dict) -> str:
    lines = [
        f"# play-check: {report['game']} {report['version'] or ''}".rstrip(),
        "",
        f"{report['players']} players, {report['games']} random games (+ heuristic playouts), seed "
        f"{report['seed']}; length in {report['length_unit']}.",
        "",
        "| playouts | games | length median / p90 / max | win share by seat |",
        "|---|---|---|---|",
    ]
    for kind, s in report["playouts"].items():
        length = s["length"]
        lines.append(
            f"| {kind} | {s['games']} | {length['median']} / {length['p90']} / {length['max']} | "
            f"{' · '.join(f'{x:.3f}' for x in s['seat_win_share'])} |"
        )
    greedy = report["playouts"]["one-greedy"].get("heuristic_win_share_by_seat", [])
    lines += [
        "",
        f"Heuristic player against random seats, win share by its seat: "
        f"{' · '.join('-' if x is None else f'{x:.3f}' for x in greedy)} (fair: {1 / report['players']:.3f}).",
        "",
        "| per game (random) | mean |",
        "|---|---|",
    ]
    lines += [f"| {k} | {v} |" for k, v in report["playouts"]["random"]["per_game"].items()]
    cards = report["cards"]
    lines += [
        "",
        f"Win index (random playouts, {cards['judged']} cards with ≥ {cards['min_contests']} comparisons): "
        f"strongest {_pairs(cards['strongest'])}; weakest {_pairs(cards['weakest'])}.",
    ]
    if cards["always_wins"]:
        lines += [
            "",
            "Always won their comparisons: "
            + "; ".join(f"{c}: {', '.join(ids)}" for c, ids in cards["always_wins"].items())
            + ".",
        ]
    if cards["continents"]:
        lines += ["", "| continent | cards | mean win index |", "|---|---|---|"]
        lines += [f"| {c} | {v['cards']} | {v['mean_win_index']} |" for c, v in cards["continents"].items()]
    lines += ["", "| verdict | value | limit | result | detail |", "|---|---|---|---|---|"]
    lines += [
        f"| {v['name']} | {v['value']} | {v['limit']} | {'pass' if v['passed'] else 'FAIL'} | {v['detail']} |"
        for v in report["verdicts"]
    ]
    lines += ["", f"**{'PASS' if report['passed'] else 'FAIL'}**"]
    return "\n".join(lines) + "\n"


def _pairs(pairs) -> str:
    return ", ".join(f"{card} {index}" for card, index in pairs)


def load(game: str, version: str | None = None, deck: Path | None = None) -> tuple[dict, Path]:
    """The deck to check: an explicit deck.json, else output/decks/GAME/<version or LATEST>/deck.json."""
    registry.get(game)
    if deck:
        return published.read(deck, game), deck
    path, data = published.deck(game, version)
    return data, path


def to_rich(report: dict):
    """The report as rich tables: playouts, then verdicts."""
    from rich.console import Group
    from rich.table import Table

    playouts = Table(
        "playouts",
        "games",
        f"length ({report['length_unit']}) median / p90 / max",
        "win share by seat",
        title=f"play-check {report['game']} {report['version'] or ''}: {report['players']} players, "
        f"seed {report['seed']}",
    )
    for kind, s in report["playouts"].items():
        length = s["length"]
        playouts.add_row(
            kind,
            str(s["games"]),
            f"{length['median']} / {length['p90']} / {length['max']}",
            " · ".join(f"{x:.3f}" for x in s["seat_win_share"]),
        )
    figures = Table("per game (random playouts)", "mean")
    for key, value in report["playouts"]["random"]["per_game"].items():
        figures.add_row(key, str(value))
    cards = report["cards"]
    figures.add_row("strongest cards (win index)", _pairs(cards["strongest"]))
    figures.add_row("weakest cards (win index)", _pairs(cards["weakest"]))
    greedy = report["playouts"]["one-greedy"].get("heuristic_win_share_by_seat", [])
    figures.add_row(
        "heuristic vs random seats: its win share", " · ".join("-" if x is None else f"{x:.3f}" for x in greedy)
    )
    verdicts = Table("verdict", "value", "limit", "result", "detail")
    for v in report["verdicts"]:
        verdicts.add_row(
            v["name"],
            str(v["value"]),
            str(v["limit"]),
            "[green]pass[/]" if v["passed"] else "[bold red]FAIL[/]",
            v["detail"],
        )
    return Group(playouts, figures, verdicts, "[bold green]PASS[/]" if report["passed"] else "[bold red]FAIL[/]")
