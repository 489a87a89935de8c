"""Länder toppen! (2-6 players) as a rules engine: deal, place face down, reveal, take and split tricks, score.

Faithful to the rulebook (../shared/rules/laender-toppen.en.txt, docs/rules-engines.md lists every
ambiguity and the reading chosen): cards and rounds per player count, 12 slots per player (6 categories
× above/below), every hand card placed, reveal order area above, area below, peak above, ..., highest
value above / lowest below takes all country cards of the slot, jokers go back to their owner onto one of
their two continent piles, a card may not go where it has no value (Antarctica: inhabitants, life
expectancy, GDP), a tie for the extreme gives each tied player only their own card and removes the rest,
a trick of 2+ cards puts at least one card face down and at least one on a matching continent pile,
a card with several continents (Russia, Turkey) may go on any of them, continent majorities score
(ties split, rounded up) plus 1 per face-down card, ties of the total go to the Antarctica card's owner.
`fast=True` is the rulebook's faster game: no splitting, the most cards won wins.

Simplified: placing is simultaneous and hidden in the real game; here seat 0 places its whole hand, then
seat 1, and so on. The placements are face down, so a policy must only read its own `hands[p]` and
`strips[p]` and the public piles. The decisions of one slot are taken in a fixed order: jokers back to
their owners by seat, then the trick's cards one at a time in the seat order of who played them.
"""

import math
import random
from collections import deque
from dataclasses import dataclass
from typing import Any

from pipeline.errors import GeodeckError
from pipeline.games.core import TERMINAL, check_players, percentiles, win_shares

CATEGORIES = ("area_km2", "highest_peak_m", "temperature_c", "inhabitants_m", "life_expectancy", "gdp_pcap_usd")
CONTINENTS = ("North America", "South America", "Europe", "Africa", "Asia", "Oceania", "Antarctica")
FACE_DOWN = len(CONTINENTS)  # pile actions: 0-6 a continent pile, 7 the face-down pile
SLOTS = 2 * len(CATEGORIES)  # slot = 2 * category + (0 above, 1 below), also the reveal order
PLACE = FACE_DOWN + 1  # placement actions: PLACE + card * SLOTS + slot
TABLE = {2: (10, 6), 3: (10, 4), 4: (8, 4), 5: (8, 3), 6: (7, 3)}  # players: (hand cards, rounds)
JOKER, FREE = "joker", "free"


@dataclass(frozen=True)
class Card:
    id: str
    joker: bool
    values: tuple  # the six category values (None where the card has a dash)
    continents: tuple[int, ...]  # continent pile indices


@dataclass(frozen=True)
class Trick:
    """One revealed slot with country cards: who played which card, who took it (2+ = tie for the extreme)."""

    round: int
    slot: int
    played: tuple[tuple[int, int], ...]  # (player, card)
    winners: tuple[int, ...]


class _Split:
    """A trick of 2+ cards being split: how many cards are left, and whether each kind of pile got one."""

    __slots__ = ("continent", "face_down", "remaining")

    def __init__(self, cards: int):
        self.remaining, self.face_down, self.continent = cards, False, False


def slot_name(slot: int) -> str:
    category, below = divmod(slot, 2)
    return f"{CATEGORIES[category]} {'below' if below else 'above'}"


def parse_card(card: dict) -> Card:
    fields = card["fields"]
    try:
        continents = tuple(CONTINENTS.index(c) for c in fields["continents"])
    except ValueError as exc:
        raise GeodeckError(f"card {card['id']}: {exc}; continents are {', '.join(CONTINENTS)}") from exc
    joker = card["kind"] == "joker"
    return Card(card["id"], joker, tuple(None if joker else fields[c] for c in CATEGORIES), continents)


