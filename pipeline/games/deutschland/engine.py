"""Deutschland: Das Kartenspiel (2-4 players) as a rules engine: lay out places, play guess cards, score.

Faithful to the rulebook (../shared/rules/deutschland-kartenspiel.en.txt, docs/rules-engines.md lists
every ambiguity and the reading chosen): players + 1 place cards per round, six guess cards per player
(N, S, W whose back is M, O, most and fewest inhabitants), 3 guess cards per player per round placed one at
a time in clockwise order from the starting player, a new guess card goes below the earlier ones under
the same place, wrong guesses are removed and the rest move up, rows 1/2/3 score 3/2/1, row 4 on 0,
6 rounds (2-3 players) or 8 (4 players), the starting player moves one seat to the left each round, a tie
of the totals means several winners. With 2 players a guess already placed by the other player this
round may not be placed (W and M count as different guesses). A guess is correct when the place is
among the extremes (ties: every tied place is the extreme); M is correct when the place is none of the
N, S, W, O extremes.

Hidden information: the place cards lie front up, so `observation(p)` shows their names and regions, the
guess cards placed (face down for the others in the variant `face_down`: only where they lie), the points
and the past rounds; never a place's grid numbers or inhabitants before its round is scored.
"""

import math
import random
from dataclasses import dataclass, replace

from mypy_extensions import mypyc_attr

from pipeline.errors import GeodeckError
from pipeline.games import core
from pipeline.games.core import TERMINAL, EngineGame, EngineState

GUESSES = ("N", "S", "W", "O", "most", "fewest", "M")  # M is the back of the W card
M = GUESSES.index("M")
W = GUESSES.index("W")
COMPASS = ("N", "S", "W", "O")
ROW_POINTS = (3, 2, 1)


@dataclass(frozen=True)
class Place:
    id: str
    name: str
    ns: int
    we: int
    population: int


@dataclass(frozen=True)
class Round:
    """A scored round: the places laid out, which of them are the extreme for each guess, each placement."""

    starter: int
    places: tuple[int, ...]
    correct: dict[str, frozenset[int]]  # guess -> positions (0-based, in `places`) that make it correct
    placements: tuple[tuple[int, int, int, bool, int], ...]  # (player, guess, position, correct, points)


def extremes(places: list[Place]) -> dict[str, frozenset[int]]:
    """For each guess the positions where it is correct; a tie makes every tied place correct."""

    def where(values, pick):
        best = pick(values)
        return frozenset(i for i, v in enumerate(values) if v == best)

    ns, we, pop = [p.ns for p in places], [p.we for p in places], [p.population for p in places]
    found = {
        "N": where(ns, min),
        "S": where(ns, max),
        "W": where(we, min),
        "O": where(we, max),
        "most": where(pop, max),
        "fewest": where(pop, min),
    }
    found["M"] = frozenset(range(len(places))) - frozenset().union(*(found[g] for g in COMPASS))
    return found


def score_columns(columns: list[list[tuple[int, int]]], correct: dict, players: int):
    """Points per player and the placements (player, guess, position, correct, points) of one round."""
    points, placements = [0] * players, []
    for position, column in enumerate(columns):
        row = 0
        for player, guess in column:
            right = position in correct[GUESSES[guess]]
            gained = ROW_POINTS[row] if right and row < len(ROW_POINTS) else 0
            row += right
            points[player] += gained
            placements.append((player, guess, position, right, gained))
    return points, tuple(placements)


@dataclass(frozen=True)
class Observation(core.Observation):
    """What one player may see: the places' fronts, the guess cards placed, own cards used, points, past rounds."""

    round: int
    starter: int
    places: tuple[tuple[str, str], ...]  # the place cards laid out: (id, name) of their fronts
    columns: tuple[tuple[tuple[int, int | None], ...], ...]  # per place (player, guess; None: face down)
    used: tuple[int, ...]  # the player's guess cards used this round (M uses the W card)
    points: tuple[int, ...]
    rounds: tuple[Round, ...]  # scored rounds (their places are revealed)

    def __str__(self) -> str:
        lines = [f"player {self.player}, round {self.round + 1}, starting player {self.starter}, points {self.points}"]
        for (_, name), column in zip(self.places, self.columns):
            lines.append(f"{name}: {_column_text(column)}")
        return "\n".join(lines)


