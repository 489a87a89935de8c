"""What the three rules engines share: OpenSpiel's game and state API, action checks, policies, playouts.

The engines follow OpenSpiel's Python game API (without depending on it). A `Game` holds the cards and
the options and declares `player_counts`, `num_distinct_actions()`, `max_game_length()` and
`max_chance_outcomes()`; `game.new_initial_state(rng)` shuffles and deals (`game.initial_state(deal)`
deals a given order). A `State` answers `current_player()` (`CHANCE`, `TERMINAL` at the end),
`legal_actions()`, `apply_action(action)`, `is_terminal()`, `returns()`, `history()`, `clone()`,
`action_to_string(player, action)`, `observation(player)` (what that player may see),
`observation_string(player)`, `str(state)` and `serialize()` (the game, its options, the deal and the
actions; `game.deserialize_state(text)` rebuilds the state by replaying them).

Policies see only an observation: `policy(observation, rng) -> action`. A policy marked with `oracle`
reads the whole state instead (a yardstick, named `oracle_...`). A policy marked `searches` (a search bot)
gets an `InformationSet`: the observation and samples of the states the player cannot tell apart from the
true one (`EngineState.resample`). `playout` enforces all three.
"""

import json
import numbers
import random
from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, NamedTuple, Self, TypeVar

from mypy_extensions import mypyc_attr

from pipeline import placeholders
from pipeline.errors import GeodeckError

CHANCE = -1
TERMINAL = -4

Policy = Callable[[Any, random.Random], int]
Bot = Callable[[Any, random.Random], Policy]  # (game, rng) -> a policy for one game


@dataclass(frozen=True)
class Observation:
    """What every observation holds; each engine's Observation adds what its players may see."""

    player: int
    legal_actions: tuple[int, ...]  # empty when it is not this player's turn
    players: int


class Refusal(NamedTuple):
    """Why the rules refuse an action, as a message of the catalogues (English, marked with `N_` where it is
    written) and its fields: the raw values (a seat index `player`, a card, a slot ...) a terminal names in
    its language, and the engine's English words for those it does not write as they are. The text is
    formatted only when a refusal is raised, never per move."""

    message: str
    fields: dict[str, Any]
    words: dict[str, str]

    def text(self) -> str:
        """The refusal in English, every field by the engine's word for it (`player 0`)."""
        return placeholders.fill(self.message, **(self.fields | self.words))


class IllegalAction(GeodeckError, ValueError):
    """An action the rules do not allow here; the message names the game, the move and the rule. A refusal
    of the rules (`_why_illegal`) carries its `Refusal`, which a terminal shows in its language."""

    def __init__(self, text: str, refusal: Refusal | None = None) -> None:
        super().__init__(text)
        self.refusal = refusal


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (pipeline.compiled); games may subclass it
class EngineGame:
    """The OpenSpiel game API shared by the engines; a subclass sets the names and builds its `State`."""

    name: str = ""  # a game's own, or (a family's engine) its deck's: set per game
    title: str = ""  # in messages: "Länder toppen: ..."
    player_counts: tuple[int, ...] = ()
    players: int
    state_class: type  # the State class, set by each engine

    @classmethod
    def from_deck(cls, deck: dict, **options) -> Self:
        """The game of a published deck's cards with the given options (players=N, ...)."""
        return cls(deck["cards"], **options)  # type: ignore[call-arg]

    def options(self) -> dict:
        """The options that, with the deck, define this game (serialised with every state)."""
        return {"players": self.players}

    def num_players(self) -> int:
        return self.players

    def num_distinct_actions(self) -> int:
        raise NotImplementedError

    def max_game_length(self) -> int | None:
        """The most actions a game can take (None: unbounded)."""
        raise NotImplementedError

    def max_chance_outcomes(self) -> int:
        return 0

    def deal_size(self) -> int:
        """How many cards the deal orders."""
        raise NotImplementedError

    def new_initial_state(self, rng: random.Random) -> Any:
        """A shuffled deal (a permutation by construction: `initial_state` checks the deals it is given)."""
        order = list(range(self.deal_size()))
        shuffle(order, rng)
        return self.state_class(self, order)

    def initial_state(self, deal: Sequence[int]) -> Any:
        """The state after dealing the cards in the order `deal` (a permutation of the card indices)."""
        if sorted(deal) != list(range(self.deal_size())) or not all(type(i) is int for i in deal):
            raise GeodeckError(
                f"{self.title}: a deal orders the card indices 0-{self.deal_size() - 1}, each once; "
                f"got {list(deal)[:8]}…"
            )
        return self.state_class(self, list(deal))

    def deserialize_state(self, text: str) -> Any:
        """The state `serialize()` wrote: same game and options, the deal replayed action by action."""
        try:
            data = json.loads(text)
            game, options, deal, history = data["game"], data["options"], data["deal"], data["history"]
        except (ValueError, KeyError, TypeError) as exc:
            raise GeodeckError(f"{self.title}: not a serialised state ({exc}); use State.serialize()") from exc
        if game != self.name or options != self.options():
            raise GeodeckError(
                f"{self.title}: the state is of {game} with options {options}, not {self.name} with {self.options()}"
            )
        state = self.initial_state(deal)
        for move, action in enumerate(history, 1):
            try:
                state.apply_action(action)
            except IllegalAction as exc:
                raise IllegalAction(f"move {move}: {exc}") from exc
        state.restore(data)
        return state


