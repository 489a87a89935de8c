"""Every bot of a game against every other: one seat of bot A (rotating) among seats of bot B, at a player
count, seeded `"<seed>:tournament Pp A>B:i"` like play-check's rungs. A pairing's figure is A's win share
(a shared win counts 1/k) with its 95 % Wilson interval, against the fair share 1/players; beside it A's
share of the points (its score over all scores, Student's t interval), which tells strengths apart in
fewer games."""

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pipeline.framework import core
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