@mypyc_attr(allow_interpreted_subclasses=True)  # variants may subclass the compiled engine
class Game(EngineGame):
    """The place cards and options of one Deutschland game; `new_initial_state(rng)` shuffles the places."""

    name = "deutschland"
    title = "Deutschland"
    player_counts: tuple[int, ...] = (2, 3, 4)

    def __init__(self, cards: list[dict], players: int = 4, face_down: bool = False):
        core.check_players(self.name, players, self.player_counts)
        if face_down and players == 2:
            raise GeodeckError("Deutschland: the face-down variant is played by 3 or 4 players, not 2")
        self.players, self.face_down = players, face_down
        self.rounds = 6 if players <= 3 else 8
        self.places = tuple(
            Place(c["id"], c["fields"]["name"], c["fields"]["ns"], c["fields"]["we"], c["fields"]["population"])
            for c in cards
            if c["kind"] == "place"
        )
        colours = {c["fields"]["colour"] for c in cards if c["kind"] == "guess"}
        need = (players + 1) * self.rounds
        if len(self.places) < need or len(colours) < players:
            raise GeodeckError(
                f"a {players}-player game needs {need} place cards and {players} guess colours; "
                f"the deck has {len(self.places)} and {len(colours)}"
            )

        width = players + 1  # an action is guess * width + the position of its place card
        self.guess_actions = tuple(tuple(range(g * width, (g + 1) * width)) for g in range(len(GUESSES)))
        self.state_class = State

    def options(self) -> dict:
        return {"players": self.players, "face_down": self.face_down}

    def deal_size(self) -> int:
        return len(self.places)

    def num_distinct_actions(self) -> int:
        return len(GUESSES) * (self.players + 1)

    def max_game_length(self) -> int:
        return 3 * self.players * self.rounds


@mypyc_attr(allow_interpreted_subclasses=True)
class State(EngineState[Game]):
    """A game in progress; action = guess * (players + 1) + position of the place card it goes under."""

    def __init__(self, game: Game, order: list[int]):
        super().__init__(game, order)
        self.stack = order[::-1]  # drawn from the end
        self.round, self.starter = 0, 0
        self.points = [0] * self.players
        self.rounds: list[Round] = []
        self._lay_out()

    def current_player(self) -> int:
        return TERMINAL if self.terminal else (self.starter + self.turn) % self.players

    def _legal_actions(self) -> list[int]:
        if self.terminal:
            return []
        player = self.current_player()
        used = self.used[player]
        taken = {g for p, g in self.played if p != player} if self.players == 2 else ()
        return [
            a
            for g, actions in enumerate(self.game.guess_actions)
            if CARDS[g] not in used and g not in taken
            for a in actions
        ]

    def _apply(self, action: int) -> None:
        guess, position = divmod(action, len(self.places))
        player = (self.starter + self.turn) % self.players
        self.used[player].add(CARDS[guess])
        self.played.append((player, guess))
        self.columns[position].append((player, guess))
        self.turn += 1
        if self.turn == 3 * self.players:
            self._score()

    def scores(self) -> list[int]:
        return list(self.points)

    def winners(self) -> list[int]:
        return [p for p, s in enumerate(self.points) if s == max(self.points)]

    def returns(self) -> list[float]:
        return core.win_shares(self.points, self.winners()) if self.terminal else [0.0] * self.players

    def action_to_string(self, player: int, action: int) -> str:
        guess, position = divmod(action, len(self.places))
        if not 0 <= guess < len(GUESSES):
            return f"unknown action {action}"
        return f"{GUESSES[guess]} under {self.game.places[self.places[position]].name}"

    def observation(self, player: int) -> Observation:
        hidden = self.game.face_down

        def shown(p: int, guess: int) -> tuple[int, int | None]:
            return (p, guess if p == player or not hidden else None)

        return Observation(
            player=player,
            legal_actions=tuple(self.legal_actions()) if self.current_player() == player else (),
            players=self.players,
            round=self.round,
            starter=self.starter,
            places=tuple((p.id, p.name) for p in self.place_cards()),
            columns=tuple(tuple(shown(p, g) for p, g in column) for column in self.columns),
            used=tuple(sorted(self.used[player])),
            points=tuple(self.points),
            rounds=tuple(replace(r, correct=dict(r.correct)) for r in self.rounds),  # copies: read-only for policies
        )

    def __str__(self) -> str:
        lines = [
            f"Deutschland, {self.players} players, round {min(self.round + 1, self.game.rounds)} of "
            f"{self.game.rounds}, starting player {self.starter}, points {self.points}"
            + (", over" if self.terminal else f", player {self.current_player()} to play")
        ]
        for place, column in zip(self.place_cards(), self.columns):
            lines.append(f"{place.name} ({place.ns}/{place.we}, {place.population:,}): {_column_text(column)}")
        return "\n".join(lines)

    def _why_illegal(self, action: int) -> str:
        guess = action // len(self.places)
        player = self.current_player()
        if not 0 <= guess < len(GUESSES) or action < 0:
            return f"{action} is no action of this game (0-{self.game.num_distinct_actions() - 1})"
        name = GUESSES[guess]
        if _card(guess) in self.used[player]:
            card = "W/M" if _card(guess) == _card(M) else name
            return (
                f"player {player} has already placed their {card} guess card this round (rule: each guess "
                "card once per round; M is the back of the W card)"
            )
        return (
            f"player {player} may not place {name}: the other player already placed it this round (rule: "
            '"with two players ... the players must place different guess cards")'
        )

    def place_cards(self) -> list[Place]:
        return [self.game.places[i] for i in self.places]

    def _lay_out(self) -> None:
        self.places = [self.stack.pop() for _ in range(self.players + 1)]
        self.columns: list[list[tuple[int, int]]] = [[] for _ in self.places]
        self.used: list[set[int]] = [set() for _ in range(self.players)]
        self.played: list[tuple[int, int]] = []
        self.turn = 0

    def _score(self) -> None:
        correct = extremes(self.place_cards())
        points, placements = score_columns(self.columns, correct, self.players)
        self.points = [a + b for a, b in zip(self.points, points)]
        self.rounds.append(Round(self.starter, tuple(self.places), correct, placements))
        self.round += 1
        if self.round == self.game.rounds:
            self.terminal = True
            return
        self.starter = (self.starter + 1) % self.players
        self._lay_out()