GameT = TypeVar("GameT", bound=EngineGame)


@mypyc_attr(allow_interpreted_subclasses=True)
class EngineState(Generic[GameT]):
    """The OpenSpiel state API shared by the engines, over the engine's `Game` class. A subclass implements
    `current_player`, `_legal_actions`, `_apply`, `_why_illegal`, `action_to_string`, `observation` and
    `__str__`."""

    game: GameT
    players: int
    terminal: bool

    def __init__(self, game: GameT, deal: list[int]):
        self.game, self.players = game, game.players
        self.deal = list(deal)
        self._history: list[int] = []
        self._legal: list[int] | None = None
        self.terminal = False

    def current_player(self) -> int:
        raise NotImplementedError

    def legal_actions(self) -> list[int]:
        """The legal actions, sorted; computed once per position (a playout asks twice: the policy, then
        `apply_action`), so a caller must not change the list."""
        if self._legal is None:
            self._legal = self._legal_actions()
        return self._legal

    def _legal_actions(self) -> list[int]:
        raise NotImplementedError

    def is_terminal(self) -> bool:
        return self.terminal

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def history(self) -> list[int]:
        """Every action applied since the deal, in order."""
        return list(self._history)

    def clone(self) -> Any:
        """An independent copy (the game, immutable, is shared). This default replays the deal and the
        actions (O(history)); the engines override it with a copy of their fields (`_blank`)."""
        return self.game.deserialize_state(self.serialize())

    def _blank(self) -> Any:
        """A new state of the same class and deal holding copies of the fields every engine shares: what an
        engine's `clone` fills in with copies of its own fields (a compiled class cannot skip `__init__`,
        so the deal is dealt once more: O(cards), no replay)."""
        new = type(self)(self.game, self.deal)
        new._history, new._legal, new.terminal = self._history.copy(), self._legal, self.terminal
        return new

    def seen_cards(self, player: int) -> set[int]:
        """The cards (indices of the deal's cards) `player` has seen so far; by default every card (nothing
        hidden). Engines with hidden cards override it; `resample` shuffles the others."""
        return set(self.deal)

    def relabel(self, action: int, cards: Sequence[int]) -> int:
        """`action` with every card c it names renamed `cards[c]` (for `resample`); by default it names none."""
        return action

    def alternatives(self, player: int, action: int, original: Any) -> list[int]:
        """The actions `player` could not tell from `action` (played here, replaying `original`'s history):
        by default `action` alone; an engine with hidden moves (a face-down card) lists the others."""
        return [action]

    def resample(self, player: int, rng: random.Random, game: Any = None, tries: int = 20) -> Any:
        """A state `player` cannot tell from this one (equal observations), drawn at random: the cards they
        have not seen (`seen_cards`) shuffled among their places in the deal, and hidden moves replaced by
        ones they could not tell apart (`alternatives`); the history replayed (on `game`, a game the player
        believes in, e.g. with the values they know; default: this one). A shuffle the rules refuse (a
        card with restrictions landing where it may not go) is drawn again; after `tries` refusals the state
        itself (a copy) is returned."""
        game = game or self.game
        seen = self.seen_cards(player)
        hidden = [c for c in range(len(self.deal)) if c not in seen]
        for _ in range(tries):
            shuffled = hidden.copy()
            shuffle(shuffled, rng)
            cards = list(range(len(self.deal)))
            for old, new in zip(hidden, shuffled):
                cards[old] = new
            state = game.state_class(game, [cards[c] for c in self.deal])
            try:
                for action in self._history:
                    options = state.alternatives(player, state.relabel(action, cards), self)
                    state.apply_action(options[0] if len(options) == 1 else pick(options, rng))
            except IllegalAction:
                continue
            state.restore(self.extras())
            return state
        return self.clone()

    def serialize(self) -> str:
        return json.dumps(
            {
                "game": self.game.name,
                "options": self.game.options(),
                "deal": self.deal,
                "history": self._history,
                **self.extras(),
            }
        )

    def extras(self) -> dict:
        """What an engine serialises besides the actions (decisions that are not moves); none by default."""
        return {}

    def restore(self, data: dict) -> None:
        """Apply `extras()` read back from a serialised state."""

    def apply_action(self, action: object) -> None:
        """Apply a legal action; anything else raises `IllegalAction` naming the rule it breaks."""
        if type(action) is not int:  # a plain int skips the slower checks
            if isinstance(action, bool) or not isinstance(action, numbers.Integral):
                raise IllegalAction(
                    f"{self.game.title}: an action is an integer from legal_actions(), not {action!r} "
                    f"({type(action).__name__})"
                )
            action = int(action)
        if self.terminal:
            raise IllegalAction(f"{self.game.title}: the game is over; no action may follow (got {action})")
        if action not in self.legal_actions():
            why = self._why_illegal(action)
            raise IllegalAction(f"{self.game.title}: {why.text()}", why)
        self._legal = None
        self._apply(action)
        self._history.append(action)

    def _apply(self, action: int) -> None:
        raise NotImplementedError

    def play_randomly(self, rng: random.Random) -> tuple[int, int, int]:
        """Play to the end, every seat drawing a uniformly random legal action (`pick`) and chance sampled:
        what `playout` does with `random_policy` seats, the same draws and moves. Returns the moves, the
        decisions and the legal actions summed over the decisions. An engine may override it with a faster
        loop that keeps the draws, moves and history."""
        moves = decisions = options = 0
        while not self.terminal:
            if self.current_player() == CHANCE:
                action = sample_chance(self, rng)
            else:
                actions = self.legal_actions()
                decisions += 1
                options += len(actions)
                action = pick(actions, rng)
            self.apply_action(action)
            moves += 1
        return moves, decisions, options

    def _why_illegal(self, action: int) -> Refusal:
        raise NotImplementedError

    def observation(self, player: int) -> Any:
        raise NotImplementedError

    def observed_by(self, player: int) -> dict[str, Any]:
        """The fields of `Observation` every engine's observation shares: the player, their legal actions
        (none unless it is their turn) and the number of players."""
        mine = self.current_player() == player
        return {"player": player, "legal_actions": tuple(self.legal_actions()) if mine else (), "players": self.players}

    def scores(self) -> Sequence[float]:
        """Each player's score so far (who leads)."""
        raise NotImplementedError

    def observation_string(self, player: int) -> str:
        return str(self.observation(player))


