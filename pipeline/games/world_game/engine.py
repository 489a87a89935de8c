"""The World Game (2-9 players, 20 cards each) as a rules engine: facts, challenges, ties on the next card.

Faithful to the rulebook (../shared/rules/the-world-game.en.txt, docs/rules-engines.md lists every
ambiguity and the reading chosen): 20 cards each, only the top card plays, seat 0 (left of the dealer)
leads first and the winner of a round leads the next. Option A: the leader names a fact (area,
population, highest point, land neighbours) of their top card, every player's top card is compared,
the highest value takes all revealed cards. Tied players compare the same fact on their next card (again
on the one after, while the tie lasts); a tied player without a next card drops out of the tie, and if
nobody tied has one the first tied player in turn order from the leader wins. All revealed cards go to
the final winner. Option B: the leader calls a challenge and chooses the player who sets it; the setter
chooses one of the challenges in play (decided before the game: `challenges`) about their own top card:
continent (name both continents of a country on two), flag (name the country), location (its map
number), capital (any one of several), and the reverse challenges location-reverse (the country at a map
number) and capital-reverse (the country of a capital). Every player but the setter answers or passes,
the caller first, then clockwise, each answer sealed (nobody sees another's before all are given: "all
players may try to answer" at once); they are judged against the setter's card together and the first
right answer clockwise from the caller wins, nobody right: the setter wins; the winner takes the top cards
of the caller, the setter and every wrong answerer. Won cards go to the bottom of the winner's stack: the
winner's own first, then the others clockwise from the winner, each player's cards in the order revealed.
The game ends when a player has no card left (2 players: the other holds them all); the most cards wins, a
tie means several winners.

Options: `player_challenges` is the rulebook's game with younger children (two players, each plays their
own challenges: the setter sets one of the caller's); `fixed_setter` is the setter "determined in advance"
(the player that many seats to the left of the caller always sets); `round_limit` is geodeck's house rule (not in the
rulebook), on by default so that every game ends: after ROUND_LIMIT rounds the most cards wins (None: no limit, as
the rulebook). Who answers right is the
players' business: the bots (BOTS) answer through the player model in players.py.
"""

import functools
import hashlib
import itertools
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

from pipeline.errors import GeodeckError
from pipeline.framework import core, search
from pipeline.framework.core import TERMINAL, EngineGame, EngineState
from pipeline.games.world_game import players as model
from pipeline.i18n.catalogue import N_

FACTS = ("area_km2", "population", "highest_point_m", "land_neighbours")
KINDS: Final = ("continent", "flag", "location", "capital", "location-reverse", "capital-reverse")
RULEBOOK_CHALLENGES = KINDS[:4]
ANSWERED_WITH = {  # what a challenge's answer names
    "continent": "continents",
    "flag": "country",
    "location": "map number",
    "capital": "capital",
    "location-reverse": "country",
    "capital-reverse": "country",
}
CONTINENTS = ("North America", "South America", "Europe", "Africa", "Asia", "Oceania")
HAND: Final = 20
ROUND_LIMIT: Final = 2000  # the house rule's default: a game still going after 2,000 rounds (several evenings at a
# table; sensible players end within 1,000) ends there and the most cards wins, as the rulebook's end for three or
# more players: no game of bots (issue 48: the search bot against a novice passed 3,000) goes on for ever
CALL: Final = len(FACTS)  # CALL + k - 1: call a challenge set by the player k seats to the left
CHALLENGE: Final = CALL  # a Turn's action for a challenge round


@dataclass(frozen=True)
class Country:
    id: str
    name: str
    values: tuple  # the four facts
    continents: frozenset[str]
    flag: str
    map_number: int | None
    capitals: tuple[str, ...]


class Turn(NamedTuple):  # built when read (State.turns): the engine keeps each round as a short tuple
    """One resolved round: the leader's choice, the top cards compared (fact) or the answers (challenge)."""

    leader: int
    action: int  # a fact index or CHALLENGE
    # (player, top card) of everyone compared / everyone who lost a card in a challenge; an observation lists
    # of a challenge's lost cards only the observer's own and the setter's (judged in the open)
    top: tuple[tuple[int, int], ...]
    best: tuple[int, ...]  # fact rounds: the players with the highest top card (2+ = a tie-break followed)
    tie_levels: int  # fact rounds: how many times the tied players went on to their next card
    answers: tuple[tuple[int, bool], ...]  # challenge rounds: (player, right)
    winner: int
    setter: int | None = None  # challenge rounds: who set it, which kind, about which card
    kind: str | None = None
    card: int | None = None


def turn(fields: tuple) -> Turn:
    """The Turn of its ten fields, made by tuple's own constructor (a named tuple's is Python code, 4× slower)."""
    return tuple.__new__(Turn, fields)


