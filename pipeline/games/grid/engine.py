"""The grid card game (Deutschland: Das Kartenspiel's rules, 2-4 players) as a rules engine: lay out places,
play guess cards, score; the same for every deck of the family (Deutschland, every region): the game's name
and title come from its deck, the places' grid numbers (0-150 / 0-90, the rulebook's for every country) from
its cards.

Faithful to the rulebook (in ../shared/rules/, docs/rules-engines.md names it and lists
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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from operator import add, itemgetter, lshift
from types import MappingProxyType
from typing import NamedTuple

from mypy_extensions import mypyc_attr

from pipeline.errors import GeodeckError
from pipeline.framework import core, search
from pipeline.framework.core import TERMINAL, EngineGame, EngineState
from pipeline.i18n.catalogue import N_

GUESSES = ("N", "S", "W", "O", "most", "fewest", "M")  # M is the back of the W card
M = GUESSES.index("M")
W = GUESSES.index("W")
COMPASS = ("N", "S", "W", "O")
ROW_POINTS = (3, 2, 1)
SEARCH_ITERATIONS = 100  # the search bot's budget per guess (search.bot)
SEARCH_HORIZON = 12  # and how many guesses it looks ahead


@dataclass(frozen=True)
class Place:
    id: str
    name: str
    ns: int
    we: int
    population: int


class Scored(NamedTuple):
    """A scored round as the state keeps it (play-check tallies it; `Round` is built from it when read)."""

    starter: int
    places: tuple[int, ...]  # the place cards laid out (indices into game.places)
    correct: tuple[int, ...]  # per guess (GUESSES order): the bitmask of the positions where it is correct
    right: int  # the bitmask of the actions that are right guesses
    gains: list[int]  # per move of the round: the points it gained


@dataclass(frozen=True)
class Round:
    """A scored round: the places laid out, which of them are the extreme for each guess, each placement."""

    starter: int
    places: tuple[int, ...]
    correct: Mapping[str, frozenset[int]]  # guess -> positions (0-based, in `places`) that make it correct
    placements: tuple[tuple[int, int, int, bool, int], ...]  # (player, guess, position, correct, points)

    def __post_init__(self) -> None:  # read-only all through, so observations share it
        object.__setattr__(self, "correct", MappingProxyType(dict(self.correct)))


def extremes(places: list[Place]) -> dict[str, frozenset[int]]:
    """For each guess the positions where it is correct; a tie makes every tied place correct."""
    masks = correct_masks([p.ns for p in places], [p.we for p in places], [p.population for p in places])
    return by_guess(masks)


def by_guess(masks: Sequence[int]) -> dict[str, frozenset[int]]:
    """Per guess name the positions of its bitmask (masks in GUESSES order)."""
    return {guess: positions(mask) for guess, mask in zip(GUESSES, masks)}


def correct_masks(ns: Sequence[int], we: Sequence[int], population: Sequence[int]) -> tuple[int, ...]:
    """For each guess (in GUESSES order) the bitmask of the positions where it is correct (bit i: the place
    at position i): the extremes, every tied place included; M where a place is none of the N, S, W, O
    extremes."""
    north, south = _lowest_highest(ns)
    west, east = _lowest_highest(we)
    fewest, most = _lowest_highest(population)
    middle = ((1 << len(ns)) - 1) & ~(north | south | west | east)
    return (north, south, west, east, most, fewest, middle)


def _lowest_highest(values: Sequence[int]) -> tuple[int, int]:
    """The bitmasks of the positions holding the lowest and the highest value (several on a tie)."""
    low = high = values[0]
    low_mask = high_mask = 1
    for i in range(1, len(values)):
        value, bit = values[i], 1 << i
        if value < low:
            low, low_mask = value, bit
        elif value == low:
            low_mask |= bit
        if value > high:
            high, high_mask = value, bit
        elif value == high:
            high_mask |= bit
    return low_mask, high_mask


@cache
def positions(mask: int) -> frozenset[int]:
    """The positions of a bitmask's set bits."""
    return frozenset(i for i in range(mask.bit_length()) if mask >> i & 1)


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
    """The place cards and options of one game of a grid deck; `new_initial_state(rng)` shuffles the places.
    `name` and `title` are the deck's (`from_deck`): its game and its title's short name."""

    player_counts: tuple[int, ...] = (2, 3, 4)

    def __init__(
        self, cards: list[dict], players: int = 4, face_down: bool = False, name: str = "grid", title: str = "grid"
    ):
        self.name, self.title = name, title
        core.check_players(self.name, players, self.player_counts)
        if face_down and players == 2:
            raise GeodeckError(f"{title}: the face-down variant is played by 3 or 4 players, not 2")
        self.players, self.face_down = players, face_down
        self.cards = cards  # the deck's cards (a player's beliefs make a game of their own: `believed`)
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
        self.state_class = State
        self._tables()

    def _tables(self) -> None:
        """The per-deck tables the states read instead of recomputing them each move."""
        self.width = width = self.players + 1  # an action is guess * width + the position of its place card
        self.round_moves = 3 * self.players  # every round: three guesses per player
        self.ns = tuple(p.ns for p in self.places)  # by place index: the grid numbers and inhabitants
        self.we = tuple(p.we for p in self.places)
        self.population = tuple(p.population for p in self.places)
        self.fronts = tuple((p.id, p.name) for p in self.places)  # what a place card's front shows
        actions = range(len(GUESSES) * width)
        self.shifts = tuple(guess * width for guess in range(len(GUESSES)))  # where a guess's actions start
        self.position = tuple(a % width for a in actions)  # by action: the position of its place card
        self.own_blocks = tuple(CARD_GUESSES[a // width] for a in actions)  # by action: guesses it uses up
        # by action: the guess the other player may no longer place (2 players only)
        self.other_blocks = tuple(1 << a // width if self.players == 2 else 0 for a in actions)
        self.next_seat = tuple((p + 1) % self.players for p in range(self.players))
        # by bitmask of the guesses a player may not place: their legal actions (list, set)
        self.legal_by_blocked = tuple(self._legal_entry(blocked) for blocked in range(1 << len(GUESSES)))

    def _legal_entry(self, blocked: int) -> tuple[list[int], frozenset[int]]:
        """The legal actions (sorted, and as a set) of a player who may not place the guesses in the
        bitmask `blocked`."""
        width = self.width
        legal = [a for g in range(len(GUESSES)) if not blocked >> g & 1 for a in range(g * width, (g + 1) * width)]
        return legal, frozenset(legal)

    @classmethod
    def from_deck(cls, deck: dict, **options) -> "Game":
        """The game of a published deck: named by its `game`, titled by its title up to a colon ("Deutschland",
        "Frankreich"; the game's name for a deck without a title)."""
        title = str(deck.get("title") or deck["game"]).split(":")[0].strip()
        return cls(deck["cards"], name=deck["game"], title=title, **options)

    def options(self) -> dict:
        return {"players": self.players, "face_down": self.face_down}

    def deal_size(self) -> int:
        return len(self.places)

    def num_distinct_actions(self) -> int:
        return len(GUESSES) * (self.players + 1)

    def max_game_length(self) -> int:
        return 3 * self.players * self.rounds


NO_ACTIONS: tuple[list[int], frozenset[int]] = ([], frozenset())  # the game is over


@mypyc_attr(allow_interpreted_subclasses=True)
class State(EngineState[Game]):
    """A game in progress; action = guess * (players + 1) + position of the place card it goes under.

    Round r lays out the place cards deal[r * width:(r + 1) * width] and takes the moves
    history[r * round_moves:(r + 1) * round_moves]; the state keeps only integers and bitmasks per move
    (the current player, the guesses each player may no longer place, the right guesses per place) and
    builds the scored rounds' `Round`s and the columns when they are read."""

    player: int  # whose turn it is (while the game is not over)

    def __init__(self, game: Game, order: list[int]):
        super().__init__(game, order)
        self.round, self.starter = 0, 0
        self.points = [0] * self.players
        self.scored: list[Scored] = []
        self._rounds: list[Round] = []  # the `Round`s of `scored` built so far
        self._lay_out()

    def current_player(self) -> int:
        return TERMINAL if self.terminal else self.player

    def legal_actions(self) -> list[int]:
        """The legal actions, sorted: a list of the game's table (a caller must not change it)."""
        return self._actions

    def apply_action(self, action: object) -> None:
        """A plain int that is legal is applied at once; anything else goes through `EngineState.apply_action`
        (the integer conversion, and the `IllegalAction` naming the rule)."""
        if type(action) is int and action in self._allowed:
            self._apply(action)
            self._history.append(action)
        else:
            super().apply_action(action)

    def _apply(self, action: int) -> None:
        game = self.game
        player = self.player
        blocked = self._blocked
        blocked[player] |= game.own_blocks[action]
        if game.players == 2:
            blocked[1 - player] |= game.other_blocks[action]
        if self._right >> action & 1:  # a right guess: its row is final (later guesses go below)
            position = game.position[action]
            row = self._rows[position]
            self._rows[position] = row + 1
            gain = ROW_POINTS[row] if row < len(ROW_POINTS) else 0
            self._round_points[player] += gain
        else:
            gain = 0
        self._gains.append(gain)
        self.turn += 1
        if self.turn == game.round_moves:
            self._score()
        else:
            self.player = player = game.next_seat[player]
            self._actions, self._allowed = game.legal_by_blocked[blocked[player]]

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

    def clone(self) -> "State":
        """A copy of the fields (O(state))."""
        new = self._blank()
        new.round, new.starter, new.points, new.player = self.round, self.starter, self.points.copy(), self.player
        new.scored, new._rounds = self.scored.copy(), self._rounds.copy()
        new.places, new._first_move, new._correct, new._right = (
            self.places,
            self._first_move,
            self._correct,
            self._right,
        )
        new._rows, new._gains, new._round_points = self._rows.copy(), self._gains.copy(), self._round_points.copy()
        new._blocked, new.turn, new._actions, new._allowed = (
            self._blocked.copy(),
            self.turn,
            self._actions,
            self._allowed,
        )
        return new

    def seen_cards(self, player: int) -> set[int]:
        """The place cards laid out so far (the others lie in the pile, unseen)."""
        return set(self.deal[: (self.round + 1) * self.game.width])

    def alternatives(self, player: int, action: int, original: "State") -> list[int]:
        """In the face-down variant another player's guess of the round not yet scored: any guess they could
        place under the same place card (only where it lies is seen)."""
        hidden = self.game.face_down and not original.terminal and len(self._history) >= original._first_move
        if not hidden or self.player == player:
            return [action]
        width = self.game.width
        return [a for a in self._actions if a % width == action % width]

    def observation(self, player: int) -> Observation:
        hidden = self.game.face_down

        def shown(p: int, guess: int) -> tuple[int, int | None]:
            return (p, guess if p == player or not hidden else None)

        return Observation(
            **self.observed_by(player),
            round=self.round,
            starter=self.starter,
            places=tuple(self.game.fronts[i] for i in self.places),
            columns=tuple(tuple(shown(p, g) for p, g in column) for column in self.columns),
            used=self._used_cards(player),
            points=tuple(self.points),
            rounds=tuple(self.rounds),
        )

    def __str__(self) -> str:
        lines = [
            f"{self.game.title}, {self.players} players, round {min(self.round + 1, self.game.rounds)} of "
            f"{self.game.rounds}, starting player {self.starter}, points {self.points}"
            + (", over" if self.terminal else f", player {self.current_player()} to play")
        ]
        for place, column in zip(self.place_cards(), self.columns):
            lines.append(f"{place.name} ({place.ns}/{place.we}, {place.population:,}): {_column_text(column)}")
        return "\n".join(lines)

    def _why_illegal(self, action: int) -> core.Refusal:
        guess = action // len(self.places)
        player = self.current_player()
        if not 0 <= guess < len(GUESSES) or action < 0:
            return core.Refusal(
                N_("{action} is no action of this game (0-{last})"),
                {"action": action, "last": self.game.num_distinct_actions() - 1},
                {},
            )
        name = GUESSES[guess]
        seat = {"player": f"player {player}"}
        if _card(guess) in self._used_cards(player):
            card = "W/M" if _card(guess) == _card(M) else name
            return core.Refusal(
                N_(
                    "{player} has already placed their {card} guess card this round (rule: each guess card once "
                    "per round; {M} is the back of the {W} card)"
                ),
                {"player": player, "card": card, "M": "M", "W": "W"},  # the terminal shows the cards' letters
                seat,
            )
        return core.Refusal(
            N_(
                "{player} may not place {card}: the other player already placed it this round (rule: "
                '"with two players ... the players must place different guess cards")'
            ),
            {"player": player, "card": name},
            seat,
        )

    def place_cards(self) -> list[Place]:
        return [self.game.places[i] for i in self.places]

    @property
    def columns(self) -> list[list[tuple[int, int]]]:
        """Per place laid out (the last round's when the game is over), the guesses under it, top first:
        (player, guess)."""
        width, players, starter = self.game.width, self.players, self.starter
        columns: list[list[tuple[int, int]]] = [[] for _ in range(width)]
        for k, action in enumerate(self._history[self._first_move :]):
            guess, position = divmod(action, width)
            columns[position].append(((starter + k) % players, guess))
        return columns

    @property
    def rounds(self) -> list[Round]:
        """The scored rounds."""
        for r in range(len(self._rounds), len(self.scored)):
            self._rounds.append(self._round(r))
        return self._rounds

    def moves(self, r: int) -> list[int]:
        """The actions of round r."""
        count = self.game.round_moves
        return self._history[r * count : (r + 1) * count]

    def _round(self, r: int) -> Round:
        """Scored round r as a `Round`: its placements place by place, top first, with the points gained."""
        starter, places, correct, _, gains = self.scored[r]
        width = self.game.width
        moves = self.moves(r)
        placements = []
        for k in sorted(range(len(moves)), key=lambda k: moves[k] % width):  # stable: the order under each place
            guess, position = divmod(moves[k], width)
            right = bool(correct[guess] >> position & 1)
            placements.append(((starter + k) % self.players, guess, position, right, gains[k]))
        return Round(
            starter,
            places,
            by_guess(correct),
            tuple(placements),
        )

    def _used_cards(self, player: int) -> tuple[int, ...]:
        """The guess cards `player` has placed in this round (the last one when the game is over), sorted."""
        own = self._history[self._first_move + (player - self.starter) % self.players :: self.players]
        return tuple(sorted({CARDS[action // self.game.width] for action in own}))

    def _lay_out(self) -> None:
        game = self.game
        width = game.width
        self.places = self.deal[self.round * width : (self.round + 1) * width]
        self._first_move = self.round * game.round_moves  # where this round's moves start in the history
        values = itemgetter(*self.places)
        self._correct = correct_masks(values(game.ns), values(game.we), values(game.population))
        self._right = sum(map(lshift, self._correct, game.shifts))  # the right actions: guess * width + position
        self._rows = [0] * width  # per place: the right guesses under it so far
        self._gains: list[int] = []  # per move of the round: the points it gains
        self._round_points = [0] * self.players  # per player: the points gained this round (shown when scored)
        self._blocked = [0] * self.players  # per player: bitmask of the guesses they may not place
        self.turn = 0
        self.player = self.starter
        self._actions, self._allowed = game.legal_by_blocked[0]

    def _score(self) -> None:
        self.points = list(map(add, self.points, self._round_points))
        self.scored.append(Scored(self.starter, tuple(self.places), self._correct, self._right, self._gains))
        self.round += 1
        if self.round == self.game.rounds:
            self.terminal = True
            self._actions, self._allowed = NO_ACTIONS
            return
        self.starter = self._next_starter()
        self._lay_out()

    def _next_starter(self) -> int:
        """The starting player of the next round: the player to the left."""
        return (self.starter + 1) % self.players


def _column_text(column) -> str:
    return " / ".join(f"{GUESSES[g] if g is not None else '?'} (player {p})" for p, g in column) or "-"


def _card(guess: int) -> int:
    """The guess card a guess uses: M is the back of the W card."""
    return W if guess == M else guess


CARDS = tuple(_card(g) for g in range(len(GUESSES)))  # the guess card of each guess
# by guess: the bitmask of the guesses its card is used for (W and M share one card)
CARD_GUESSES = tuple(
    sum(1 << other for other in range(len(GUESSES)) if CARDS[other] == CARDS[g]) for g in range(len(GUESSES))
)


def best_guess(legal, columns, correct: dict[str, frozenset[int]], width: int) -> int:
    """The guess believed correct that lands in the highest row (later cards go below, so the row is final;
    a guess under it believed wrong moves it up, one not known - face down - is taken as right); none
    believed correct: the first legal guess into the longest column."""

    by_guess = [correct[name] for name in GUESSES]
    rows = [sum(g is None or position in by_guess[g] for _, g in column) for position, column in enumerate(columns)]

    def row(action: int) -> int:
        guess, position = divmod(action, width)
        return rows[position] if position in by_guess[guess] else 99 - len(columns[position])

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


def beliefs(game: Game, skill: Skill, rng: random.Random) -> dict[str, tuple[int, int, int]]:
    """Place id -> the grid numbers and inhabitants a player of `skill` believes (drawn once per game)."""
    return {
        p.id: (
            round(p.ns + rng.gauss(0, skill.grid)),
            round(p.we + rng.gauss(0, skill.grid)),
            round(p.population * math.exp(rng.gauss(0, skill.log_population))),
        )
        for p in game.places
    }


def believed(skill: Skill) -> Callable[[Game, random.Random], Game]:
    """The game a player of `skill` believes they play: the places with their believed values (`beliefs`)."""

    def make(game: Game, rng: random.Random) -> Game:
        believes = beliefs(game, skill, rng)
        cards = [
            {**c, "fields": {**c["fields"], **dict(zip(("ns", "we", "population"), believes[c["id"]]))}}
            if c["id"] in believes
            else c
            for c in game.cards
        ]
        return type(game)(cards, **game.options(), name=game.name, title=game.title)

    return make


def knowing(skill: Skill) -> core.Bot:
    """A bot that knows each place's position and inhabitants through noise of `skill` (its beliefs are drawn
    once per game) and plays the guess it believes best; it reads only its observation."""

    def make(game: Game, rng: random.Random) -> core.Policy:
        beliefs_of = beliefs(game, skill, rng)  # place id -> the believed grid numbers and inhabitants

        believed_in: dict[tuple, dict[str, frozenset[int]]] = {}  # places laid out -> their believed extremes

        def policy(observation: Observation, rng: random.Random) -> int:
            places = observation.places
            if places not in believed_in:
                ns, we, population = zip(*[beliefs_of[place_id] for place_id, _ in places])
                believed_in[places] = by_guess(correct_masks(ns, we, population))
            believed = believed_in[places]
            return best_guess(observation.legal_actions, observation.columns, believed, len(observation.places))

        return policy

    return make


BOTS: dict[str, core.Bot] = {  # the bots, weakest first (issue 48: the search bot, which knows the places as the expert
    # does, lost 0.406 [0.359, 0.455] of its duels to the expert; the master beats both)
    "random": core.random_bot,
    "novice": knowing(SKILLS["novice"]),
    "skilled": knowing(SKILLS["skilled"]),
    search.NAME: search.bot(
        SEARCH_ITERATIONS,
        believed=believed(SKILLS["expert"]),
        model=lambda game, rng: oracle_expert,  # on the believed states
        horizon=SEARCH_HORIZON,
        exploration=0.05,  # values are shares of the points: a guess moves them by a few hundredths
    ),
    "expert": knowing(SKILLS["expert"]),
}  # and "master", the strongest, which players.py adds (imported with the package)