class Game:
    """The cards and options of one Länder toppen game; `new_initial_state(rng)` shuffles and deals."""

    name = "laender-toppen"
    player_counts = tuple(TABLE)

    def __init__(self, cards: list[dict], players: int = 4, fast: bool = False):
        check_players(self.name, players, self.player_counts)
        self.players, self.fast = players, fast
        self.hand_size, self.rounds = TABLE[players]
        self.cards = tuple(parse_card(c) for c in cards)
        need = players * self.hand_size * self.rounds
        if len(self.cards) < need:
            raise GeodeckError(f"a {players}-player game needs {need} cards; the deck has {len(self.cards)}")
        self.antarctica = next((i for i, c in enumerate(cards) if c["kind"] == "antarctica"), None)
        self.allowed = tuple(
            tuple(s for s in range(SLOTS) if card.joker or card.values[s // 2] is not None) for card in self.cards
        )
        by_category: list[list[Any]] = [percentiles([c.values[k] for c in self.cards]) for k in range(len(CATEGORIES))]
        self.strength = tuple(  # greedy placement: the share of the deck a card beats in a slot; jokers last
            tuple(
                -1.0
                if card.joker or by_category[s // 2][i] is None
                else (1 - by_category[s // 2][i] if s % 2 else by_category[s // 2][i])
                for s in range(SLOTS)
            )
            for i, card in enumerate(self.cards)
        )

    @classmethod
    def from_deck(cls, deck: dict, **options) -> "Game":
        return cls(deck["cards"], **options)

    def new_initial_state(self, rng: random.Random) -> "State":
        order = list(range(len(self.cards)))
        rng.shuffle(order)
        return State(self, order)


class State:
    """A game in progress. Placing: `current_player()` places one hand card per action. Revealing: the
    player deciding where one card goes (joker owner, trick winner) acts with a pile action."""

    def __init__(self, game: Game, order: list[int]):
        self.game, self.players = game, game.players
        self.reserve = order[::-1]  # dealt from the end
        self.round = 0
        self.hands: list[list[int]] = [[] for _ in range(self.players)]
        self.strips: list[list[Any]] = [[None] * SLOTS for _ in range(self.players)]
        self.piles: list[list[list[int]]] = [[[] for _ in range(FACE_DOWN + 1)] for _ in range(self.players)]
        self.removed: list[int] = []
        self.pending: deque = deque()  # (player, card, JOKER | FREE | _Split)
        self.tricks: list[Trick] = []
        self.placing: Any = 0  # the seat placing its hand; None once all are placed
        self.slot = 0
        self.terminal = False
        self._deal()

    # -- OpenSpiel-style API -------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.terminal:
            return TERMINAL
        return self.pending[0][0] if self.pending else self.placing

    def is_terminal(self) -> bool:
        return self.terminal

    def legal_actions(self) -> list[int]:
        if self.terminal:
            return []
        if self.pending:
            return self._pile_actions(*self.pending[0])
        return self._place_actions(self.placing)

    def apply_action(self, action: int) -> None:
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {action} for player {self.current_player()}")
        if self.pending:
            player, card, rule = self.pending.popleft()
            self.piles[player][action].append(card)
            if isinstance(rule, _Split):
                rule.remaining -= 1
                rule.face_down |= action == FACE_DOWN
                rule.continent |= action != FACE_DOWN
        else:
            card, slot = divmod(action - PLACE, SLOTS)
            self.hands[self.placing].remove(card)
            self.strips[self.placing][slot] = card
            if not self.hands[self.placing]:
                self.placing = self.placing + 1 if self.placing + 1 < self.players else None
        self._advance()

    def scores(self) -> list[int]:
        """Points so far: continent majorities (ties split, rounded up) + 1 per face-down card."""
        points = [len(piles[FACE_DOWN]) for piles in self.piles]
        for continent in range(FACE_DOWN):
            counts = [len(piles[continent]) for piles in self.piles]
            most = max(counts)
            if most:
                share = math.ceil(most / counts.count(most))
                for p, count in enumerate(counts):
                    points[p] += share if count == most else 0
        return points

    def winners(self) -> list[int]:
        """The players with the most points; a tie goes to the Antarctica card's owner if tied, else shared."""
        scores = self.scores()
        best = [p for p, s in enumerate(scores) if s == max(scores)]
        owner = self.owner(self.game.antarctica)
        return [owner] if len(best) > 1 and owner in best else best

    def returns(self) -> list[float]:
        return win_shares(self.scores(), self.winners()) if self.terminal else [0.0] * self.players

    # -- helpers -------------------------------------------------------------------------------------
    def owner(self, card: int | None) -> int | None:
        """The player whose piles hold `card` (None if nobody won it)."""
        return next((p for p, piles in enumerate(self.piles) if any(card in pile for pile in piles)), None)

    def zones(self) -> dict[str, list[int]]:
        """Every card by where it is: reserve, hands, strips, being decided, piles, removed."""
        return {
            "reserve": list(self.reserve),
            "hands": [c for h in self.hands for c in h],
            "strips": [c for s in self.strips for c in s if c is not None],
            "pending": [card for _, card, _ in self.pending],
            "piles": [c for piles in self.piles for pile in piles for c in pile],
            "removed": list(self.removed),
        }

    def _deal(self) -> None:
        for hand in self.hands:
            hand.extend(sorted(self.reserve.pop() for _ in range(self.game.hand_size)))

    def _place_actions(self, player: int) -> list[int]:
        hand, strip, allowed = self.hands[player], self.strips[player], self.game.allowed
        free = [s for s in range(SLOTS) if strip[s] is None]
        restricted = [c for c in hand if len(allowed[c]) < SLOTS]
        actions = []
        for card in hand:
            for slot in free:
                if slot in allowed[card] and (
                    not restricted
                    or _fits([c for c in restricted if c != card], [s for s in free if s != slot], allowed)
                ):
                    actions.append(PLACE + card * SLOTS + slot)
        return sorted(actions)

    def _pile_actions(self, player: int, card: int, rule) -> list[int]:
        continents = list(self.game.cards[card].continents)
        if rule == JOKER:
            return continents
        if isinstance(rule, _Split) and rule.remaining == 1:
            if not rule.face_down:
                return [FACE_DOWN]
            if not rule.continent:
                return continents
        return [*continents, FACE_DOWN]

    def _advance(self) -> None:
        """Reveal slots until a decision is needed; end the round after the last slot, the game after the last round."""
        while not self.pending and self.placing is None:
            if self.slot == SLOTS:
                self.round += 1
                if self.round == self.game.rounds:
                    self.terminal = True
                    return
                self._deal()
                self.placing, self.slot = 0, 0
                return
            self._reveal(self.slot)
            self.slot += 1

    def _reveal(self, slot: int) -> None:
        played = [(p, strip[slot]) for p, strip in enumerate(self.strips) if strip[slot] is not None]
        for p, _ in played:
            self.strips[p][slot] = None
        cards, fast = self.game.cards, self.game.fast
        for p, card in played:
            if cards[card].joker:
                self._take(p, card, JOKER)
        countries = [(p, c) for p, c in played if not cards[c].joker]
        if not countries:
            return
        category, below = divmod(slot, 2)
        values = [cards[c].values[category] for _, c in countries]
        best = min(values) if below else max(values)
        winners = tuple(p for (p, _), v in zip(countries, values) if v == best)
        self.tricks.append(Trick(self.round, slot, tuple(countries), winners))
        if len(winners) > 1:
            for p, card in countries:
                if p in winners:
                    self._take(p, card, FREE)
                else:
                    self.removed.append(card)
        else:
            split = _Split(len(countries)) if len(countries) > 1 and not fast else FREE
            for _, card in countries:
                self._take(winners[0], card, split)

    def _take(self, player: int, card: int, rule) -> None:
        if self.game.fast:
            self.piles[player][FACE_DOWN].append(card)
        else:
            self.pending.append((player, card, rule))


def _fits(restricted: list[int], free: list[int], allowed) -> bool:
    """Whether the restricted cards (few, usually 0 or 1) can still each get a distinct allowed free slot."""
    if not restricted:
        return True
    first, rest = restricted[0], restricted[1:]
    return any(_fits(rest, [f for f in free if f != s], allowed) for s in free if s in allowed[first])


def greedy_policy(state: State, rng: random.Random) -> int:
    """A simple player: each card where it beats the largest share of the deck (jokers into the leftover
    slots); won cards onto the own largest matching continent pile, face down only when the rules force it."""
    actions = state.legal_actions()
    player = state.current_player()
    if state.pending:
        piles = state.piles[player]
        continents = [a for a in actions if a != FACE_DOWN]
        return max(continents, key=lambda a: len(piles[a])) if continents else FACE_DOWN
    strength = state.game.strength
    return max(actions, key=lambda a: strength[(a - PLACE) // SLOTS][(a - PLACE) % SLOTS])
