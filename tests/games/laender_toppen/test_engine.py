"""Länder toppen! engine: the rulebook's table and worked examples, splitting, jokers, ties, Antarctica, scoring."""

import json
import random

import pytest
from fixtures.rulebook import laender_toppen_rulebook
from fixtures.tiny.games.decks import laender_toppen

from pipeline.errors import GeodeckError
from pipeline.framework import search
from pipeline.framework.core import TERMINAL, IllegalAction, playout, random_policy
from pipeline.games.laender_toppen import engine as lt

EUROPE, ASIA, AFRICA, NORTH_AMERICA, SOUTH_AMERICA, ANTARCTICA = (
    lt.CONTINENTS.index(c) for c in ("Europe", "Asia", "Africa", "North America", "South America", "Antarctica")
)
AREA_ABOVE, INHABITANTS_BELOW = 0, 7


def synthetic_deck(**options) -> dict:
    """The synthetic deck with the rulebook's six categories, which its table and worked examples are for (a
    category the deck spec adds: tests/games/laender_toppen/test_categories.py)."""
    return laender_toppen_rulebook(laender_toppen(**options))


def first(deck: dict, cards: int) -> dict:
    """`deck` with its first `cards` cards only (a smaller deck, its categories the ones its cards carry)."""
    return {**deck, "cards": deck["cards"][:cards]}


_GAME = lt.Game.from_deck(synthetic_deck(), players=4)  # the rulebook's six categories, seven continents
FACE_DOWN, PLACE, SLOTS = _GAME.face_down, _GAME.place, _GAME.slots
BOL, SWE, KAZ, MAR, GRC, BEL, JAM, KEN, RUS, TUR = range(10)


def valued_slots(game: lt.Game, card: int) -> set[int]:
    """The slots of the categories `card` has a value in (above and below)."""
    return {2 * i + side for i, value in enumerate(game.cards[card].values) if value is not None for side in (0, 1)}


def place(card: int, slot: int) -> int:
    return PLACE + card * SLOTS + slot


def example_state(**options) -> lt.State:
    """4 players A-D: A Bolivia + Greece, B Sweden + Belgium, C Kazakhstan + Jamaica, D Morocco + Kenya, six
    filler cards each; the examples go to area above and inhabitants below, the fillers to slots 1-6."""
    game = lt.Game.from_deck(synthetic_deck(examples=True), players=4, **options)
    examples = [(BOL, GRC), (SWE, BEL), (KAZ, JAM), (MAR, KEN)]
    fillers = list(range(10, 10 + 24))
    order = [c for p in range(4) for c in (*examples[p], *fillers[6 * p : 6 * p + 6])]
    state = lt.State(game, order + [c for c in range(len(game.cards)) if c not in order])
    for p, (area_card, people_card) in enumerate(examples):
        state.apply_action(place(area_card, AREA_ABOVE))
        state.apply_action(place(people_card, INHABITANTS_BELOW))
        for slot, card in enumerate(fillers[6 * p : 6 * p + 6], start=1):
            state.apply_action(place(card, slot))
    return state


def until_pending_slot(state: lt.State, slot: int) -> None:
    """Take the first legal decision until the trick of `slot` is being split."""
    while not (state.tricks and state.tricks[-1].slot == slot):
        state.apply_action(state.legal_actions()[0])


def test_table_of_cards_and_rounds():
    deck = synthetic_deck()
    for players, (cards, rounds) in {2: (10, 6), 3: (10, 4), 4: (8, 4), 5: (8, 3), 6: (7, 3)}.items():
        game = lt.Game.from_deck(deck, players=players)
        state = game.new_initial_state(random.Random(0))
        assert (game.hand_size, game.rounds) == (cards, rounds)
        assert [len(h) for h in state.hands] == [cards] * players
    with pytest.raises(GeodeckError, match="2-6 players"):
        lt.Game.from_deck(deck, players=7)
    smaller = lt.Game.from_deck(first(deck, 100), players=4)  # a smaller deck plays fewer rounds (a custom deck's)
    assert (smaller.hand_size, smaller.rounds, smaller.player_counts) == (8, 3, (2, 3, 4, 5, 6))


