"""What the three rules engines share: player ids, the win shares, playouts.

The engines follow OpenSpiel's Python game API (without depending on it): a `Game` holds the cards and
the options, `game.new_initial_state(rng)` deals a shuffled deck, and the `State` answers
`current_player()`, `legal_actions()`, `apply_action(action)`, `is_terminal()` and `returns()`; chance
events (World Game answers) are nodes of player `CHANCE` with `chance_outcomes()`.
"""

import random
from bisect import bisect_left
from collections.abc import Callable, Sequence
from typing import Any

from pipeline.errors import GeodeckError

CHANCE = -1
TERMINAL = -4

Policy = Callable[[Any, random.Random], int]


def win_shares(scores: Sequence[float], winners: Sequence[int]) -> list[float]:
    """Returns: the winners share one game win (1/k each), everybody else gets 0."""
    return [1 / len(winners) if p in winners else 0.0 for p in range(len(scores))]


def check_players(game: str, players: int, allowed: Sequence[int]) -> None:
    if players not in allowed:
        raise GeodeckError(f"{game} is played by {allowed[0]}-{allowed[-1]} players, not {players}")


def random_policy(state, rng: random.Random) -> int:
    """A uniformly random legal action."""
    actions = state.legal_actions()
    return actions[rng.randrange(len(actions))]


def sample_chance(state, rng: random.Random) -> int:
    outcomes = state.chance_outcomes()
    draw, total = rng.random(), 0.0
    for action, probability in outcomes:
        total += probability
        if draw < total:
            return action
    return outcomes[-1][0]


def playout(state, policies: Sequence[Policy], rng: random.Random) -> int:
    """Play `state` to its end: seat p acts with `policies[p]`, chance nodes are sampled; returns the moves made."""
    moves = 0
    while not state.is_terminal():
        player = state.current_player()
        state.apply_action(sample_chance(state, rng) if player == CHANCE else policies[player](state, rng))
        moves += 1
    return moves


def percentiles(values: Sequence[float | None]) -> list[float | None]:
    """Each value's share of the other values it beats (strictly greater), 0..1; None stays None."""
    known = sorted(v for v in values if v is not None)
    if len(known) < 2:
        return [None if v is None else 0.5 for v in values]
    return [None if v is None else bisect_left(known, v) / (len(known) - 1) for v in values]
