"""Länder toppen's strongest bot, `master`: it places its hand by solving the hand-to-slot assignment on
what each placement is worth against the others' likely placements, and puts won cards on the pile that
raises its points most (as the expert does).

What a placement is worth: the cards the player has not seen (`unseen`) are dealt in thought into the other
hands (`SAMPLES` times per round), each other player places its hand as a good player does (on
strength^(players-1), the chance to beat every other card there: in half the samples the assignment of its
hand to the slots, in the other half the most extreme card first), and for each
of the own hand cards in each free slot the expected cards it brings: a win takes the slot's cards (its own
and the n others', which the others lose: n / (players-1) each on average), a tie keeps its own, a loss gives
it away (1 / (players-1) to an average other player). The own hand is then assigned to the free slots
(`scipy.optimize.linear_sum_assignment`), once per round; the placements follow the plan."""

import random

import numpy as np

from pipeline.framework import core
from pipeline.games.laender_toppen import engine

SAMPLES = 24  # the others' hands drawn per round
FORBIDDEN = -1e6  # the value of a slot a card may not go to (a dash)


def unseen(observation: engine.Observation) -> list[int]:
    """The cards the player has not seen: not in the own hand or strip, no trick's, on no pile."""
    seen = set(observation.hand)
    seen.update(c for c in observation.strip if c is not None)
    seen.update(card for trick in observation.tricks for _, card in trick.played)
    seen.update(c for own in observation.piles for pile in own for c in pile)
    return [c for c in range(len(observation.cards)) if c not in seen]


class Tables:
    """One game's numbers as arrays: each card's rank per slot (-inf where none: jokers, dashes), the value
    a good player gives a placement (strength^(players-1), FORBIDDEN where it may not go)."""

    def __init__(self, game: engine.Game):
        self.game = game
        ranks = np.array(game.ranks, dtype=float).T  # card -> slot
        self.ranks = np.where(np.isnan(ranks), -np.inf, ranks)
        powered = np.array(game.powered(game.players - 1), dtype=float).reshape(len(game.cards), game.slots)
        allowed = np.zeros((len(game.cards), game.slots), dtype=bool)
        for card, slots in enumerate(game.allowed):
            allowed[card, list(slots)] = True
        self.allowed = allowed
        self.powered = np.where(allowed, powered, FORBIDDEN)
        self.jokers = np.array(game.jokers, dtype=bool)

    def placed(self, hand: list[int], rng: random.Random) -> list[tuple[int, int]]:
        """(card, slot) of a good player's hand on strength^(players-1) (slight noise): as often the assignment
        of the whole hand as the placement of the most extreme card first, again and again (two ways good
        players place: modelled by one alone, the master lost ground to the other)."""
        values = self.powered[hand] + np.array([[rng.random() * 1e-3 for _ in range(self.game.slots)] for _ in hand])
        if rng.random() < 0.5:
            rows, cols = _assign(values)
            return [(hand[r], int(c)) for r, c in zip(rows, cols)]
        placed = []
        for _ in hand:
            r, c = np.unravel_index(np.argmax(values), values.shape)
            placed.append((hand[int(r)], int(c)))
            values[r, :] = values[:, c] = FORBIDDEN * 2
        return placed

    def worth(self, hand: list[int], pool: list[int], others: int, rng: random.Random) -> np.ndarray:
        """hand card -> slot -> the cards it is expected to bring, against `others` hands drawn from `pool`."""
        game, size = self.game, self.game.hand_size
        total = np.zeros((len(hand), game.slots))
        mine = self.ranks[hand]  # hand card -> slot
        share = 1 / max(others, 1)
        for _ in range(SAMPLES):
            drawn = rng.sample(pool, min(len(pool), others * size))
            best = np.full(game.slots, -np.inf)
            count = np.zeros(game.slots)
            for k in range(others):
                for card, slot in self.placed(drawn[k * size : (k + 1) * size], rng):
                    if not self.jokers[card]:
                        count[slot] += 1
                        best[slot] = max(best[slot], self.ranks[card, slot])
            win, tie = mine > best, mine == best
            total += np.where(win, 1 + count + count * share, np.where(tie, 1.0, -share))
        return np.where(self.allowed[hand], total / SAMPLES, FORBIDDEN)


def master(game: engine.Game, rng: random.Random) -> core.Policy:
    tables = Tables(game)
    place, slots = game.place, game.slots
    plan: dict[int, int] = {}  # card -> slot, this round's

    def policy(observation: engine.Observation, rng: random.Random) -> int:
        if observation.deciding:
            return engine._best_points(observation, rng)
        legal = set(observation.legal_actions)
        hand = list(observation.hand)
        planned = [place + card * slots + plan[card] for card in hand if card in plan]
        if not planned or planned[0] not in legal or len(planned) < len(hand):
            free = [s for s, card in enumerate(observation.strip) if card is None]
            values = tables.worth(hand, unseen(observation), game.players - 1, rng)[:, free]
            rows, cols = _assign(values)
            plan.clear()
            plan.update({hand[r]: free[c] for r, c in zip(rows, cols)})
            planned = [place + card * slots + plan[card] for card in hand if card in plan]
        for action in planned:
            if action in legal:
                return action
        return observation.legal_actions[0]

    return policy


def assignment(game: engine.Game, rng: random.Random) -> core.Policy:
    """A baseline (the tournament's, issue 48): the hand assigned to the free slots on the observation's card
    strengths (the share of the deck a card beats there); piles as the expert."""
    strength = np.array(game.strength, dtype=float)
    allowed = Tables(game).allowed
    place, slots = game.place, game.slots

    def policy(observation: engine.Observation, rng: random.Random) -> int:
        if observation.deciding:
            return engine._best_points(observation, rng)
        hand = list(observation.hand)
        free = [s for s, card in enumerate(observation.strip) if card is None]
        values = np.where(allowed[hand], strength[hand], FORBIDDEN)[:, free]
        rows, cols = _assign(values)
        legal = set(observation.legal_actions)
        ordered = sorted(zip(rows, cols), key=lambda rc: -values[rc])
        for r, c in ordered:
            if place + hand[r] * slots + free[c] in legal:
                return place + hand[r] * slots + free[c]
        return observation.legal_actions[0]

    return policy


def greedy(game: engine.Game, rng: random.Random) -> core.Policy:
    """A baseline: the placement of the most extreme rank first (the highest strength of any hand card in
    any free slot); piles as the expert."""
    place, slots, strength = game.place, game.slots, game.strength

    def policy(observation: engine.Observation, rng: random.Random) -> int:
        if observation.deciding:
            return engine._best_points(observation, rng)
        return max(observation.legal_actions, key=lambda a: strength[(a - place) // slots][(a - place) % slots])

    return policy


BASELINES: dict[str, core.Bot] = {"assignment": assignment, "greedy": greedy}  # the tournament's, not seats


def _assign(values):
    """The rows and columns of the assignment of most value (scipy, imported when a bot first plans a round)."""
    from scipy.optimize import linear_sum_assignment

    return linear_sum_assignment(values, maximize=True)