class Stack:
    """A player's cards, top first, with the deque methods the engine uses (popleft, appendleft, append,
    extend, copy): a ring buffer in a list, so that a compiled engine calls them as C functions (a deque's
    take a method lookup and a call through Python each)."""

    def __init__(self, cards: list[int], capacity: int = 0) -> None:
        buffer = cards.copy()
        self._size = len(buffer)
        if capacity > self._size:
            buffer.extend([0] * (capacity - self._size))
        elif not buffer:
            buffer.append(0)
        self._cards, self._head = buffer, 0

    def __len__(self) -> int:
        return self._size

    def __bool__(self) -> bool:
        return self._size > 0

    def __getitem__(self, index: int) -> int:
        return self._cards[self._slot(index)]

    def __setitem__(self, index: int, card: int) -> None:
        self._cards[self._slot(index)] = card

    def __iter__(self) -> Iterator[int]:
        return iter(self.tolist())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Stack) and self.tolist() == other.tolist()

    def __repr__(self) -> str:
        return f"Stack({self.tolist()})"

    def tolist(self) -> list[int]:
        cards, head, capacity = self._cards, self._head, len(self._cards)
        return [cards[(head + i) % capacity] for i in range(self._size)]

    def _slot(self, index: int) -> int:
        if not -self._size <= index < self._size:
            raise IndexError(f"stack index {index} out of range ({self._size} cards)")
        return (self._head + index % self._size) % len(self._cards)

    def top(self) -> int:
        if not self._size:
            raise IndexError("no top card: the stack is empty")
        return self._cards[self._head]

    def popleft(self) -> int:
        if not self._size:
            raise IndexError("pop from an empty stack")
        card = self._cards[self._head]
        self._head = (self._head + 1) % len(self._cards)
        self._size -= 1
        return card

    def appendleft(self, card: int) -> None:
        if self._size == len(self._cards):
            self._grow()
        self._head = (self._head - 1) % len(self._cards)
        self._cards[self._head] = card
        self._size += 1

    def append(self, card: int) -> None:
        if self._size == len(self._cards):
            self._grow()
        self._cards[(self._head + self._size) % len(self._cards)] = card
        self._size += 1

    def extend(self, cards: list[int]) -> None:
        for card in cards:
            self.append(card)

    def copy(self) -> "Stack":
        new = Stack(self._cards)
        new._size, new._head = self._size, self._head
        return new

    def _grow(self) -> None:
        cards = self.tolist()
        self._cards, self._head = cards + [0] * max(len(cards), 1), 0


class Actions:
    """The legal actions of one kind of position: sorted, and as a set for an O(1) legality check."""

    def __init__(self, found: list[int]):
        self.sorted = found
        self.allowed = frozenset(found)


NO_ACTIONS: Final = Actions([])


class Challenge:
    """A challenge being set or answered (a plain class: a compiled dataclass's `__init__` runs as Python)."""

    def __init__(
        self,
        caller: int,
        setter: int,
        kind: str | None,
        queue: tuple[int, ...],
        answering: int,
        answers: list[tuple[int, bool]],
        taken: set[int],
    ) -> None:
        self.caller, self.setter = caller, setter
        self.kind = kind  # None while the setter chooses
        self.queue = queue  # players still to be asked after the one answering
        self.answering = answering
        self.answers = answers
        self.taken = taken  # whose top cards the winner takes: the caller's, the setter's, each wrong answerer's

    def copy(self) -> "Challenge":
        return Challenge(
            self.caller, self.setter, self.kind, self.queue, self.answering, self.answers.copy(), self.taken.copy()
        )


@dataclass(frozen=True)
class Flag:
    """A flag as the setter shows it: its number in the game's flags (`Game.flag_file` resolves it for
    display), which are ordered by a hash of their files, so the number names neither file nor country."""

    number: int

    def __str__(self) -> str:
        return f"a flag (no. {self.number})"


@dataclass(frozen=True)
class ChallengeView:
    """A challenge as the players see it: who set it, which kind, what the setter shows or names."""

    caller: int
    setter: int
    kind: str | None
    prompt: str | Flag | None  # the country's name, its flag, its map number or its capital (None while choosing)
    # no answers: they are sealed until every seat has had its turn (the round just played shows them)


@dataclass(frozen=True)
class Observation(core.Observation):
    """What one player may see: their own top card, every stack's size, the rounds so far, the challenge."""

    leader: int
    top: int | None  # the player's own top card ("the one facing them")
    top_values: tuple | None  # its four facts
    top_strength: tuple | None  # the share of the deck its facts beat (public: the card faces)
    counts: tuple[int, ...]
    last_turn: Turn | None  # the round just played (the players remember the earlier ones themselves)
    challenge: ChallengeView | None
    challenges: tuple[str, ...]  # the challenges this player may be set (all players' unless the children's game)
    action_labels: tuple[str, ...]  # every action's name (public)

    def __str__(self) -> str:
        top = "-" if self.top is None else f"{self.top_values}"
        text = f"player {self.player}, leader {self.leader}, cards {self.counts}, top card {top}"
        if self.challenge:
            view = self.challenge
            text += f", {view.kind or 'a'} challenge set by player {view.setter}: {view.prompt or '?'}"
        return text


