"""Every bot of a game against every other: one seat of bot A (rotating) among seats of bot B, at a player
count, seeded `"<seed>:tournament Pp A>B:i"` like play-check's rungs. A pairing's figure is A's win share
(a shared win counts 1/k) with its 95 % Wilson interval, against the fair share 1/players; beside it A's
share of the points (its score over all scores, Student's t interval), which tells strengths apart in
fewer games."""

import argparse
import random
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import cache

from pipeline.games import core, registry, search
from pipeline.playcheck.stats import Interval, mean_of, wilson


@dataclass(frozen=True)
class Pairing:
    hero: str
    field: str
    players: int
    games: int
    share: Interval
    points: Interval

    @property
    def fair(self) -> float:
        return 1 / self.players


def duel(game, bots: dict, hero: str, field: str, games: int, seed: str = "0") -> Pairing:
    """`games` games of one `hero` seat (seat i % players in game i) among `field` seats of `game`."""
    players, won, points = game.players, 0.0, []
    for i in range(games):
        rng = random.Random(f"{seed}:tournament {players}p {hero}>{field}:{i}")
        seat = i % players
        state = game.new_initial_state(rng)
        policies = [bots[hero if p == seat else field](game, rng) for p in range(players)]
        core.playout(state, policies, rng)
        won += state.returns()[seat]
        scores = state.scores()
        points.append(scores[seat] / sum(scores) if sum(scores) > 0 else 1 / players)
    return Pairing(hero, field, players, games, wilson(won, games), mean_of(points))


def table(game, bots: dict, names: Sequence[str] | None = None, games: int = 100, seed: str = "0") -> list[Pairing]:
    """Every ordered pairing of `names` (default: every bot) at the game's player count."""
    names = list(names or bots)
    return [duel(game, bots, a, b, games, seed) for a in names for b in names if a != b]


def markdown(pairings: Iterable[Pairing]) -> str:
    """The pairings as a Markdown table: one row per hero, one column per field."""
    pairings = list(pairings)
    heroes = list(dict.fromkeys(p.hero for p in pairings))
    fields = list(dict.fromkeys(p.field for p in pairings))
    found = {(p.hero, p.field): p for p in pairings}
    lines = ["| hero \\ field | " + " | ".join(fields) + " |", "|---|" + "---|" * len(fields)]
    for hero in heroes:
        cells = [str(found[hero, f].share) if (hero, f) in found else "–" for f in fields]
        lines.append(f"| {hero} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def bots_of(name: str) -> dict:
    """A game's bots, weakest first, and its baselines (`players.BASELINES`, where a game has some) first."""
    bots = dict(registry.get(name).engine.BOTS)
    try:
        import importlib

        baselines = importlib.import_module(f"pipeline.games.{name.replace('-', '_')}.players").BASELINES
    except (ImportError, AttributeError):
        baselines = {}
    return {**baselines, **bots}


@cache
def _game(name: str, players: int):
    from pipeline.decks import published

    definition = registry.get(name)
    return definition.engine.Game.from_deck(published.deck(definition)[1], players=players)


def _play(name: str, players: int, hero: str, field: str, games: int, seed: str) -> Pairing:
    return duel(_game(name, players), bots_of(name), hero, field, games, seed)


def run(name: str, players: int, games: int, search_games: int, seed: str = "0", jobs: int = 2) -> list[Pairing]:
    """Every bot among every weaker one (each unordered pair once, the later in `BOTS` as the hero), the search
    bot's pairings with `search_games` games (a search per move; 0: left out)."""
    names = list(bots_of(name))
    pairs = [(names[j], names[i]) for i in range(len(names)) for j in range(i + 1, len(names))]
    pairs = [(a, b) for a, b in pairs if search_games or search.NAME not in (a, b)]  # 0: without the search bot
    with ProcessPoolExecutor(jobs) as pool:
        futures = [
            pool.submit(_play, name, players, a, b, search_games if search.NAME in (a, b) else games, seed)
            for a, b in pairs
        ]
        return [f.result() for f in futures]


def main() -> None:
    parser = argparse.ArgumentParser(description="Every bot of GAME among every weaker one, as a Markdown table.")
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--search-games", type=int, default=40)
    parser.add_argument("--seed", default="0")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    pairings = run(args.game, args.players, args.games, args.search_games, args.seed, args.jobs)
    print(
        f"{args.game}, {args.players} players (fair {1 / args.players:.3f}); games per pairing: "
        f"{args.games}, {args.search_games} with {search.NAME}"
    )
    print(markdown(pairings))


if __name__ == "__main__":
    main()