def test_the_hand_keeps_the_rulebook_s_share_of_free_slots():
    """The rulebook leaves 2, 2, 4, 4 and 5 of its 12 slots free at 2-6 players (hands 10, 10, 8, 8, 7); a strip
    of other slots keeps those shares, the free slots rounded to the nearest (issue 48, item 5)."""
    assert (
        [lt.hand(players, 12) for players in range(2, 7)] == [lt.TABLE[p][0] for p in range(2, 7)] == [10, 10, 8, 8, 7]
    )
    assert [lt.hand(players, 8) for players in range(2, 7)] == [7, 7, 5, 5, 5]  # 4 categories: 1, 1, 3, 3, 3 free
    assert [lt.hand(players, 6) for players in range(2, 7)] == [5, 5, 4, 4, 3]  # 3 categories: a trick of one card
    for slots in range(6, 17, 2):
        free = [slots - lt.hand(players, slots) for players in range(2, 7)]
        assert free == sorted(free) and free[0] >= 1  # more players leave more free, and some always stay free


def test_a_small_deck_is_dealt_out_evenly_for_one_round():
    """A deck too small for one round of the hands (8 planets) deals each player an equal share, the rest left
    aside, when that is at least a card per category; else that player count is refused."""
    deck = synthetic_deck()
    assert lt.deal(2, 8, 6) == (4, 1) and lt.deal(3, 8, 6) == (5, 0)  # 3 categories: 2 players, 4 cards each
    assert lt.deal(2, 9, 8) == (4, 1) and lt.deal(2, 7, 8) == (7, 0)  # 4 categories: 8 cards at least
    game = lt.Game.from_deck(first(deck, 31), players=4)  # 7 each, three cards aside
    state = game.new_initial_state(random.Random(0))
    assert (game.hand_size, game.rounds) == (7, 1) and [len(h) for h in state.hands] == [7] * 4
    assert len(state.reserve) == 3
    with pytest.raises(GeodeckError, match="needs at least 24 cards"):  # not a card per category each
        lt.Game.from_deck(first(deck, 23), players=4)


def test_area_example_kazakhstan_takes_all_four_cards():
    state = example_state()
    trick = state.tricks[0]
    assert (trick.slot, trick.winners) == (AREA_ABOVE, (2,))  # player C
    assert state.current_player() == 2 and [c for _, c, *_ in state.pending] == [BOL, SWE, KAZ, MAR]


def test_inhabitants_example_jamaica_wins_below():
    state = example_state()
    until_pending_slot(state, INHABITANTS_BELOW)
    assert state.tricks[-1].winners == (2,)
    assert [c for _, c, *_ in state.pending] == [GRC, BEL, JAM, KEN]


@pytest.mark.parametrize(
    "choices",
    [
        [EUROPE, EUROPE, FACE_DOWN, AFRICA],  # Belgium, Greece Europe; Jamaica face down; Kenya Africa
        [FACE_DOWN, FACE_DOWN, NORTH_AMERICA, FACE_DOWN],  # Jamaica North America, the rest face down
        [EUROPE, EUROPE, FACE_DOWN, FACE_DOWN],  # Belgium, Greece Europe; the other two face down
    ],
)
def test_rulebook_splits_of_the_inhabitants_trick_are_legal(choices):
    state = example_state()
    until_pending_slot(state, INHABITANTS_BELOW)
    before = [len(p) for p in state.piles[2]]
    for choice in choices:
        assert state.current_player() == 2 and choice in state.legal_actions()
        state.apply_action(choice)
    gained = [len(p) - b for p, b in zip(state.piles[2], before)]
    assert sum(gained) == 4 and gained[FACE_DOWN] == choices.count(FACE_DOWN)


def test_split_needs_one_face_down_and_one_continent_card():
    state = example_state()
    all_down, all_up = state.clone(), state.clone()
    for _ in range(3):
        all_down.apply_action(FACE_DOWN)
        all_up.apply_action(all_up.legal_actions()[0])  # the card's continent
    assert all_down.legal_actions() == [AFRICA]  # Morocco must go on a continent pile
    assert all_up.legal_actions() == [FACE_DOWN]
    with pytest.raises(IllegalAction, match="at least one card of a trick will be placed on the face down pile"):
        all_up.apply_action(AFRICA)
    assert state.legal_actions() == [SOUTH_AMERICA, FACE_DOWN]  # Bolivia: its continent or face down