class Game(EngineGame):
    """The cards and options of one World Game; `new_initial_state(rng)` shuffles and deals 20 each."""

    name = "world-game"
    title = "The World Game"

    def __init__(
        self,
        cards: list[dict],
        players: int = 2,
        challenges: tuple[str, ...] | list[str] = RULEBOOK_CHALLENGES,
        player_challenges: tuple[tuple[str, ...], ...] | list | None = None,
        round_limit: int | None = ROUND_LIMIT,
        fixed_setter: int | None = None,
    ):
        self.player_counts = tuple(range(2, len(cards) // HAND + 1))
        core.check_players(self.name, players, self.player_counts or (2,))
        self.players, self.challenges = players, tuple(challenges)
        self.player_challenges = tuple(tuple(c) for c in player_challenges) if player_challenges else None
        self.round_limit, self.fixed_setter = round_limit, fixed_setter
        self._check_options()
        self._cards(cards)
        self._actions()
        self._legal_tables()
        self._round_tables()
        self._right_answers: dict[str, list[frozenset[int] | None]] = {}  # right_answers by kind and card, as asked for
        self.state_class = State

    def _cards(self, cards: list[dict]) -> None:
        """The countries, their flags (numbered by a hash of their files), values and strengths."""
        self.countries = tuple(_country(c) for c in cards)
        self.flags = tuple(sorted({c.flag for c in self.countries}, key=lambda f: hashlib.sha256(f.encode()).digest()))
        self.flag_number = {flag: i for i, flag in enumerate(self.flags)}
        self.card_fields = tuple(c["fields"] for c in cards)  # the printed cards, for the players' knowledge
        self.ids = tuple(c.id for c in self.countries)
        self.values = tuple(c.values for c in self.countries)
        by_fact = [core.percentiles([v[f] for v in self.values]) for f in range(len(FACTS))]
        self.strength = tuple(tuple(by_fact[f][i] for f in range(len(FACTS))) for i in range(len(cards)))

    def _actions(self) -> None:
        """The action ranges (facts, calls, sets, pass, answers), their labels and the answer actions."""
        self.answers = _answers(self.countries)  # (kind of answer, value) per answer action
        self.call_actions = max(self.player_counts or (2,)) - 1
        self.set_base = CALL + self.call_actions
        self.pass_action = self.set_base + len(KINDS)
        self.answer_base = self.pass_action + 1
        self.labels = self._labels()
        self.answer_index = {answer: i for i, answer in enumerate(self.answers)}
        self.answer_actions = {
            kind: [self.answer_base + i for i, (answered, _) in enumerate(self.answers) if answered == kind]
            for kind in set(ANSWERED_WITH.values())
        }

    def _legal_tables(self) -> None:
        """The legal actions by leader, caller and challenge, shared by every state."""
        players = self.players
        self.clockwise = tuple(tuple((s + i) % players for i in range(players)) for s in range(players))
        # the legal actions by leader, caller and challenge: each a sorted list (what legal_actions() returns,
        # shared by every state: a caller must not change it) and the same actions as a set (apply_action's check)
        self.lead_actions = tuple(
            Actions([*range(len(FACTS)), *(self._calls() if self.challenges_for(p) else ())]) for p in range(players)
        )
        self.set_actions = tuple(
            Actions([self.set_base + KINDS.index(k) for k in self.challenges_for(p)]) for p in range(players)
        )
        self.reply_actions = {
            kind: Actions([self.pass_action, *self.answer_actions[ANSWERED_WITH[kind]]]) for kind in KINDS
        }
        self.only_challenge = tuple(
            kinds[0] if len(kinds) == 1 else None for kinds in map(self.challenges_for, range(players))
        )

    def _round_tables(self) -> None:
        """What a round reads: who may answer, (player, card) pairs, fact ranks, the answers' pairs."""
        players, cards = self.players, len(self.ids)
        # by caller and seats to the left of the setter: who may answer after the caller, clockwise
        self.askers = tuple(
            {k: tuple(p for p in self.clockwise[c][1:] if p != (c + k) % players) for k in range(1, players)}
            for c in range(players)
        )
        self.pair = tuple(tuple((p, card) for card in range(cards)) for p in range(players))  # [p][card]: (p, card)
        self.alone = tuple((p,) for p in range(players))  # [p]: (p,), the best of a round p won outright
        self.fact_values = tuple(tuple(v[f] for v in self.values) for f in range(len(FACTS)))  # [fact][card]
        self.fact_ranks = tuple(map(_ranks, self.fact_values))  # [fact][card]: the same order, as small ints
        self.places = tuple(cards**p for p in range(players))  # [p]: seat p's digit in a fact round's record
        # the (country, flag / map number / capital) pairs that the reverse answers are judged by
        self.pairs: dict[str, set[tuple[str, object]]] = {
            "flag": {(c.name, c.flag) for c in self.countries},
            "location-reverse": {(c.name, c.map_number) for c in self.countries},
            "capital-reverse": {(c.name, cap) for c in self.countries for cap in c.capitals},
        }

    def _check_options(self) -> None:
        chosen = set(self.challenges) | {k for own in self.player_challenges or () for k in own}
        unknown = sorted(chosen - set(KINDS))
        if unknown:
            raise GeodeckError(f"The World Game: unknown challenge {', '.join(unknown)}; known: {', '.join(KINDS)}")
        if self.player_challenges is not None and (self.players != 2 or len(self.player_challenges) != 2):
            raise GeodeckError(
                "The World Game: each player's own challenges (the game with younger children) are for two "
                "players, one list each"
            )
        if self.fixed_setter is not None and not 1 <= self.fixed_setter < self.players:
            raise GeodeckError(
                f"The World Game: fixed_setter counts the seats to the caller's left, 1-{self.players - 1} "
                f"with {self.players} players, not {self.fixed_setter}"
            )
        if self.round_limit is not None and self.round_limit < 1:
            raise GeodeckError(f"The World Game: round_limit is a number of rounds ≥ 1, not {self.round_limit}")

    def _labels(self) -> tuple[str, ...]:
        labels = [f"compare {f}" for f in FACTS]
        labels += [f"call a challenge set by the player {k} to the left" for k in range(1, self.call_actions + 1)]
        labels += [f"set the {kind} challenge" for kind in KINDS]
        labels += ["pass"]
        labels += [f"answer {value}" for _, value in self.answers]
        return tuple(labels)

    def options(self) -> dict:
        return {
            "players": self.players,
            "challenges": list(self.challenges),
            "player_challenges": [list(c) for c in self.player_challenges] if self.player_challenges else None,
            "round_limit": self.round_limit,
            **({"fixed_setter": self.fixed_setter} if self.fixed_setter is not None else {}),
        }

    def _calls(self) -> range:
        """The call actions: any setter to the caller's left, or only the one fixed in advance."""
        if self.fixed_setter is not None:
            return range(CALL + self.fixed_setter - 1, CALL + self.fixed_setter)
        return range(CALL, CALL + self.players - 1)

    def challenges_for(self, caller: int) -> tuple[str, ...]:
        """The challenges the caller may be set: their own in the children's game, else those in play."""
        return self.player_challenges[caller] if self.player_challenges else self.challenges

    def deal_size(self) -> int:
        return len(self.countries)

    def num_distinct_actions(self) -> int:
        return self.answer_base + len(self.answers)

    def max_game_length(self) -> int | None:
        """Unbounded by the rules; with the house rule (the default) a round takes at most 2 + players actions."""
        return None if self.round_limit is None else self.round_limit * (2 + self.players)

    def answer_kind(self, kind: str) -> str:
        return ANSWERED_WITH[kind]

    def right_answer(self, kind: str, card: int) -> int:
        """The index (in `answers`) of a right answer to the `kind` challenge on `card`."""
        country = self.countries[card]
        value: object = {
            "continent": country.continents,
            "location": country.map_number,
            "capital": country.capitals[0] if country.capitals else None,
        }.get(kind, country.name)
        return self.answer_index[ANSWERED_WITH[kind], value]

    def right_answers(self, kind: str, card: int) -> frozenset[int]:
        """The answer actions `is_right` accepts for the `kind` challenge on `card` (worked out once per game)."""
        by_card = self._right_answers.get(kind)
        if by_card is None:
            by_card = self._right_answers[kind] = [None] * len(self.countries)
        found = by_card[card]
        if found is None:
            answers = self.reply_actions[kind].sorted[1:]  # after the pass
            found = frozenset(a for a in answers if self.is_right(kind, card, self.answers[a - self.answer_base][1]))
            by_card[card] = found
        return found

    def flag_file(self, flag: Flag) -> str:
        """The file of the flag the setter shows (for display)."""
        return self.flags[flag.number]

    def prompt(self, kind: str, card: int) -> str | Flag:
        """What the setter names or shows about `card` for a `kind` challenge (a flag as a `Flag`)."""
        country = self.countries[card]
        if kind == "flag":
            return Flag(self.flag_number[country.flag])
        if kind == "location-reverse":
            return f"map number {country.map_number}"
        if kind == "capital-reverse":
            return country.capitals[0] if country.capitals else "-"
        return country.name

    def is_right(self, kind: str, card: int, answer: object) -> bool:
        """Whether `answer` answers the `kind` challenge on `card` (judged against the card)."""
        country = self.countries[card]
        if kind == "continent":
            return answer == country.continents
        if kind == "location":
            return answer == country.map_number
        if kind == "capital":
            return answer in country.capitals
        if kind == "flag":
            return (answer, country.flag) in self.pairs[kind]
        if kind == "location-reverse":
            return (answer, country.map_number) in self.pairs[kind]
        return (answer, prompt_capital(country)) in self.pairs["capital-reverse"]


def _ranks(values: tuple) -> tuple[int, ...]:
    """Each value's rank among the distinct values (0 = lowest): compared as they compare, and cheaper."""
    rank = {value: r for r, value in enumerate(sorted(set(values)))}
    return tuple([rank[value] for value in values])


def _seen_by(turn: Turn, player: int) -> Turn:
    """The round as `player` saw it: of a challenge's lost cards only their own and the setter's."""
    if turn.action != CHALLENGE:
        return turn
    return turn._replace(top=tuple([(p, card) for p, card in turn.top if p in (player, turn.setter)]))


def prompt_capital(country: Country) -> str | None:
    return country.capitals[0] if country.capitals else None


def _country(card: dict) -> Country:
    fields = card["fields"]
    return Country(
        id=card["id"],
        name=fields.get("name_en") or card["id"],
        values=tuple(fields[f] for f in FACTS),
        continents=frozenset(fields.get("continents") or ()),
        flag=fields.get("flag") or card["id"],
        map_number=fields.get("map_number"),
        capitals=tuple(fields.get("capitals") or ()),
    )


def _answers(countries: tuple[Country, ...]) -> tuple[tuple[str, object], ...]:
    """Every answer a player may give: continents (one or two), countries, map numbers, capitals."""
    continents = list(CONTINENTS) + sorted({c for country in countries for c in country.continents} - set(CONTINENTS))
    sets = [frozenset([c]) for c in continents] + [frozenset(p) for p in itertools.combinations(continents, 2)]
    found: list[tuple[str, object]] = [("continents", s) for s in sets]
    found += [("country", name) for name in sorted({c.name for c in countries})]
    found += [("map number", n) for n in sorted({c.map_number for c in countries if c.map_number is not None})]
    found += [("capital", cap) for cap in sorted({cap for c in countries for cap in c.capitals})]
    return tuple(found)


def answer_text(value: object) -> str:
    return " and ".join(sorted(value)) if isinstance(value, frozenset) else str(value)


class State(EngineState[Game]):
    """A game in progress: the leader picks a fact or calls a challenge; setting and answering are decisions.

    The stacks are `Stack`s of card indices (top first). Each move sets the next position's legal actions
    from the game's tables (`_actions`). A round is kept short (`_rounds`: a fact round won outright as one
    int, `_fact_record`) and becomes a Turn when `turns` is read."""

    def __init__(self, game: Game, order: list[int]):
        super().__init__(game, order)
        dealt = self.players * HAND  # the most cards a stack can hold
        self.stacks = [Stack(order[p * HAND : (p + 1) * HAND], dealt) for p in range(self.players)]
        self.leader = 0
        self.limited = False  # ended by the house rule round_limit
        self.challenge: Challenge | None = None
        self._actions = game.lead_actions[0]
        # every round, kept short: `_fact_record` for a fact round won outright,
        # (caller, CHALLENGE, setter, kind, answers, winner, cards won) for a challenge, a Turn for a tie-break
        self._rounds: list[int | tuple] = []
        self._turns: list[Turn] = []  # the rounds as Turns, as far as asked for
        self._tie_cards: dict[int, list[int]] = {}  # round -> every card a tie-break revealed

    @property
    def set_aside(self) -> list[int]:
        """The cards not dealt (the end of the deal)."""
        return self.deal[self.players * HAND :]

    @property
    def turns(self) -> list[Turn]:
        """Every round played, in order (a caller must not change the list)."""
        turns, rounds = self._turns, self._rounds
        for kept in rounds[len(turns) :]:
            turns.append(self._turn(kept))
        return turns

    def rounds(self) -> int:
        """How many rounds have been played (cheaper than len(turns))."""
        return len(self._rounds)

    def _fact_record(self, fact: int, tops: int, winner: int) -> int:
        """A fact round won outright as one int: the fact, the leader, the winner and the top cards, the top
        cards as the digits of `tops` (seat p's card times `Game.places[p]`). An int is neither allocated with
        the round's fields nor tracked by the garbage collector: a tuple and a list per round cost random
        playouts a tenth of their time."""
        players = self.players
        return ((tops * players + winner) * players + self.leader) * len(FACTS) + fact

    def _turn(self, kept: int | tuple) -> Turn:
        """The Turn of a kept round (`_rounds`)."""
        game, players = self.game, self.players
        clockwise = game.clockwise
        if isinstance(kept, int):  # _fact_record
            rest, fact = divmod(kept, len(FACTS))
            rest, leader = divmod(rest, players)
            tops, winner = divmod(rest, players)
            radix = len(game.countries)
            top = tuple([game.pair[p][tops // game.places[p] % radix] for p in clockwise[leader]])
            return turn((leader, fact, top, game.alone[winner], 0, (), winner, None, None, None))
        if isinstance(kept, Turn):
            return kept
        if kept[1] == CHALLENGE:
            caller, _, setter, kind, answers, winner, won = kept
            taken = {caller, setter, *[p for p, right in answers if not right]}
            card_of = dict(zip([p for p in clockwise[winner] if p in taken], won))
            top = tuple([(p, card_of[p]) for p in clockwise[caller] if p in taken])
        return turn((caller, CHALLENGE, top, (), 0, answers, winner, setter, kind, card_of[setter]))

    def current_player(self) -> int:
        if self.terminal:
            return TERMINAL
        if self.challenge:
            return self.challenge.setter if self.challenge.kind is None else self.challenge.answering
        return self.leader

    def legal_actions(self) -> list[int]:
        """The legal actions, sorted: a list of the game's tables, so a caller must not change it."""
        return self._actions.sorted

    def apply_action(self, action: object) -> None:
        """`EngineState.apply_action`, its legality check a set lookup; anything unusual (an action of another
        type, an illegal one) takes the core's checks and messages."""
        if type(action) is int and action in self._actions.allowed:
            self._apply(action)
            self._history.append(action)
        else:
            super().apply_action(action)

    def play_randomly(self, rng: random.Random) -> tuple[int, int, int]:
        """`EngineState.play_randomly` (the same draws, moves and history) without the public API's checks: a
        drawn action is legal, and no chance node follows the deal."""
        history, draw = self._history, rng.random
        moves = options = 0
        while not self.terminal:
            actions = self._actions.sorted
            count = len(actions)
            action = actions[int(draw() * count)]
            self._apply(action)
            history.append(action)
            moves += 1
            options += count
        return moves, moves, options

    def _apply(self, action: int) -> None:
        if action < CALL:
            self._compare(action)
        elif action < self.game.set_base:
            self._call(action)
        elif action < self.game.pass_action:
            self._set(KINDS[action - self.game.set_base])
        else:
            self._reply(action)

    def action_to_string(self, player: int, action: int) -> str:
        labels = self.game.labels
        if not 0 <= action < len(labels):
            return f"unknown action {action}"
        if CALL <= action < self.game.set_base:
            return f"call a challenge set by player {(player + action - CALL + 1) % self.players}"
        if action >= self.game.answer_base:
            return f"answer {answer_text(self.game.answers[action - self.game.answer_base][1])}"
        return labels[action]

    def observation(self, player: int) -> Observation:
        top = self.stacks[player][0] if self.stacks[player] else None
        return Observation(
            **self.observed_by(player),
            leader=self.leader,
            top=top,
            top_values=None if top is None else self.game.values[top],
            top_strength=None if top is None else self.game.strength[top],
            counts=tuple(map(len, self.stacks)),
            last_turn=_seen_by(self.turns[-1], player) if self._rounds else None,
            challenge=self._challenge_view(),
            challenges=self.game.challenges_for(player),
            action_labels=self.game.labels,
        )

    def clone(self) -> "State":
        """A copy of the fields (O(state)): the stacks, the challenge, the rounds."""
        new = self._blank()
        new.stacks = [stack.copy() for stack in self.stacks]
        new.leader, new.limited, new._actions = self.leader, self.limited, self._actions
        challenge = self.challenge
        new.challenge = None if challenge is None else challenge.copy()
        new._rounds, new._turns, new._tie_cards = self._rounds.copy(), self._turns.copy(), self._tie_cards.copy()
        return new

    def seen_cards(self, player: int) -> set[int]:
        """Every card revealed in a fact round or a tie-break, the setter's card of every challenge (shown,
        then judged in the open), the player's own cards lost in challenges, their top card."""
        seen: set[int] = set()
        for r, kept in enumerate(self._rounds):
            if isinstance(kept, Turn):
                seen.update(self._tie_cards[r])
            else:
                seen.update(card for p, card in _seen_by(self._turn(kept), player).top)
        if self.stacks[player]:
            seen.add(self.stacks[player][0])
        if self.challenge is not None and self.challenge.kind is not None:
            seen.add(self.stacks[self.challenge.setter][0])
        return seen

    def alternatives(self, player: int, action: int, original: "State") -> list[int]:
        """Another seat's sealed answer to the challenge still open in `original`: any reply they could give
        (the answers are revealed together once every seat has had its turn)."""
        if self.challenge is None or self.challenge.kind is None or self.current_player() == player:
            return [action]
        if len(self._history) < original.len_before_sealed():
            return [action]
        return self._actions.sorted

    def len_before_sealed(self) -> int:
        """The moves before the answers still sealed (all of them when no challenge is being answered)."""
        challenge = self.challenge
        if challenge is None or challenge.kind is None:
            return len(self._history)
        order = (
            challenge.caller,
            *self.game.askers[challenge.caller][(challenge.setter - challenge.caller) % self.players],
        )
        return len(self._history) - order.index(challenge.answering)

    def _challenge_view(self) -> ChallengeView | None:
        challenge = self.challenge
        if challenge is None:
            return None
        prompt = None if challenge.kind is None else self.game.prompt(challenge.kind, self.stacks[challenge.setter][0])
        return ChallengeView(challenge.caller, challenge.setter, challenge.kind, prompt)

    def __str__(self) -> str:
        names = [c.name for c in self.game.countries]
        lines = [
            f"The World Game, {self.players} players, round {self.rounds() + 1}, leader {self.leader}"
            + (", over" if self.terminal else f", player {self.current_player()} to act")
        ]
        for p, stack in enumerate(self.stacks):
            lines.append(f"player {p}: {len(stack)} cards, top {names[stack[0]] if stack else '-'}")
        view = self._challenge_view()
        if view:
            lines.append(
                f"challenge called by player {view.caller}, set by player {view.setter}: {view.kind or '(choosing)'} "
                f"{view.prompt or ''}, {len(self.challenge.answers) if self.challenge else 0} answers sealed"
            )
        return "\n".join(lines)

    def _why_illegal(self, action: int) -> core.Refusal:
        player, game, challenge = self.current_player(), self.game, self.challenge
        if not 0 <= action < game.num_distinct_actions():
            return core.Refusal(
                N_("{action} is no action of this game (0-{last})"),
                {"action": action, "last": game.num_distinct_actions() - 1},
                {},
            )
        if challenge is None:
            if CALL <= action < CALL + self.players - 1 and game.fixed_setter and game.challenges_for(player):
                return self._refusal(
                    N_(
                        "{player} may not {action}: the setter was fixed in advance, the player {seats} to the "
                        'left (rule: "either one determined in advance or of their own choice")'
                    ),
                    player=player,
                    action=action,
                    seats=game.fixed_setter,
                )
            if action >= CALL + self.players - 1 or (action >= CALL and game.challenges_for(player)):
                return self._refusal(
                    N_("{player} leads: a fact or a challenge, not {action}"), player=player, action=action
                )
            return self._refusal(
                N_(
                    "{player} may not call a challenge: none is in play (rule: before the game begins, the players "
                    "decide which of the four challenges they want to play)"
                ),
                player=player,
            )
        if challenge.kind is None:
            if game.set_base <= action < game.pass_action:
                return self._refusal(
                    N_("{player} may not {action}: the challenges in play are {kinds} (rule: decided before the game)"),
                    player=player,
                    action=action,
                    kinds=tuple(game.challenges_for(challenge.caller)),
                )
            return self._refusal(N_("{player} sets a challenge now, not {action}"), player=player, action=action)
        return self._refusal(
            N_("{player} may not {action}: the {kind} challenge is answered with a {answered}, or pass"),
            player=player,
            action=action,
            kind=challenge.kind,
            answered=game.answer_kind(challenge.kind),
        )

    def _refusal(self, message: str, **fields: Any) -> core.Refusal:
        """A refusal with the English words of its fields: the seat, the action, the challenges."""
        words = {"player": f"player {fields['player']}"}
        if "action" in fields:
            words["action"] = self.action_to_string(fields["player"], fields["action"])
        if "kinds" in fields:
            words["kinds"] = ", ".join(fields["kinds"])
        return core.Refusal(message, fields, words)

    def card_counts(self) -> list[int]:
        return list(map(len, self.stacks))

    def scores(self) -> list[int]:
        return self.card_counts()

    def winners(self) -> list[int]:
        counts = self.card_counts()
        return [p for p, c in enumerate(counts) if c == max(counts)]

    def returns(self) -> list[float]:
        return core.win_shares(self.card_counts(), self.winners()) if self.terminal else [0.0] * self.players

    def _compare(self, fact: int) -> None:
        """A fact round: every player reveals their top card; one highest card takes them all (its owner's
        first, then clockwise); a tie goes on to the tied players' next cards (`_tie_round`)."""
        game, stacks = self.game, self.stacks
        ranks = game.fact_ranks[fact]
        winner, highest, tied = 0, -1, False
        for p in range(self.players):
            rank = ranks[stacks[p].top()]
            if rank > highest:
                winner, highest, tied = p, rank, False
            elif rank == highest:
                tied = True
        if tied:
            self._tie_round(fact, highest)
            return
        won, tops, places = stacks[winner], 0, game.places
        for p in game.clockwise[winner]:  # the winner's own card first, then clockwise
            card = stacks[p].popleft()
            won.append(card)
            tops += card * places[p]
        self._rounds.append(self._fact_record(fact, tops, winner))
        self._next_round(winner)

    def _tie_round(self, fact: int, highest: int) -> None:
        """A tie on `fact` at rank `highest`: the tied players go on to their next cards (`_break_tie`)."""
        ranks = self.game.fact_ranks[fact]
        tops = [stack.top() for stack in self.stacks]
        facts = [ranks[card] for card in tops]
        order = self.game.clockwise[self.leader]
        best = tuple([p for p in order if facts[p] == highest])
        revealed = dict.fromkeys(order, 1)
        winner, level = self._break_tie(fact, best, revealed)
        top = tuple([(p, tops[p]) for p in order])
        self._collect(winner, revealed, Turn(self.leader, fact, top, best, level, (), winner))

    def _break_tie(self, fact: int, tied: Sequence[int], revealed: dict[int, int]) -> tuple[int, int]:
        """The winner among the players tied on `fact` and the levels gone down: the tied compare their
        next cards while the tie lasts (each revealing one more); one without a next card drops out."""
        values, stacks, level = self.game.values, self.stacks, 0
        while True:
            level += 1
            contenders = [p for p in tied if len(stacks[p]) > level]
            if len(contenders) <= 1:
                return (contenders[0] if contenders else tied[0]), level
            for p in contenders:
                revealed[p] = level + 1
            facts = [values[stacks[p][level]][fact] for p in contenders]
            highest = max(facts)
            tied = [p for p, v in zip(contenders, facts) if v == highest]
            if len(tied) == 1:
                return tied[0], level

    def _call(self, action: int) -> None:
        """The leader calls a challenge, set by the player `action - CALL + 1` seats to the left."""
        caller, game, seats_left = self.leader, self.game, action - CALL + 1
        setter = (caller + seats_left) % self.players
        self.challenge = Challenge(caller, setter, None, game.askers[caller][seats_left], caller, [], {caller, setter})
        kind = game.only_challenge[caller]
        if kind is None:
            self._actions = game.set_actions[caller]
        else:
            self._set(kind)

    def _set(self, kind: str) -> None:
        assert self.challenge is not None
        self.challenge.kind = kind
        self._actions = self.game.reply_actions[kind]

    def _reply(self, action: int) -> None:
        """A sealed answer (judged against the setter's top card) or a pass; after the last seat the answers
        are revealed together: the first right one clockwise from the caller wins, nobody right the setter."""
        game, challenge = self.game, self.challenge
        assert challenge is not None and challenge.kind is not None
        if action != game.pass_action:
            card = self.stacks[challenge.setter][0]
            right = action in game.right_answers(challenge.kind, card)
            challenge.answers.append((challenge.answering, right))
            if not right:
                challenge.taken.add(challenge.answering)
        if challenge.queue:
            challenge.answering, challenge.queue = challenge.queue[0], challenge.queue[1:]
            return
        winner = challenge.setter
        for p, right in challenge.answers:  # in answering order: the caller, then clockwise
            if right:
                winner = p
                break
        self._end_challenge(winner)

    def _end_challenge(self, winner: int) -> None:
        """The winner takes the top cards of the caller, the setter and each wrong answerer (own first, then
        clockwise)."""
        challenge, stacks = self.challenge, self.stacks
        assert challenge is not None
        taken = challenge.taken
        won = [stacks[p].popleft() for p in self.game.clockwise[winner] if p in taken]
        stacks[winner].extend(won)
        self.challenge = None
        answers = tuple(challenge.answers)
        self._rounds.append((challenge.caller, CHALLENGE, challenge.setter, challenge.kind, answers, winner, won))
        self._next_round(winner)

    def _collect(self, winner: int, revealed: dict[int, int], turn: Turn) -> None:
        """The winner of a tie-break takes the revealed cards (own first, then clockwise)."""
        won = []
        for p in self.game.clockwise[winner]:
            for _ in range(revealed.get(p, 0)):
                won.append(self.stacks[p].popleft())
        self.stacks[winner].extend(won)
        self._tie_cards[len(self._rounds)] = won
        self._rounds.append(turn)
        self._next_round(winner)

    def _next_round(self, winner: int) -> None:
        """The winner leads next, unless a player has no card left (or the house rule's round limit is reached)."""
        self.leader, game = winner, self.game
        cards_left = True
        for stack in self.stacks:
            if not stack:
                cards_left = False
        limit = game.round_limit
        if cards_left and (limit is None or len(self._rounds) < limit):
            self._actions = game.lead_actions[winner]
            return
        self.terminal, self.limited, self._actions = True, cards_left, NO_ACTIONS


FACT_NOISE = {"child": 0.45, "novice": 0.3, "skilled": 0.1, "expert": 0.0, "master": 0.0}  # how far a bot
# misjudges a fact's strength
GUESSES = 3  # a bot that does not know guesses among the wrong answers of this many nearest countries


@functools.lru_cache(maxsize=16)
def _plausible(game: Game, kind: str) -> tuple[tuple[int, ...], ...]:
    """Per card, the wrong answers to the `kind` challenge a player who does not know would give: the right
    answers of the nearest countries (players.nearest: a neighbour's capital, a country close by, the
    continent across the border), up to GUESSES distinct ones, never a right one."""
    near = model.nearest(game.card_fields)
    found = []
    for card in range(len(game.countries)):
        right, guesses = game.right_answers(kind, card), []
        for other in near[card]:
            guess = game.answer_base + game.right_answer(kind, other)
            if guess not in right and guess not in guesses:
                guesses.append(guess)
                if len(guesses) == GUESSES:
                    break
        found.append(tuple(guesses))
    return tuple(found)


@functools.lru_cache(maxsize=16)
def _knowledge(
    game: Game, level: str
) -> tuple[dict[str, list[float]], dict[tuple[str, str | Flag], int], dict[str, float]]:
    """What a player of `level` brings to a game (the same every game of this deck): the chance to know each
    challenge on each card, the card behind each prompt, the mean chance per challenge."""
    known, countries = model.familiarity(game.card_fields), game.countries
    chances = {
        kind: [model.chance(level, known[i], kind, len(c.continents), len(c.capitals)) for i, c in enumerate(countries)]
        for kind in KINDS
    }
    cards_by_prompt = {(kind, game.prompt(kind, i)): i for kind in KINDS for i in range(len(countries))}
    return chances, cards_by_prompt, {kind: sum(p) / len(p) for kind, p in chances.items()}


def knowing(level: str) -> core.Bot:
    """A bot of skill `level` (players.SKILLS): it knows the answer to a challenge on a country with the
    player model's probability (drawn once per challenge and country in a game), answers when it knows
    (the caller, who loses the card anyway, guesses a near country's answer otherwise: `_plausible`), sets
    the challenge it finds hardest, leads the fact or challenge with the best expected cards (facts
    misjudged by FACT_NOISE), and lets the player with the most cards set its challenges. It reads only
    its observation."""
    noise = FACT_NOISE[level]

    def make(game: Game, rng: random.Random) -> core.Policy:
        chances, cards_by_prompt, average = _knowledge(game, level)

        def chance(kind: str, card: int) -> float:
            return chances[kind][card]

        knows: dict[tuple[str, int], bool] = {}
        draws = random.Random(rng.random())

        def lead(observation: Observation, rng: random.Random) -> int:
            others = observation.players - 1
            strength = observation.top_strength or (0.0,) * len(FACTS)
            win = [min(max(s + rng.gauss(0, noise), 0.0), 1.0) ** others for s in strength]
            fact = max(range(len(FACTS)), key=lambda f: win[f])
            calls = [a for a in observation.legal_actions if a >= CALL]
            if not calls:
                return fact
            hardest = min(average[k] for k in observation.challenges)
            if 2 * hardest - 1 <= win[fact] * others - (1 - win[fact]):
                return fact
            me, counts = observation.player, observation.counts
            setter = max((p for p in range(observation.players) if p != me), key=lambda p: (counts[p], -p))
            call = CALL + (setter - me) % observation.players - 1
            return call if call in calls else calls[0]  # a setter fixed in advance: the one call there is

        def policy(observation: Observation, rng: random.Random) -> int:
            view, legal = observation.challenge, observation.legal_actions
            if view is None:
                return lead(observation, rng)
            if view.kind is None:  # setting: the challenge the setter itself would most likely miss
                top = observation.top if observation.top is not None else 0
                return min(legal, key=lambda a: chance(KINDS[a - game.set_base], top))
            card = cards_by_prompt.get((view.kind, view.prompt or ""))
            if card is not None:
                key = (view.kind, card)
                if key not in knows:
                    knows[key] = draws.random() < chance(*key)
                if knows[key]:
                    return game.answer_base + game.right_answer(view.kind, card)
            if observation.player == view.caller:  # a plausible guess: a near country's answer
                guesses = _plausible(game, view.kind)[card] if card is not None else ()
                if not guesses:
                    guesses = tuple(a for a in legal if a != game.pass_action)
                return guesses[rng.randrange(len(guesses))]
            return game.pass_action

        return policy

    return make


def _leading(observation: Observation) -> bool:
    """A decision the search bot takes: a fact or a challenge, or which challenge to set (it answers as the
    expert, who knows an answer with the player model's probability: a search over the answers knows them all)."""
    return observation.challenge is None or observation.challenge.kind is None


SEARCH_ITERATIONS = 60  # the search bot's budget per decision (search.bot), over 6 sampled states
SEARCH_SAMPLES = 6
SEARCH_HORIZON = 4  # and how many moves it looks ahead
BOTS: dict[str, core.Bot] = {  # the bots, weakest first (issue 48): two axes, what a bot knows (child ... master)
    # and how it plays (by rule, or `mcts`: a search with the expert's knowledge, between expert and master)
    "random": core.random_bot,
    **{level: knowing(level) for level in model.SKILLS if level != "master"},
    search.NAME: search.bot(
        SEARCH_ITERATIONS,
        model=knowing("expert"),  # its own answers and its model of the others: one knowledge
        searched=_leading,
        horizon=SEARCH_HORIZON,
        samples=SEARCH_SAMPLES,
        exploration=0.05,  # values are shares of the cards: a round moves them by a few hundredths
    ),
    "master": knowing("master"),  # beats the search bot 0.85 of duels; the search on master knowledge: 0.68
}