def _column_text(column) -> str:
    return " / ".join(f"{GUESSES[g] if g is not None else '?'} (player {p})" for p, g in column) or "-"


def _card(guess: int) -> int:
    """The guess card a guess uses: M is the back of the W card."""
    return W if guess == M else guess


CARDS = tuple(_card(g) for g in range(len(GUESSES)))  # the guess card of each guess


def best_guess(legal, columns, correct: dict[str, frozenset[int]], width: int) -> int:
    """The guess believed correct that lands in the highest row (later cards go below, so the row is final;
    a guess under it believed wrong moves it up, one not known - face down - is taken as right); none
    believed correct: the first legal guess into the longest column."""

    def row(action: int) -> int:
        guess, position = divmod(action, width)
        if position not in correct[GUESSES[guess]]:
            return 99 - len(columns[position])
        return sum(g is None or position in correct[GUESSES[g]] for _, g in columns[position])

    return min(legal, key=row)


@core.oracle
def oracle_expert(state: State, rng: random.Random) -> int:
    """An oracle, not a player: reads the hidden grid numbers and inhabitants and plays the best guess."""
    return best_guess(state.legal_actions(), state.columns, extremes(state.place_cards()), len(state.places))


@dataclass(frozen=True)
class Skill:
    """How well a player knows the places: the Gaussian error of their grid numbers and of the logarithm
    of their inhabitants (a factor of exp(sigma) either way for one standard deviation)."""

    grid: float
    log_population: float


SKILLS = {"novice": Skill(20, 0.8), "skilled": Skill(10, 0.4), "expert": Skill(4, 0.15)}


def knowing(skill: Skill) -> core.Bot:
    """A bot that knows each place's position and inhabitants through noise of `skill` (its beliefs are drawn
    once per game) and plays the guess it believes best; it reads only its observation."""

    def make(game: Game, rng: random.Random) -> core.Policy:
        beliefs = {
            p.id: Place(
                p.id,
                p.name,
                round(p.ns + rng.gauss(0, skill.grid)),
                round(p.we + rng.gauss(0, skill.grid)),
                round(p.population * math.exp(rng.gauss(0, skill.log_population))),
            )
            for p in game.places
        }

        def policy(observation: Observation, rng: random.Random) -> int:
            believed = extremes([beliefs[place_id] for place_id, _ in observation.places])
            return best_guess(observation.legal_actions, observation.columns, believed, len(observation.places))

        return policy

    return make


BOTS: dict[str, core.Bot] = {"random": core.random_bot, **{name: knowing(skill) for name, skill in SKILLS.items()}}