def policy_input(state, policy: Policy) -> Any:
    """What `policy` may read: the acting player's observation, the whole state for an oracle, the
    information set for a search bot (`searches`)."""
    if getattr(policy, "oracle", False):
        return state
    if getattr(policy, "searches", False):
        return InformationSet(state, state.current_player())
    return state.observation(state.current_player())


class InformationSet:
    """What a search bot reads: the player's observation and `sample(rng)`, a state the player cannot tell
    from the true one (`EngineState.resample`); the true state itself stays private."""

    def __init__(self, state: Any, player: int):
        self._state, self.player = state, player
        self.observation = state.observation(player)

    def sample(self, rng: random.Random, game: Any = None) -> Any:
        """A state drawn among those the player cannot tell apart (on `game`, the game they believe in)."""
        return self._state.resample(self.player, rng, game)


class Oracle:
    """A policy that receives the whole state, hidden values included (made by `oracle(policy)`)."""

    oracle = True

    def __init__(self, policy: Policy):
        self.policy = policy

    def __call__(self, state: Any, rng: random.Random) -> int:
        return self.policy(state, rng)


def oracle(policy: Policy) -> Oracle:
    """Mark `policy` as an oracle: it receives the whole state, hidden values included."""
    return Oracle(policy)


def check_players(game: str, players: int, allowed: Sequence[int]) -> None:
    if players not in allowed:
        raise GeodeckError(f"{game} is played by {allowed[0]}-{allowed[-1]} players, not {players}")