def test_fast_variant_has_no_splitting():
    state = example_state(fast=True)
    assert not state.pending and state.round == 1 and state.current_player() == 0  # next round's placing
    assert state.scores() == [len(p[FACE_DOWN]) for p in state.piles]
    assert all(sum(len(pile) for pile in piles[:FACE_DOWN]) == 0 for piles in state.piles)
    assert sum(len(p[FACE_DOWN]) for p in state.piles) + len(state.removed) == 32


def test_fast_variant_jokers_go_back_but_are_not_won_cards():
    """Rulebook: the joker "is not part of the trick" and the player "takes his joker card back"; the fast game:
    "every player collects the cards he won on a face down pile and the one with the most cards ... wins"."""
    game = lt.Game.from_deck(synthetic_deck(), players=2, fast=True)
    joker = next(i for i, c in enumerate(game.cards) if c.joker)
    state = game.initial_state(list(range(len(game.cards))))
    state.hands[0][0] = joker
    for p in range(2):
        for slot, card in enumerate(list(state.hands[p])):
            state.apply_action(place(card, slot))
    assert state.jokers_back[0] == [joker] and all(joker not in p[FACE_DOWN] for p in state.piles)
    assert sum(state.scores()) == sum(len(t.played) for t in state.tricks) - len(state.removed)


def dealt(game: lt.Game, firsts: list[int]) -> lt.State:
    """A state whose player p holds firsts[p] and filler cards (no jokers, no Antarctica)."""
    fillers = [i for i, c in enumerate(game.cards) if not c.joker and i != game.antarctica and i not in firsts]
    hand = game.hand_size
    order = [c for p, first in enumerate(firsts) for c in [first, *fillers[p * (hand - 1) : (p + 1) * (hand - 1)]]]
    return lt.State(game, order + [c for c in range(len(game.cards)) if c not in order])


def test_tie_for_the_extreme_each_keeps_only_their_own_card():
    deck = synthetic_deck(examples=True)
    deck["cards"][SWE]["fields"]["area_km2"] = deck["cards"][MAR]["fields"]["area_km2"] = 3_000_000
    game = lt.Game.from_deck(deck, players=4)
    state = dealt(game, [SWE, MAR, BOL, KEN])
    for p, first in enumerate([SWE, MAR, BOL, KEN]):
        state.apply_action(place(first, AREA_ABOVE))
        for slot, card in zip(range(1, SLOTS), list(state.hands[p])):
            state.apply_action(place(card, slot))
    trick = state.tricks[0]
    assert trick.winners == (0, 1)
    assert [(p, c) for p, c, *_ in state.pending] == [(0, SWE), (1, MAR)]
    assert sorted(state.removed) == [BOL, KEN]
    assert state.legal_actions() == [EUROPE, FACE_DOWN]  # each tied player places their card freely


def test_joker_goes_back_to_its_owner_onto_one_of_its_continents():
    game = lt.Game.from_deck(synthetic_deck(), players=2)
    joker = next(i for i, c in enumerate(game.cards) if c.joker and c.continents == (EUROPE, ANTARCTICA))
    state = lt.State(game, list(range(len(game.cards))))
    state.hands[0][0] = joker
    for p in range(2):
        for slot, card in enumerate(list(state.hands[p])):
            state.apply_action(place(card, slot))
    assert state.pending[0][:2] == (0, joker)
    assert state.legal_actions() == [EUROPE, ANTARCTICA]
    state.apply_action(ANTARCTICA)
    assert state.piles[0][ANTARCTICA] == [joker]
    assert all(joker not in [c for _, c in t.played] for t in state.tricks)
    assert state.legal_actions() == [*game.cards[state.pending[0][1]].continents, FACE_DOWN]  # alone


