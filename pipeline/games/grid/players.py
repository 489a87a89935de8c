"""The grid game's strongest bot, `master`: it knows the places as the expert does (the same belief noise,
drawn once per game) and plays the guess with the highest expected row points under those beliefs.

Per round it draws `TRUTHS` sets of true values the places could have given its beliefs (its grid numbers
± the expert's Gaussian error, its inhabitants × the log-normal one) and works out in each which guesses
are right. A guess's points in one truth: 0 if wrong, else the points of its row (rows 1-3: 3/2/1), its row
being one below every guess above it that is right there (a face-down guess counts as right). (A look
ahead at the own guesses still to come this round, each at the bottom of today's columns, lost to the expert:
0.355 of 300 duels; the others' guesses come in between.)"""

import math
import random

import numpy as np

from pipeline.framework import core
from pipeline.games.grid import engine

TRUTHS = 150  # sampled truths per round
POINTS = np.array([*engine.ROW_POINTS, 0.0])  # by row above (0-based), the 4th row and below: 0


def master(game: engine.Game, rng: random.Random) -> core.Policy:
    skill = engine.SKILLS["expert"]
    beliefs_of = engine.beliefs(game, skill, rng)
    truths: dict[tuple, np.ndarray] = {}  # places laid out -> truth -> guess -> position: right

    def right_in(places: tuple, rng: random.Random) -> np.ndarray:
        if places not in truths:
            truths.clear()
            believed = np.array([beliefs_of[place_id] for place_id, _ in places], dtype=float)
            shape = (TRUTHS, len(places))
            ns = believed[:, 0] + np.array([[rng.gauss(0, skill.grid) for _ in places] for _ in range(TRUTHS)])
            we = believed[:, 1] + np.array([[rng.gauss(0, skill.grid) for _ in places] for _ in range(TRUTHS)])
            noise = [[math.exp(rng.gauss(0, skill.log_population)) for _ in places] for _ in range(TRUTHS)]
            population = believed[:, 2] * np.array(noise).reshape(shape)
            truths[places] = _right(ns, we, population)
        return truths[places]

    def policy(observation: engine.Observation, rng: random.Random) -> int:
        right = right_in(observation.places, rng)  # truth -> guess -> position
        width = len(observation.places)
        above = np.zeros((TRUTHS, width), dtype=int)  # truth -> position: right guesses in the column so far
        for position, column in enumerate(observation.columns):
            for _, guess in column:
                above[:, position] += 1 if guess is None else right[:, guess, position]
        expected = (right * POINTS[np.minimum(above, 3)][:, None, :]).mean(axis=0)  # guess -> position
        return max(observation.legal_actions, key=lambda a: expected[a // width, a % width])

    return policy


def _right(ns: np.ndarray, we: np.ndarray, population: np.ndarray) -> np.ndarray:
    """truth -> guess (engine.GUESSES order) -> position: whether the guess is right there (ties: every
    tied place; M: none of the N, S, W, O extremes)."""
    north, south = ns == ns.min(axis=1, keepdims=True), ns == ns.max(axis=1, keepdims=True)
    west, east = we == we.min(axis=1, keepdims=True), we == we.max(axis=1, keepdims=True)
    most = population == population.max(axis=1, keepdims=True)
    fewest = population == population.min(axis=1, keepdims=True)
    middle = ~(north | south | west | east)
    return np.stack([north, south, west, east, most, fewest, middle], axis=1).astype(int)
