"""Länder toppen! (2-6 players) as a rules engine: deal, place face down, reveal, take and split tricks, score.

Faithful to the rulebook (../shared/rules/laender-toppen.en.txt, docs/rules-engines.md lists every
ambiguity and the reading chosen): cards and rounds per player count, 12 slots per player (6 categories
× above/below), every hand card placed, reveal order area above, area below, peak above, ..., highest
value above / lowest below takes all country cards of the slot, jokers go back to their owner onto one of
their two continent piles, a card may not go where it has no value (Antarctica: inhabitants, life
expectancy, GDP), a tie for the extreme gives each tied player only their own card and removes the rest,
a trick of 2+ cards puts at least one card face down and at least one on a matching continent pile,
a card with several continents (Russia, Turkey) may go on either pile and counts at scoring for the
continent best for its owner, continent majorities score (ties split, rounded up) plus 1 per face-down
card, ties of the total go to the Antarctica card's owner. `fast=True` is the rulebook's faster game: no
splitting, the most cards won wins; jokers are taken back but never won, so they do not count.

Simplified: placing is simultaneous and hidden in the real game; here seat 0 places its whole hand, then
seat 1, and so on; `observation(p)` shows player p only their own hand and strip, the revealed tricks and
the piles (every card on them was revealed), never another player's hand or face-down placements. The
decisions of one slot are taken in a fixed order: jokers back to their owners by seat, then the trick's
cards one at a time in the seat order of who played them.
"""

import itertools
import math
import random
from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from operator import itemgetter
from typing import Any, Final, NamedTuple

from pipeline.errors import GeodeckError
from pipeline.framework import core
from pipeline.framework.core import TERMINAL, EngineGame, EngineState, IllegalAction
from pipeline.i18n.catalogue import N_

CONTINENTS = ("North America", "South America", "Europe", "Africa", "Asia", "Oceania", "Antarctica")  # the groups
TABLE = {2: (10, 6), 3: (10, 4), 4: (8, 4), 5: (8, 3), 6: (7, 3)}  # players: (hand cards, rounds) of a full deck
RULEBOOK_SLOTS = 12  # the rulebook's strip: 6 categories, above and below (TABLE's hands are for it)
JOKER: Final = "joker"  # the rules a card is put on a pile by: a joker back to its owner,
FREE: Final = "free"  # a card on any pile (one card won, or one's own card in a tie),
SPLIT: Final = "split"  # a card of a trick being split
HIGHER: Final = "higher"  # a category's direction: the highest value wins above (else the lowest)
_MASKS: dict[
    int, tuple[tuple[tuple[int, ...], ...], tuple]
] = {}  # slots -> (slots of a mask, picks of a mask), made once


def masks(slots: int) -> tuple[tuple[tuple[int, ...], ...], tuple]:
    """For a strip of `slots` slots, each free-slot bit mask (bit s set = slot s is empty) -> its slots, and
    -> an itemgetter picking a card's placement row at those slots (a tuple, even of one slot)."""
    if slots not in _MASKS:
        slots_of = tuple(tuple(s for s in range(slots) if mask >> s & 1) for mask in range(1 << slots))
        pick = tuple(
            itemgetter(*free) if len(free) > 1 else itemgetter(slice(free[0], free[0] + 1) if free else slice(0))
            for free in slots_of
        )
        _MASKS[slots] = (slots_of, pick)
    return _MASKS[slots]


def hand(players: int, slots: int) -> int:
    """The hand of a deck that deals it: the rulebook's, scaled to a strip of `slots` slots so that the rulebook's
    share of free slots stays (2, 2, 4, 4 and 5 of its 12 at 2-6 players). The free slots are rounded to the
    nearest whole slot, a half up: 4 categories (8 slots) deal 7, 7, 5, 5, 5 cards; 6 categories the rulebook's."""
    free = Fraction(RULEBOOK_SLOTS - TABLE[players][0], RULEBOOK_SLOTS) * slots
    return slots - math.floor(free + Fraction(1, 2))


