"""The tournament's door (`python -m pipeline.cli.tournament GAME`, `make bench`'s `tournament`): a game's name
becomes its definition and bots here, and every bot meets every weaker one (pipeline.playcheck.tournament)."""

import argparse
import importlib
from concurrent.futures import ProcessPoolExecutor
from functools import cache

from pipeline.framework import search
from pipeline.games import registry
from pipeline.playcheck.tournament import Pairing, duel, markdown


def bots_of(name: str) -> dict:
    """A game's bots, weakest first, and its baselines (`players.BASELINES`, where a game has some) first."""
    definition = registry.get(name)
    bots = dict(definition.engine.BOTS)
    baselines: dict = {}
    for package in dict.fromkeys([definition.package, definition.family or definition.package]):
        try:
            baselines = baselines or importlib.import_module(f"{package}.players").BASELINES
        except (ImportError, AttributeError):
            continue
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
