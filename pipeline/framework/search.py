"""A search bot for every game: determinized Monte Carlo tree search (single-observer information-set MCTS).

Each decision draws `samples` states the bot's player cannot tell from the true one
(`InformationSet.sample`: the unseen cards dealt anew, hidden moves replaced, on the game the player
believes in). Each iteration takes a copy of one of them in turn and walks one tree of the player's own
actions, shared by all of them, with UCT (a child's exploration counts the iterations in which its action
was legal: information-set MCTS's availability; the other players move as the bot's `model` of the
players says); it adds one node, plays on by the model (default: random moves) to the end or for `horizon`
moves, and credits the path with the player's `value` (their share of the scores, at the end averaged with
their return). The bot plays the root's most visited action.

Names no game: a game supplies what its players know (`believed`: a game built from their knowledge, e.g.
noisy values), how they play (`model`) and which of the bot's own decisions the model takes instead of the
search (`searched`), where a search over the rules would know every answer.
"""

import math
import random
from collections.abc import Callable
from typing import Any

from pipeline.framework import core

NAME = "mcts"  # the bot's name in a game's BOTS and in play-check's ladder


class Node:
    """One of the searching player's actions after the ones above it: visits, summed values, times available."""

    __slots__ = ("available", "children", "value", "visits")

    def __init__(self) -> None:
        self.visits, self.value, self.available = 0, 0.0, 1
        self.children: dict[int, Node] = {}


class Search:
    """One player's policy: `searches`, so `core.playout` hands it the information set."""

    searches = True

    def __init__(
        self,
        iterations: int,
        exploration: float,
        believed: Any,
        model: core.Policy,
        searched: Callable[[Any], bool],
        horizon: int | None,
        samples: int,
    ):
        self.iterations, self.exploration, self.believed = iterations, exploration, believed
        self.model, self.searched, self.horizon, self.samples = model, searched, horizon, samples

    def __call__(self, information: core.InformationSet, rng: random.Random) -> int:
        observation = information.observation
        legal = observation.legal_actions
        if len(legal) == 1:
            return legal[0]
        if not self.searched(observation):  # the model decides, on a state the player cannot tell apart
            return self._modelled(information.sample(rng, self.believed), rng)
        root = Node()
        drawn = [information.sample(rng, self.believed) for _ in range(min(self.samples, self.iterations))]
        for i in range(self.iterations):
            self._iterate(root, information.player, drawn[i % len(drawn)].clone(), rng)
        visited = root.children
        return max(legal, key=lambda a: (visited[a].visits, visited[a].value) if a in visited else (-1, 0.0))

    def _modelled(self, state: Any, rng: random.Random) -> int:
        return self.model(core.policy_input(state, self.model), rng)

    def _iterate(self, root: Node, me: int, state: Any, rng: random.Random) -> None:
        """Down the tree by UCT while every legal action of `me` has a node (the others move by the model),
        add one node, play on by the model, credit the path with `me`'s value."""
        node, path = root, []
        while not state.is_terminal():
            player = state.current_player()
            if player != me or (self.searched is not everything and not self.searched(state.observation(player))):
                state.apply_action(self._modelled(state, rng))
                continue
            legal, children = state.legal_actions(), node.children
            untried = [a for a in legal if a not in children]
            if untried:
                action = core.pick(untried, rng)
                node = children[action] = Node()
                state.apply_action(action)
                path.append(node)
                break
            for a in legal:
                children[a].available += 1
            action = max(legal, key=lambda a: self._bound(children[a]))
            node = children[action]
            state.apply_action(action)
            path.append(node)
        if self.horizon is None:
            core.playout(state, [self.model] * state.players, rng)
        else:
            for _ in range(self.horizon):
                if state.is_terminal():
                    break
                state.apply_action(self._modelled(state, rng))
        mine = value(state)[me]
        for visited in path:
            visited.visits += 1
            visited.value += mine

    def _bound(self, node: Node) -> float:
        """UCT's upper confidence bound of a node's mean value (availability in place of the parent's visits)."""
        return node.value / node.visits + self.exploration * math.sqrt(math.log(node.available) / node.visits)


def value(state: Any) -> list[float]:
    """Each player's value of a state: their share of the scores, at the end averaged with their return (a
    player who can no longer win or lose still prefers more points)."""
    scores = state.scores()
    total = sum(scores)
    shares = [s / total for s in scores] if total > 0 else [1 / len(scores)] * len(scores)
    if not state.is_terminal():
        return shares
    return [(r + s) / 2 for r, s in zip(state.returns(), shares)]


def everything(observation: Any) -> bool:
    """The default `searched`: the bot searches every decision."""
    return True


def bot(
    iterations: int,
    exploration: float = 0.7,
    believed: Callable[[Any, random.Random], Any] | None = None,
    model: core.Bot = core.random_bot,
    searched: Callable[[Any], bool] = everything,
    horizon: int | None = None,
    samples: int = 20,
) -> core.Bot:
    """A search bot with a budget of `iterations` per decision (a game's `BOTS[NAME]`): `believed(game,
    rng)` the game its player believes in (drawn once per game; default the true game: everything public
    is known); `model` the bot that plays every other seat and the playouts, and the bot's own decisions
    that `searched(observation)` declines, with one knowledge (an oracle model reads the sampled states:
    the player's beliefs); `horizon` how many moves the playouts look ahead (None: to the end); `samples`
    how many states are drawn per decision; `exploration` UCT's constant, on the scale of the values."""

    def make(game: Any, rng: random.Random) -> core.Policy:
        believes = believed(game, rng) if believed else None
        return Search(iterations, exploration, believes, model(game, rng), searched, horizon, samples)

    return make