def deal(players: int, cards: int, slots: int) -> tuple[int, int]:
    """(hand cards, rounds) of a game: the hand of the strip (`hand`) and the rulebook's rounds, fewer when the
    deck is smaller than the rulebook's. A deck too small for one round of those hands (a small table: the
    planets) is dealt out evenly, the rest left aside, for one round, if that gives everyone at least a card per
    category (half the strip); else (hand, 0): not even one round."""
    size, rounds = hand(players, slots), TABLE[players][1]
    if cards >= players * size:
        return size, min(rounds, cards // (players * size))
    share = cards // players
    return (share, 1) if share >= slots // 2 else (size, 0)


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    joker: bool
    values: tuple  # the category values (None where the card has a dash)
    continents: tuple[int, ...]  # group (continent) pile indices


class Trick(NamedTuple):
    """One revealed slot with country cards: who played which card, who took it (2+ = tie for the extreme)."""

    round: int
    slot: int
    played: tuple[tuple[int, int], ...]  # (player, card)
    winners: tuple[int, ...]


@dataclass
class Split:
    """A trick of 2+ cards being split: how many cards are left, and whether each kind of pile got one."""

    remaining: int
    face_down: bool = False
    continent: bool = False


@dataclass(frozen=True)
class Observation(core.Observation):
    """What one player may see: own hand and strip, the card being decided, the revealed tricks, the piles."""

    round: int
    slot: int  # the next slot to reveal (the game's slots: all revealed)
    hand: tuple[int, ...]
    strip: tuple[int | None, ...]  # the player's own placements
    deciding: tuple[int, str] | None  # (card, JOKER | FREE | SPLIT) the player puts on a pile now
    split: Split | None  # the trick being split: cards left, whether a face-down / continent card was placed
    tricks: tuple[Trick, ...]
    piles: tuple[tuple[tuple[int, ...], ...], ...]  # player -> pile (continents, face down) -> cards
    cards: tuple[Card, ...]  # the deck's card faces (public: every player knows the cards)
    strength: tuple[tuple[float, ...], ...]  # card -> slot -> share of the deck it beats there (from the faces)
    slot_names: tuple[str, ...]  # the game's slots (`Game.slot_names`)
    pile_names: tuple[str, ...]  # its piles: the groups, then the face-down pile

    def __str__(self) -> str:
        names = [c.name for c in self.cards]
        slot = self.slot_names[self.slot] if self.slot < len(self.slot_names) else "-"
        lines = [f"player {self.player}, round {self.round + 1}, next slot: {slot}"]
        lines.append("hand: " + ", ".join(names[c] for c in self.hand))
        lines.append("strip: " + _strip_text(self.strip, names, self.slot_names))
        if self.deciding:
            lines.append(f"to put on a pile: {names[self.deciding[0]]} ({self.deciding[1]})")
        lines += [
            f"piles of player {p}: {_piles_text(piles, names, self.pile_names)}" for p, piles in enumerate(self.piles)
        ]
        return "\n".join(lines)


def parse_card(card: dict, fields: tuple[str, ...], groups: tuple[str, ...]) -> Card:
    """A card of the deck: its values in the categories `fields`, its groups' pile indices."""
    values = card["fields"]
    try:
        continents = tuple(groups.index(c) for c in values["continents"])
    except ValueError as exc:
        raise GeodeckError(f"card {card['id']}: {exc}; the deck's groups are {', '.join(groups)}") from exc
    joker = card["kind"] == "joker"
    name = (
        "joker " + "/".join(values["continents"])
        if joker
        else values.get("name_en") or values.get("name") or card["id"]
    )
    try:
        return Card(card["id"], name, joker, tuple(None if joker else values[f] for f in fields), continents)
    except KeyError as exc:
        raise GeodeckError(f"card {card['id']} has no value of the category {exc}; fix the deck's categories") from exc


class Game(EngineGame):
    """The cards, categories, groups and options of one Länder toppen game; `new_initial_state(rng)` shuffles
    and deals. The categories (field and direction, in the strip's order) and the groups (the piles of the
    majorities) are the deck's (`from_deck`), else the game's card layout's and the continents."""

    name = "laender-toppen"
    title = "Länder toppen"

    def __init__(
        self,
        cards: list[dict],
        players: int = 4,
        fast: bool = False,
        categories: Sequence[Sequence[str]] | None = None,
        groups: Sequence[str] | None = None,
    ):
        self._layout(categories, groups, len(cards))
        self._deal_for(players, fast, len(cards))
        self.cards = tuple(parse_card(c, self.fields, self.groups) for c in cards)
        self.ids = tuple(card.id for card in self.cards)
        self.antarctica = next((i for i, c in enumerate(cards) if c["kind"] == "antarctica"), None)
        self._card_tables()
        self._strengths()
        self._powered: dict[int, tuple[float, ...]] = {}
        self.state_class = State

    def _layout(self, categories: Sequence[Sequence[str]] | None, groups: Sequence[str] | None, cards: int) -> None:
        """The strip (categories, slots and their names), the piles (groups, face down) and the action ranges."""
        self.categories = tuple((str(f), str(d)) for f, d in (categories or _layout_categories()))
        self.fields = tuple(f for f, _ in self.categories)
        self.groups = tuple(groups or CONTINENTS)
        self.slots = 2 * len(self.fields)  # slot = 2 * category + (0 above, 1 below), also the reveal order
        self.face_down = len(self.groups)  # pile actions: a group's pile, then the face-down pile
        self.place = self.face_down + 1  # placement actions: place + card * slots + slot
        self.all_free = (1 << self.slots) - 1  # a strip's free slots as a bit mask
        self.slots_of, self.pick_free = masks(self.slots)
        self.slot_names = tuple(f"{f} {'below' if s % 2 else 'above'}" for f in self.fields for s in range(2))
        self.pile_names = (*self.groups, "face down")
        self.player_counts = tuple(p for p in TABLE if deal(p, cards, self.slots)[1] > 0)

    def _deal_for(self, players: int, fast: bool, cards: int) -> None:
        """The players, the variant, the hand and the rounds (refused when the deck deals not even one round)."""
        core.check_players(self.name, players, tuple(TABLE))
        self.players, self.fast = players, fast
        self.hand_size, self.rounds = deal(players, cards, self.slots)
        if not self.rounds:
            raise GeodeckError(
                f"a {players}-player game needs at least {players * (self.slots // 2)} cards (a card per "
                f"category each); the deck has {cards}"
            )

    def _card_tables(self) -> None:
        """Per card: its allowed slots, placement and pile actions, whether it has dashes or is a joker."""
        slots, place = self.slots, self.place
        self.allowed = tuple(
            tuple(s for s in range(slots) if card.joker or card.values[s // 2] is not None) for card in self.cards
        )
        self.place_rows = tuple(
            tuple(range(place + i * slots, place + (i + 1) * slots)) for i in range(len(self.cards))
        )
        self.allowed_masks = tuple(sum(1 << s for s in slots) for slots in self.allowed)
        self.duals = tuple(i for i, c in enumerate(self.cards) if not c.joker and len(c.continents) > 1)
        self.restricted = frozenset(i for i, slots in enumerate(self.allowed) if len(slots) < self.slots)  # dashes
        self.jokers = tuple(card.joker for card in self.cards)
        self.pile_rows = tuple(  # card -> (its group piles, those and the face-down pile): pile actions
            (card.continents, (*card.continents, self.face_down)) for card in self.cards
        )

    def _strengths(self) -> None:
        """Each card's rank per slot (the value, negated where the lowest wins) and its strength there (the
        share of the deck it beats: public, from the card faces)."""
        slots = self.slots
        lower = tuple(d != HIGHER for _, d in self.categories)  # the lowest value wins above
        self.ranks = tuple(  # slot -> card -> its rank there (`_rank`)
            tuple(_rank(card, s, lower[s // 2]) for card in self.cards) for s in range(slots)
        )
        by_category = [core.percentiles([c.values[k] for c in self.cards]) for k in range(len(self.fields))]
        self.strength = tuple(  # the share of the deck a card beats in a slot (public: the card faces); jokers -1
            tuple(_beats(by_category[s // 2][i], s % 2 != lower[s // 2], card.joker) for s in range(slots))
            for i, card in enumerate(self.cards)
        )

    def powered(self, power: int) -> tuple[float, ...]:
        """Each placement's strength^power (indexed by action - place; jokers 0): how the bots value a slot,
        worked out once per game and power."""
        if power not in self._powered:
            self._powered[power] = tuple(max(share, 0.0) ** power for row in self.strength for share in row)
        return self._powered[power]

    @classmethod
    def from_deck(cls, deck: dict, **options) -> "Game":
        """The game of a deck's cards, with the deck's categories and groups where it declares them; else the deck
        spec's categories its cards carry (a version published before a category block was added plays without
        it; a card lacking a category another card has is an error)."""
        declared = [(c["field"], c.get("direction", HIGHER)) for c in deck.get("categories") or ()]
        carried = [c for c in _layout_categories() if any(c[0] in card["fields"] for card in deck["cards"])]
        return cls(deck["cards"], categories=declared or carried or None, groups=deck.get("groups"), **options)

    def pile_label(self, pile: int) -> str:
        return "the face-down pile" if pile == self.face_down else f"the {self.groups[pile]} pile"

    def options(self) -> dict:
        return {"players": self.players, "fast": self.fast}

    def deal_size(self) -> int:
        return len(self.cards)

    def num_distinct_actions(self) -> int:
        return self.place + len(self.cards) * self.slots

    def max_game_length(self) -> int:
        """Every card dealt is placed once and put on a pile at most once."""
        return 2 * self.players * self.hand_size * self.rounds


def _layout_categories() -> list[tuple[str, str]]:
    """The game's own categories (field, direction), declared once in its card layout."""
    from pipeline.games.laender_toppen.categories import declared

    return declared()


def _rank(card: Card, slot: int, lower: bool) -> float:
    """The card's value in the slot, negated where the lowest wins (below, or above in a category whose
    lowest value wins above): the highest rank wins; NaN where it has none (a joker or a dash: never
    compared, as jokers go back and dashes are never placed)."""
    category, below = divmod(slot, 2)
    value = None if card.joker else card.values[category]
    return math.nan if value is None else -value if bool(below) != lower else value


def _beats(percentile: float | None, lowest: bool, joker: bool) -> float:
    """The share of the deck a card of this `percentile` beats where the `lowest` value wins (or the highest)."""
    if joker or percentile is None:
        return -1.0
    return 1 - percentile if lowest else percentile


class State(EngineState[Game]):
    """A game in progress. Placing: `current_player()` places one hand card per action. Revealing: the
    player deciding where one card goes (joker owner, trick winner) acts with a pile action."""

    def __init__(self, game: Game, order: list[int]):
        super().__init__(game, order)
        self._slots, self._place, self._face_down = game.slots, game.place, game.face_down  # the game's, at hand
        self._slots_of, self._all_free = game.slots_of, game.all_free
        self.reserve = order[::-1]  # dealt from the end
        self.round = 0
        self.hands: list[list[int]] = [[] for _ in range(self.players)]
        self.strips: list[list[int | None]] = [[None] * game.slots for _ in range(self.players)]
        self._grid = False  # whether the kept placements are every hand card in every free slot (no dashes)
        self.free: list[int] = []  # each strip's empty slots as a bit mask while placing (all: each deal)
        self.piles: list[list[list[int]]] = [[[] for _ in range(game.face_down + 1)] for _ in range(self.players)]
        self.removed: list[int] = []
        self.jokers_back: list[list[int]] = [[] for _ in range(self.players)]  # the fast game: not won, not scored
        self.continent_choices: dict[int, int] = {}  # Russia/Turkey: the owner's choice at scoring, if given
        self.pending: list[tuple[int, int, str, Split | None]] = []  # (player, card, rule, split), first first
        self.tricks: list[Trick] = []
        self.placing: int | None = 0
        self.slot = 0
        self._piles: tuple[tuple[tuple[int, ...], ...], ...] | None = None
        self._deal()

    # -- OpenSpiel-style API -------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.terminal:
            return TERMINAL
        if self.pending:
            return self.pending[0][0]
        assert self.placing is not None
        return self.placing

    def _legal_actions(self) -> list[int]:  # once per position: EngineState.legal_actions keeps it
        if self.pending:
            player, card, rule, split = self.pending[0]
            return self._pile_actions(player, card, rule, split)
        if self.terminal:
            return []
        assert self.placing is not None
        return self._place_actions(self.placing)

    def apply_action(self, action: object) -> None:
        """`EngineState.apply_action`, which a legal plain int passes with one check (`_holds`); anything else goes
        through its checks (and their messages)."""
        legal = self._legal if self._legal is not None else self.legal_actions()
        if type(action) is int and _holds(legal, action):
            self._apply(action)  # it sets the next position's legal actions, if known
            self._history.append(action)
        else:
            super().apply_action(action)

    def _apply(self, action: int) -> None:
        """Put the pending card on the pile `action`, or place a hand card; after a placement from a grid
        (`_place_actions`) the next placements are that grid less the card's row and the slot's column."""
        before, self._legal = self._legal, None  # the legal actions before (None after EngineState's check)
        pending = self.pending
        if pending:
            player, card, _rule, split = pending.pop(0)  # a few at most
            pile = self.piles[player][action]
            pile.append(card)
            if self._piles is not None:  # the view changes in this pile only
                view, own = list(self._piles), list(self._piles[player])
                own[action] = tuple(pile)
                view[player] = tuple(own)
                self._piles = tuple(view)
            if split is not None:
                split.remaining -= 1
                if action == self._face_down:
                    split.face_down = True
                else:
                    split.continent = True
            if not pending:
                self._advance()
            return
        placing = self.placing
        assert placing is not None
        slots, place = self._slots, self._place
        card, slot = (action - place) // slots, (action - place) % slots
        hand, free = self.hands[placing], self.free[placing]
        row = hand.index(card)
        del hand[row]
        self.strips[placing][slot] = card
        self.free[placing] = free ^ (1 << slot)
        if not hand:
            self.placing = placing + 1 if placing + 1 < self.players else None
            self._advance()
        elif before is not None and self._grid:  # every card could go in every free slot, and can again
            self._legal = _without(before, row, slot, free, self._slots_of)

    def action_to_string(self, player: int, action: int) -> str:
        game = self.game
        names = [c.name for c in game.cards]
        if 0 <= action < game.place:
            card = self.pending[0][1] if self.pending else None
            pile = game.pile_label(action)
            return f"put {names[card]} on {pile}" if card is not None else f"put on {pile}"
        card, slot = divmod(action - game.place, game.slots)
        if not 0 <= card < len(names):
            return f"unknown action {action}"
        return f"play {names[card]} in {game.slot_names[slot]}"

    def clone(self) -> "State":
        """A copy of the fields (O(state)); a trick being split keeps one `Split` for its pending cards."""
        new = self._blank()
        new.reserve, new.round, new._grid, new.free = self.reserve.copy(), self.round, self._grid, self.free.copy()
        new.hands, new.strips = [h.copy() for h in self.hands], [s.copy() for s in self.strips]
        new.piles = [[pile.copy() for pile in own] for own in self.piles]
        new.removed, new.jokers_back = self.removed.copy(), [j.copy() for j in self.jokers_back]
        new.continent_choices, new.tricks = self.continent_choices.copy(), self.tricks.copy()
        splits = {
            id(split): Split(split.remaining, split.face_down, split.continent) for *_, split in self.pending if split
        }
        new.pending = [(p, card, rule, split and splits[id(split)]) for p, card, rule, split in self.pending]
        new.placing, new.slot, new._piles = self.placing, self.slot, self._piles
        return new

    def seen_cards(self, player: int) -> set[int]:
        """The player's hands so far and every card turned over (tricks, jokers, piles, cards being decided)."""
        size, players = self.game.hand_size, self.players
        seen = {c for r in range(self.round + 1) for c in self.deal[(r * players + player) * size :][:size]}
        seen.update(card for trick in self.tricks for _, card in trick.played)
        seen.update(c for own in self.piles for pile in own for c in pile)
        seen.update(c for jokers in self.jokers_back for c in jokers)
        seen.update(card for _, card, _, _ in self.pending)
        return seen

    def relabel(self, action: int, cards: Sequence[int]) -> int:
        """A placement with its card renamed (pile actions name no card)."""
        place, slots = self._place, self._slots
        if action < place:
            return action
        card, slot = divmod(action - place, slots)
        return place + cards[card] * slots + slot

    def observation(self, player: int) -> Observation:
        deciding = split = None
        if self.pending and self.pending[0][0] == player:
            _, card, rule, split_state = self.pending[0]
            deciding = (card, rule)
            split = Split(split_state.remaining, split_state.face_down, split_state.continent) if split_state else None
        return Observation(
            **self.observed_by(player),
            round=self.round,
            slot=self.slot,
            hand=tuple(self.hands[player]),
            strip=tuple(self.strips[player]),
            deciding=deciding,
            split=split,
            tricks=tuple(self.tricks),
            piles=self._pile_view(),
            cards=self.game.cards,
            strength=self.game.strength,
            slot_names=self.game.slot_names,
            pile_names=self.game.pile_names,
        )

    def __str__(self) -> str:
        game = self.game
        names = [c.name for c in game.cards]
        slot = game.slot_names[self.slot] if self.slot < game.slots else "-"
        lines = [
            f"Länder toppen, {self.players} players, round {self.round + 1} of {game.rounds}"
            + (", fast game" if game.fast else "")
            + (", over" if self.terminal else f", next slot {slot}, player {self.current_player()}")
        ]
        for p in range(self.players):
            lines.append(f"player {p}: hand {', '.join(names[c] for c in self.hands[p]) or '-'}")
            lines.append(f"  strip: {_strip_text(self.strips[p], names, game.slot_names)}")
            lines.append(f"  piles: {_piles_text(self.piles[p], names, game.pile_names)}")
        if self.pending:
            lines.append(
                "to put on piles: " + ", ".join(f"{names[c]} (player {p}, {r})" for p, c, r, _ in self.pending)
            )
        lines.append(f"scores: {self.scores()}")
        return "\n".join(lines)

    def scores(self) -> list[int]:
        """Points so far: continent majorities (ties split, rounded up) + 1 per face-down card, Russia and
        Turkey counted where best for their owners (`_scoring`); the fast game: cards won."""
        return every_points(self._scoring()[0])

    def choose_continent(self, card: int, continent: int) -> None:
        """The owner's own choice at scoring for Russia or Turkey lying on a continent pile (a record's);
        without one, `scored_piles` takes the continent best for the owner."""
        country = self.game.cards[card] if 0 <= card < len(self.game.cards) else None
        owner = self.owner(card)
        laid = owner is not None and any(card in self.piles[owner][pile] for pile in range(self.game.face_down))
        if country is None or country.joker or len(country.continents) < 2 or not laid:
            raise IllegalAction(
                f"Länder toppen: card {card} is not a country of several continents on a continent pile (rule: "
                '"Russia and Turkey ... may be assigned to either Asia or Europe during scoring")'
            )
        if continent not in country.continents:
            names = " or ".join(self.game.groups[c] for c in country.continents)
            raise IllegalAction(f"Länder toppen: {country.name} may be assigned to {names}, not {continent}")
        self.continent_choices[card] = continent

    def extras(self) -> dict:
        return {"continent_choices": self.continent_choices} if self.continent_choices else {}

    def restore(self, data: dict) -> None:
        for card, continent in data.get("continent_choices", {}).items():
            self.choose_continent(int(card), continent)

    def scored_piles(self) -> list[list[list[int]]]:
        """The piles as scored (`_scoring`): a card that counts for another continent moved to its end."""
        piles = [[list(pile) for pile in own] for own in self.piles]
        for player, pile, card, continent in self._scoring()[1]:
            piles[player][pile].remove(card)
            piles[player][continent].append(card)
        return piles

    def _scoring(self) -> tuple[list[list[int]], list[tuple[int, int, int, int]]]:
        """The pile sizes as scored (player -> pile -> cards) and the moves (player, pile it lies on, card,
        continent it counts for) that make them. Rulebook: Russia and Turkey "may be assigned to either Asia
        or Europe during scoring": a country card of several continents on a continent pile counts for the
        continent its owner chose (`choose_continent`), else the one best for its owner (owners in seat
        order, each seeing the earlier owners' choices; a tie keeps the pile it lies on)."""
        choices = self.continent_choices
        counts = [list(map(len, own)) for own in self.piles]
        moves = []
        for player, laid in itertools.groupby(self._laid_duals(), key=itemgetter(0)):
            unchosen = []  # (pile, place in it, card) of the cards without an owner's choice
            for _, pile, place, card in laid:
                if card not in choices:
                    unchosen.append((pile, place, card))
                elif choices[card] != pile:
                    counts[player][pile] -= 1
                    counts[player][choices[card]] += 1
                    moves.append((player, pile, card, choices[card]))
            if unchosen:
                moves += self._best_continents(player, counts, unchosen)
        return counts, moves

    def _laid_duals(self) -> list[tuple[int, int, int, int]]:
        """(player, pile, place in it, card) of each country card of several continents on a continent pile,
        in seat, pile and pile order."""
        cards = self.game.cards
        return sorted(
            (player, pile, own[pile].index(card), card)
            for card in self.game.duals
            for player, own in enumerate(self.piles)
            for pile in cards[card].continents
            if card in own[pile]
        )

    def _best_continents(
        self, player: int, counts: list[list[int]], laid: list[tuple[int, int, int]]
    ) -> list[tuple[int, int, int, int]]:
        """Count the laid cards (pile, place, card) for the continents that give `player` the most points
        (the first such choice in `itertools.product` order; none better: as laid); the moves made."""
        cards, as_laid = self.game.cards, counts[player]
        best, most, moves = as_laid, every_points(counts)[player], []
        for choice in itertools.product(*(cards[card].continents for _, _, card in laid)):
            trial = list(as_laid)
            for (pile, _, _), continent in zip(laid, choice):
                trial[pile] -= 1
                trial[continent] += 1
            counts[player] = trial
            points = every_points(counts)[player]
            if points > most:
                best, most = trial, points
                moves = [(player, pile, card, c) for (pile, _, card), c in zip(laid, choice) if c != pile]
        counts[player] = best
        return moves

    def winners(self, scores: list[int] | None = None) -> list[int]:
        """The players with the most points (`scores`, else `scores()`); a tie goes to the Antarctica
        card's owner if tied, else shared."""
        scores = self.scores() if scores is None else scores
        best = [p for p, s in enumerate(scores) if s == max(scores)]
        owner = self.owner(self.game.antarctica)
        return [owner] if len(best) > 1 and owner in best else best

    def returns(self) -> list[float]:
        if not self.terminal:
            return [0.0] * self.players
        scores = self.scores()
        return core.win_shares(scores, self.winners(scores))

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
            "pending": [card for _, card, _, _ in self.pending],
            "piles": [c for piles in self.piles for pile in piles for c in pile],
            "removed": list(self.removed),
            "jokers back": [c for jokers in self.jokers_back for c in jokers],
        }

    def _pile_view(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """The piles as an immutable view, rebuilt only after a move that may add to them."""
        if self._piles is None:
            self._piles = tuple(tuple(tuple(pile) for pile in piles) for piles in self.piles)
        return self._piles

    def _why_illegal(self, action: int) -> core.Refusal:
        game = self.game
        if self.pending:
            player, card, rule, _ = self.pending[0]
            if not 0 <= action < game.place:
                return self._refusal(
                    N_(
                        "{player} must first put {card} on a pile, not {action} (rule: a won trick is split onto "
                        "the piles before the next slot is revealed)"
                    ),
                    player=player,
                    card=card,
                    action=action,
                )
            why = _pile_rule(game, card, action, rule)
            why = why._replace(words=self._words(why.fields))
            return self._refusal(
                N_("{player} may not put {card} on {pile} ({rule})"), player=player, card=card, pile=action, rule=why
            )
        player = self.current_player()
        if 0 <= action < game.place:
            return self._refusal(N_("{player} is placing hand cards; there is no card to put on a pile"), player=player)
        card, slot = divmod(action - game.place, game.slots)
        if not 0 <= card < len(game.cards):
            return core.Refusal(
                N_("{action} is no action of this game (0-{last})"),
                {"action": action, "last": self.game.num_distinct_actions() - 1},
                {},
            )
        if card not in self.hands[player]:
            return self._refusal(N_("{card} is not in {player}'s hand"), card=card, player=player)
        held = self.strips[player][slot]
        if held is not None:
            return self._refusal(
                N_(
                    "{player}'s {slot} already holds {held} (rule: one card per category above and one below the strip)"
                ),
                player=player,
                slot=slot,
                held=held,
            )
        if slot not in self.game.allowed[card]:
            return self._refusal(
                N_(
                    "{card} may not be placed in {slot} (rule: the card has a dash there; "
                    '"the card may also not be placed in these three categories")'
                ),
                card=card,
                slot=slot,
            )
        return self._refusal(
            N_(
                "placing {card} in {slot} would leave no allowed slot for a card with dashes (rule: players place "
                "all their hand cards, and Antarctica may not be placed in inhabitants, life expectancy or GDP)"
            ),
            card=card,
            slot=slot,
        )

    def _refusal(self, message: str, **fields: Any) -> core.Refusal:
        return core.Refusal(message, fields, self._words(fields))

    def _words(self, fields: dict[str, Any]) -> dict[str, str]:
        """The English words of a refusal's fields: the seat, cards, slots, piles and actions it names."""
        names = [c.name for c in self.game.cards]
        words: dict[str, Callable[[Any], str]] = {
            "player": lambda v: f"player {v}",
            "card": lambda v: names[v],
            "held": lambda v: names[v],
            "slot": lambda v: self.game.slot_names[v],
            "pile": self.game.pile_label,
            "action": lambda v: self.action_to_string(self.current_player(), v),
            "continents": lambda v: ", ".join(self.game.groups[c] for c in v),
            "rule": lambda v: v.text(),
        }
        return {key: words[key](value) for key, value in fields.items() if key in words}

    def _deal(self) -> None:
        reserve, size = self.reserve, self.game.hand_size
        for hand in self.hands:  # dealt from the end of the reserve
            hand.extend(sorted(reserve[-size:]))
            del reserve[-size:]
        self.free = [self._all_free] * self.players

    def _place_actions(self, player: int) -> list[int]:
        """Each hand card into each free slot where it has a value, unless that leaves a card with dashes
        (Antarctica) no slot; ascending, as hands are sorted. Without such a card: the grid of every hand
        card in every free slot (`_grid`), which `_apply` keeps for the next placement."""
        hand, free, game = self.hands[player], self.free[player], self.game
        self._grid = game.restricted.isdisjoint(hand)
        if not self._grid:
            return self._place_restricted(hand, free)
        rows = game.place_rows
        actions: list[int] = []
        if free == self._all_free:
            for card in hand:
                actions += rows[card]
            return actions
        pick = game.pick_free[free]
        for card in hand:
            actions += pick(rows[card])  # a tuple of the card's actions into the free slots
        return actions

    def _place_restricted(self, hand: list[int], free: int) -> list[int]:
        """`_place_actions` for a hand with cards with dashes: only where the others still fit."""
        game = self.game
        allowed, rows, pick, slots_of = game.allowed_masks, game.place_rows, game.pick_free, game.slots_of
        restricted = [c for c in hand if c in game.restricted]
        unrestricted = _fitting(restricted, free, free, allowed, slots_of)  # where a card without dashes may go
        actions: list[int] = []
        for card in hand:
            if card in game.restricted:
                others = [c for c in restricted if c != card]
                actions += pick[_fitting(others, free & allowed[card], free, allowed, slots_of)](rows[card])
            else:
                actions += pick[unrestricted](rows[card])
        return actions

    def _pile_actions(self, player: int, card: int, rule: str, split: Split | None) -> list[int]:
        continents, any_pile = self.game.pile_rows[card]
        if rule == JOKER:
            return list(continents)
        if split is not None and split.remaining == 1:
            if not split.face_down:
                return [self._face_down]
            if not split.continent:
                return list(continents)
        return list(any_pile)

    def _advance(self) -> None:
        """Reveal slots until a decision is needed; end the round after the last slot, the game after the last round."""
        while not self.pending and self.placing is None:
            if self.slot == self._slots:
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
        """Turn the slot's cards over: jokers back to their owners (in seat order), then the country cards
        to the highest (above) or lowest (below) value, or each tied player their own."""
        jokers, rank = self.game.jokers, self.game.ranks[slot]
        countries: list[tuple[int, int]] = []  # (player, card)
        cards: list[int] = []
        winners: list[int] = []
        best = -math.inf
        for p, strip in enumerate(self.strips):
            card = strip[slot]
            if card is None:
                continue
            strip[slot] = None
            if jokers[card]:
                self._take(p, [card], JOKER)
                continue
            countries.append((p, card))
            cards.append(card)
            value = rank[card]
            if value > best:
                best, winners = value, [p]
            elif value == best:
                winners.append(p)
        if not countries:
            return
        self.tricks.append(Trick(self.round, slot, tuple(countries), tuple(winners)))
        if len(winners) > 1:
            for p, card in countries:
                if p in winners:
                    self._take(p, [card], FREE)
                else:
                    self.removed.append(card)
        elif len(cards) > 1 and not self.game.fast:
            self._take(winners[0], cards, SPLIT, Split(len(cards)))
        else:
            self._take(winners[0], cards, FREE)

    def _take(self, player: int, cards: list[int], rule: str, split: Split | None = None) -> None:
        """`player` puts `cards` on piles: one decision each, or in the fast game straight away."""
        if not self.game.fast:
            self.pending.extend([(player, card, rule, split) for card in cards])
        elif rule == JOKER:  # taken back, never won: "the one with the most cards" won
            self.jokers_back[player].extend(cards)
        else:
            self.piles[player][self._face_down].extend(cards)
            self._piles = None


def _pile_rule(game: Game, index: int, pile: int, rule: str) -> core.Refusal:
    """Why the game's card `index` may not go on `pile` now: the rule, quoted (its English words are the
    state's to add)."""
    card = game.cards[index]
    if pile != game.face_down and pile not in card.continents:
        return core.Refusal(
            N_("rule: a face-up continent pile takes only cards of its continent; {card}: {continents}"),
            {"card": index, "continents": card.continents},
            {},
        )
    if rule == JOKER:
        why = N_("rule: the player takes his joker card back and puts it face up on one of its continents' piles")
    elif pile == game.face_down:
        why = N_("rule: at least one card of a trick will be placed on a corresponding face up continent pile")
    else:
        why = N_("rule: at least one card of a trick will be placed on the face down pile")
    return core.Refusal(why, {}, {})


def _strip_text(strip, names: list[str], slot_names: Sequence[str]) -> str:
    placed = [f"{slot_names[s]} {names[c]}" for s, c in enumerate(strip) if c is not None]
    return "; ".join(placed) or "-"


def _piles_text(piles, names: list[str], pile_names: Sequence[str]) -> str:
    shown = [f"{pile_names[p]} {len(cards)}" for p, cards in enumerate(piles) if cards]
    return ", ".join(shown) or "-"


def _holds(actions: list[int], action: int) -> bool:
    """Whether the sorted `actions` hold `action`: a binary search of the placements (up to 96)."""
    if len(actions) <= 8:
        return action in actions
    found = bisect_left(actions, action)
    return found < len(actions) and actions[found] == action


def _without(grid: list[int], row: int, slot: int, free: int, slots_of: Sequence[tuple[int, ...]]) -> list[int]:
    """The placements of a hand into its free slots (`free`, a bit mask), every card (a row) into every
    free slot, less the card of `row` and the slot `slot`: the grid of the next position (`slots_of`: a
    mask's slots)."""
    width = len(slots_of[free])
    actions = grid.copy()
    del actions[len(slots_of[free & ((1 << slot) - 1)]) :: width]  # the slot's column
    width -= 1
    del actions[row * width : (row + 1) * width]
    return actions


def _fitting(
    restricted: list[int], slots: int, free: int, allowed: Sequence[int], slots_of: Sequence[tuple[int, ...]]
) -> int:
    """Those of `slots` whose filling leaves the restricted cards a fit in the other free slots (bit masks)."""
    if not restricted:
        return slots
    if len(restricted) == 1:  # the usual case (Antarctica): keep its only free option free, if it has one
        options = free & allowed[restricted[0]]
        return slots if options & (options - 1) else slots & ~options
    return sum(1 << s for s in slots_of[slots] if _fits(restricted, free & ~(1 << s), allowed, slots_of))


def _fits(restricted: list[int], free: int, allowed: Sequence[int], slots_of: Sequence[tuple[int, ...]]) -> bool:
    """Whether the restricted cards (few, usually 0 or 1) can still each get a distinct allowed free slot
    (`free` and `allowed` slot bit masks)."""
    if not restricted:
        return True
    first, rest = restricted[0], restricted[1:]
    options = free & allowed[first]
    if not rest:
        return options != 0
    return any(_fits(rest, free & ~(1 << s), allowed, slots_of) for s in slots_of[options])


def pile_counts(piles: Sequence[Sequence[Sequence[int]]]) -> list[list[int]]:
    """The pile sizes: player -> pile -> how many cards."""
    return [[len(pile) for pile in own] for own in piles]


def every_points(counts: Sequence[Sequence[int]]) -> list[int]:
    """Each player's points if the game ended with piles of these sizes (player -> pile -> cards):
    group majorities (ties split, rounded up) + face-down cards (the last pile)."""
    points = [own[-1] for own in counts]
    for column in itertools.islice(zip(*counts), len(counts[0]) - 1):  # the group piles
        most = max(column)
        if most:
            share = -(-most // column.count(most))  # rounded up
            for player, count in enumerate(column):
                if count == most:
                    points[player] += share
    return points


def _largest_pile(observation: Observation, rng: random.Random) -> int:
    """Onto the own largest matching continent pile; face down only when the rules force it."""
    piles = observation.piles[observation.player]
    face_down = len(piles) - 1
    continents = [a for a in observation.legal_actions if a != face_down]
    return max(continents, key=lambda a: len(piles[a])) if continents else face_down


def _best_points(observation: Observation, rng: random.Random) -> int:
    """The pile that raises the own points most now (majorities in view); a tie: a continent pile. Only the
    pile's own column changes, so each pile's gain is its majority share after less before (`_share`)."""
    piles, player = observation.piles, observation.player
    face_down = len(piles[player]) - 1
    best, most = -1, (-1, False)
    for action in observation.legal_actions:
        if action == face_down:
            gain = (1, False)
        else:
            column = [len(own[action]) for own in piles]
            before = _share(column, player)
            column[player] += 1
            gain = (_share(column, player) - before, True)
        if gain > most:
            best, most = action, gain
    return best


def _share(column: list[int], player: int) -> int:
    """The points `player` gets from one continent whose piles have these sizes (player -> cards)."""
    most = max(column)
    return -(-most // column.count(most)) if most and column[player] == most else 0


def _random_pile(observation: Observation, rng: random.Random) -> int:
    return observation.legal_actions[rng.randrange(len(observation.legal_actions))]


def _most_regret(actions: Sequence[int], values: Sequence[float], place: int, slots: int) -> int:
    """The best placement of the card that loses most if it cannot go to its best slot (its best value
    less its second best, or 0 when it has one slot left); a tie: the card with the higher best value,
    then the lower action. `actions` are sorted, so each card's placements are adjacent; `values[a - place]`
    is a placement's value (`place`, `slots`: the game's). One pass, no sort: the expert's choice at every
    placement."""
    chosen, top, spread = -1, -1.0, -1.0
    i, n = 0, len(actions)
    while i < n:
        row = (actions[i] - place) // slots
        first, best, second = actions[i], values[actions[i] - place], 0.0
        i += 1
        seconds = False
        while i < n and (actions[i] - place) // slots == row:
            value = values[actions[i] - place]
            if value > best:
                first, best, second = actions[i], value, best
            elif not seconds or value > second:
                second = value
            seconds = True
            i += 1
        if best - second > spread or (best - second == spread and best > top):
            chosen, top, spread = first, best, best - second
    return chosen


def _placer(noise: float, regret: bool, piles: core.Policy) -> core.Bot:
    """A bot that places each card where it beats the largest share of the deck, misjudging each share by
    Gaussian `noise`; with `regret` (and no noise) it first places the card that loses most if it cannot go
    to its best slot (`_most_regret`), valuing a slot by the chance to beat every other player's card
    (strength^(players-1), worked out once per game); `piles` decides the piles."""

    def make(game: Game, rng: random.Random) -> core.Policy:
        values = game.powered(game.players - 1 if regret else 1)
        place, slots = game.place, game.slots

        def policy(observation: Observation, rng: random.Random) -> int:
            if observation.deciding:
                return piles(observation, rng)
            if regret:
                return _most_regret(observation.legal_actions, values, place, slots)
            value = {a: values[a - place] + (rng.gauss(0, noise) if noise else 0.0) for a in observation.legal_actions}
            return max(value, key=lambda a: value[a])

        return policy

    return make


BOTS: dict[str, core.Bot] = {  # the bot ladder, weakest first
    "random": core.random_bot,
    "novice": _placer(0.25, False, _random_pile),
    "skilled": _placer(0.05, False, _largest_pile),
    "expert": _placer(0.0, True, _best_points),
}  # and "master", the strongest, which players.py adds (imported with the package); no search bot (issue 35):
# with random or expert playouts it lost every game to experts (0 of 24, 0 of 12)