def win_shares(scores: Sequence[float], winners: Sequence[int]) -> list[float]:
    """Returns: the winners share one game win (1/k each), everybody else gets 0."""
    return [1 / len(winners) if p in winners else 0.0 for p in range(len(scores))]


def random_policy(observation, rng: random.Random) -> int:
    """A uniformly random legal action (reads only `observation.legal_actions`)."""
    return pick(observation.legal_actions, rng)


def pick(actions: Sequence[int], rng: random.Random) -> int:
    """A uniformly random one of `actions` from one `rng.random()`: a C call, where `rng.choice` runs Python
    code and costs 4× more (the float's bias, below len(actions) / 2**53, is negligible)."""
    return actions[int(rng.random() * len(actions))]


def shuffle(items: list[int], rng: random.Random) -> None:
    """`rng.shuffle(items)`, compiled: the standard library's Fisher-Yates with its draws (`getrandbits` of
    each bound's bit length, drawn again above it, as `Random._randbelow`), so the same permutation and the
    same rng state after, at a fraction of the cost (the library's loop runs as Python code)."""
    if type(rng) is not random.Random:  # a subclass may draw otherwise
        rng.shuffle(items)
        return
    bits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        bound = i + 1
        width = bound.bit_length()
        j = bits(width)
        while j >= bound:
            j = bits(width)
        items[i], items[j] = items[j], items[i]


def random_bot(game, rng: random.Random) -> Policy:
    """The bottom of every game's bot ladder."""
    return random_policy


def sample_chance(state, rng: random.Random) -> int:
    outcomes = state.chance_outcomes()
    draw, total = rng.random(), 0.0
    for action, probability in outcomes:
        total += probability
        if draw < total:
            return action
    return outcomes[-1][0]


class Playout(NamedTuple):
    """What `playout` measured of one game."""

    moves: int
    lead_changes: int  # how often a different player became the sole leader (with a checkpoint)
    branching: float | None  # the mean number of legal actions per decision, when every seat plays random moves


def playout(
    state: EngineState, policies: Sequence[Policy], rng: random.Random, checkpoint: Callable[[Any], int] | None = None
) -> Playout:
    """Play `state` to its end: seat p acts with `policies[p]`, which sees only its observation (an oracle
    the state); chance nodes are sampled. A `random_policy` seat draws from the legal actions directly (the
    same draw, without building an observation). With `checkpoint`, the sole leader by `state.scores()` is
    looked at whenever `checkpoint(state)` changes, and the changes of leader are counted."""
    random_seats = [policy is random_policy for policy in policies]
    if checkpoint is None and all(random_seats):
        moves, decisions, options = state.play_randomly(rng)
        return Playout(moves, 0, options / decisions if decisions else None)
    moves = changes = decisions = options = 0
    leader = mark = -1
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            action = sample_chance(state, rng)
        elif random_seats[player]:
            actions = state.legal_actions()
            decisions += 1
            options += len(actions)
            action = pick(actions, rng)
        else:
            policy = policies[player]
            action = policy(policy_input(state, policy), rng)
        state.apply_action(action)
        moves += 1
        if checkpoint is not None:
            now = checkpoint(state)
            if now != mark:
                mark = now
                scores = state.scores()
                best = max(scores)
                if scores.count(best) == 1:
                    sole = scores.index(best)
                    changes += leader != -1 and sole != leader
                    leader = sole
    return Playout(moves, changes, options / decisions if all(random_seats) and decisions else None)


def percentiles(values: Sequence[float | None]) -> list[float | None]:
    """Each value's share of the other values it beats (strictly greater), 0..1; None stays None."""
    known = sorted(v for v in values if v is not None)
    if len(known) < 2:
        return [None if v is None else 0.5 for v in values]
    return [None if v is None else bisect_left(known, v) / (len(known) - 1) for v in values]