def test_russia_and_turkey_may_go_on_europe_or_asia():
    game = lt.Game.from_deck(synthetic_deck(examples=True), players=2)
    state = lt.State(game, list(range(len(game.cards))))
    assert state._pile_actions(0, RUS, lt.FREE, None) == [EUROPE, ASIA, FACE_DOWN]
    assert state._pile_actions(0, TUR, lt.JOKER, None) == [EUROPE, ASIA]


def test_antarctica_never_goes_where_it_has_no_value_and_keeps_a_slot():
    game = lt.Game.from_deck(synthetic_deck(), players=2)
    ata = game.antarctica
    assert ata is not None
    state = lt.State(game, list(range(len(game.cards))))
    state.hands[0][0] = ata
    slots = {(a - PLACE) % SLOTS for a in state.legal_actions() if (a - PLACE) // SLOTS == ata}
    assert slots == valued_slots(game, ata) and 0 in slots  # area...; not inhabitants, life expectancy, GDP
    assert len(slots) < game.slots
    others = [c for c in state.hands[0] if c != ata]
    for slot, card in zip(sorted(slots)[1:], others):  # fill all but one of the slots Antarctica may use
        state.apply_action(place(card, slot))
    legal = state.legal_actions()
    assert place(others[len(slots) - 1], 0) not in legal  # slot 0 is Antarctica's last one
    assert place(ata, 0) in legal


def test_scoring_continent_majorities_and_face_down_cards():
    game = lt.Game.from_deck(synthetic_deck(), players=5)
    state = game.new_initial_state(random.Random(0))
    state.piles = [[[] for _ in range(8)] for _ in range(5)]
    europe = {0: 12, 1: 11, 2: 5}  # the rulebook: A 12, B 11, C 5 Europe cards -> only A scores 12
    asia = {0: 11, 1: 11}  # A and B 11 Asia cards -> 6 each (5.5 rounded up)
    africa = {2: 11, 3: 11, 4: 11}  # C, D, E 11 Africa cards -> 4 each (3.67 rounded up)
    single = [i for i, c in enumerate(game.cards) if len(c.continents) == 1]  # not Russia or Turkey
    for pile, counts in ((EUROPE, europe), (ASIA, asia), (AFRICA, africa)):
        for p, n in counts.items():
            state.piles[p][pile] = single[:n]
    state.piles[4][FACE_DOWN] = single[:3]
    assert state.scores() == [12 + 6, 6, 4, 4, 4 + 3]


def test_russia_and_turkey_count_at_scoring_for_the_continent_best_for_their_owner():
    """Rulebook: "Both countries belong to Asia and to Europe. Therefore these may be assigned to either Asia or
    Europe during scoring"."""
    game = lt.Game.from_deck(synthetic_deck(examples=True), players=2)
    state = game.new_initial_state(random.Random(0))
    europe = [i for i, c in enumerate(game.cards) if c.continents == (EUROPE,)]
    asia = [i for i, c in enumerate(game.cards) if c.continents == (ASIA,)]
    state.piles = [[[] for _ in range(8)] for _ in range(2)]
    state.piles[0][EUROPE] = [RUS, TUR, *europe[:3]]  # 5 Europe cards, no Asia
    state.piles[1][EUROPE], state.piles[1][ASIA] = europe[3:7], asia[:1]  # 4 Europe, 1 Asia
    # as laid: player 0 has Europe 5 > 4 -> 5; moving both to Asia: Asia 2 > 1 and Europe 3 < 4 -> 2;
    # moving one: Europe 4 = 4 -> 2 and Asia 1 = 1 -> 1: 3. Best is as laid.
    assert state.scores() == [5, 1]
    state.piles[1][EUROPE] = europe[3:9]  # now 6 Europe cards: player 0 loses Europe anyway
    # both to Asia: Asia 2 > 1 -> 2 (Europe 3 < 6), player 1 then Europe 6 only
    assert state.scores() == [2, 6] and state.piles[0][EUROPE][:2] == [RUS, TUR]  # the piles stay as laid
    assert sorted(state.scored_piles()[0][ASIA]) == sorted([RUS, TUR])
    state.choose_continent(RUS, EUROPE)  # the owner's own choice (a record's) overrides the best one
    assert state.scores() == [1, 7]  # Asia: Turkey alone ties player 1's one Asia card (1 each); Europe 4 < 6
    assert json.loads(state.serialize())["continent_choices"] == {str(RUS): EUROPE}  # restored by deserialize
    with pytest.raises(IllegalAction, match="may be assigned to Europe or Asia"):
        state.choose_continent(TUR, AFRICA)
    with pytest.raises(IllegalAction, match="during scoring"):
        state.choose_continent(europe[0], ASIA)


def test_tie_of_the_total_goes_to_the_antarctica_owner_else_shared():
    game = lt.Game.from_deck(synthetic_deck(), players=3)
    assert game.antarctica is not None
    state = game.new_initial_state(random.Random(0))
    state.piles = [[[] for _ in range(8)] for _ in range(3)]
    state.piles[0][FACE_DOWN] = [1, 2, 3]
    state.piles[1][FACE_DOWN] = [4, 5, 6]
    state.terminal = True
    assert state.winners() == [0, 1] and state.returns() == [0.5, 0.5, 0.0]
    state.piles[1][FACE_DOWN] = [4, 5, game.antarctica]
    assert state.winners() == [1] and state.returns() == [0.0, 1.0, 0.0]
    state.piles[1][FACE_DOWN] = [4, 5, 6]
    state.piles[2][FACE_DOWN] = [game.antarctica]  # the owner is not among the tied players
    assert state.winners() == [0, 1]


def test_random_games_keep_every_invariant():
    """1,000 random games, 2-6 players, every 7th the fast game, every 4th with one bot of the ladder."""
    deck = synthetic_deck()
    games = {(n, fast): lt.Game.from_deck(deck, players=n, fast=fast) for n in lt.TABLE for fast in (False, True)}
    ladder = [bot for name, bot in lt.BOTS.items() if name != search.NAME]  # the search bot: test_games_search
    for i in range(1000):
        players = 2 + i % 5
        game = games[players, i % 7 == 0]
        rng = random.Random(i)
        state = game.new_initial_state(rng)
        policies: list = [random_policy] * players
        if i % 4 == 0:
            policies[i % players] = ladder[i // 4 % len(ladder)](game, rng)
        while not state.is_terminal():
            player = state.current_player()
            observation = state.observation(player)
            assert observation.legal_actions, "a non-terminal state always has a legal action"
            state.apply_action(policies[player](observation, rng))
        zones = state.zones()
        assert sorted(c for cards in zones.values() for c in cards) == list(range(len(game.cards)))
        assert not zones["hands"] and not zones["strips"] and not zones["pending"]
        assert len(zones["reserve"]) == len(game.cards) - players * game.hand_size * game.rounds
        assert state.current_player() == TERMINAL and state.legal_actions() == []
        for piles in [*state.piles, *state.scored_piles()]:
            for pile, cards in enumerate(piles[:FACE_DOWN]):
                assert all(pile in game.cards[c].continents for c in cards)
        assert all(game.cards[c].joker for c in zones["jokers back"]) and (game.fast or not zones["jokers back"])
        for trick in state.tricks:
            for _, card in trick.played:
                if card == game.antarctica:
                    assert trick.slot in valued_slots(game, card)
        scores, returns = state.scores(), state.returns()
        assert min(scores) >= 0 and sum(returns) == pytest.approx(1)
        assert {p for p, r in enumerate(returns) if r > 0} == set(state.winners())
        assert all(scores[w] == max(scores) for w in state.winners())


def test_legal_actions_kept_from_move_to_move_equal_fresh_ones():
    """The engine derives a placement's legal actions from the last position's (while no card with dashes is in
    hand): they equal the ones computed afresh, and a list handed out earlier stays as it was."""
    deck = synthetic_deck()
    for players in lt.TABLE:
        game = lt.Game.from_deck(deck, players=players)
        for seed in range(10):
            rng = random.Random(seed)
            state = game.new_initial_state(rng)
            while not state.is_terminal():
                legal = state.legal_actions()
                if not state.pending:
                    assert legal == state._place_actions(state.current_player())
                kept = list(legal)
                state.apply_action(legal[rng.randrange(len(legal))])
                assert legal == kept


def test_playout_is_deterministic_with_the_seed():
    game = lt.Game.from_deck(synthetic_deck(), players=3)
    runs = []
    for _ in range(2):
        state = game.new_initial_state(random.Random(5))
        playout(state, [random_policy] * 3, random.Random(6))
        runs.append((state.scores(), [t.winners for t in state.tricks]))
    assert runs[0] == runs[1]


def test_slots_are_revealed_above_then_below_from_left_to_right():
    """Rulebook: "turn over the card of the first category simultaneously (from left to right, beginning with
    "Area") - and always first above, then below the folded paper strip"."""
    state = example_state()
    while state.round == 0:
        state.apply_action(state.legal_actions()[0])
    slots = [t.slot for t in state.tricks if t.round == 0]
    assert slots == list(range(8))  # area above, area below, peak above, ...; the examples leave slots 8-11 empty
    assert [state.game.slot_names[s] for s in slots[:3]] == ["area_km2 above", "area_km2 below", "highest_peak_m above"]


def test_an_owners_continent_choice_survives_serialisation():
    game = lt.Game.from_deck(synthetic_deck(examples=True), players=2)
    for seed in range(50):  # the first seeded game in which Russia or Turkey ends on a continent pile
        state = game.new_initial_state(random.Random(seed))
        playout(state, [random_policy] * 2, random.Random(seed))
        laid = [
            (c, p) for c in (RUS, TUR) for own in state.piles for p, pile in enumerate(own[:FACE_DOWN]) if c in pile
        ]
        if laid:
            break
    card, pile = laid[0]
    state.choose_continent(card, ASIA if pile == EUROPE else EUROPE)
    restored = game.deserialize_state(state.serialize())
    assert restored.continent_choices == state.continent_choices and restored.scores() == state.scores()


def _expert_by_the_rule(observation: lt.Observation) -> int:
    """The expert's choice read plainly (and computed slowly): a placement goes to the best slot, by
    strength^(players-1), of the card that loses most if denied it (ties: the higher best value, then the
    lower action); a card goes on the pile that gives the most points now (ties: a continent pile, then the
    first such action)."""
    legal, player = observation.legal_actions, observation.player
    if observation.deciding:

        def points(action: int) -> tuple[int, bool]:
            counts = lt.pile_counts(observation.piles)
            counts[player][action] += 1
            return lt.every_points(counts)[player], action != FACE_DOWN

        return max(legal, key=points)
    value = {a: max(observation.strength[(a - PLACE) // SLOTS][(a - PLACE) % SLOTS], 0.0) for a in legal}
    value = {a: v ** (observation.players - 1) for a, v in value.items()}
    by_card: dict[int, list[float]] = {}
    for a in legal:
        by_card.setdefault((a - PLACE) // SLOTS, []).append(value[a])
    best = {c: max(vs) for c, vs in by_card.items()}
    spread = {c: best[c] - (sorted(vs)[-2] if len(vs) > 1 else 0.0) for c, vs in by_card.items()}
    card = min(by_card, key=lambda c: (-spread[c], -best[c], c))
    return min((a for a in legal if (a - PLACE) // SLOTS == card), key=lambda a: (-value[a], a))


def test_the_expert_places_by_regret_and_piles_by_points_as_its_rule_says():
    """The expert's one-pass choices (`_most_regret`, `_best_points`) equal its rule read plainly, at every
    decision of expert games with 2-6 players (ties included: jokers are worth 0 everywhere)."""
    deck, decisions = synthetic_deck(), 0
    for players in lt.TABLE:
        game = lt.Game.from_deck(deck, players=players)
        for seed in range(3):
            rng = random.Random(seed)
            state, expert = game.new_initial_state(rng), lt.BOTS["expert"](game, rng)
            while not state.is_terminal():
                observation = state.observation(state.current_player())
                action = expert(observation, rng)
                assert action == _expert_by_the_rule(observation)
                state.apply_action(action)
                decisions += 1
    assert decisions > 1000
