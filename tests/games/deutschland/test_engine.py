"""Deutschland engine: the rulebook's Examples 1 and 2, the 2-player rule, W/M, ties, rounds, invariants."""

import random

import numpy
import pytest
from fixtures.tiny.games.decks import deutschland as synthetic_deck

from pipeline.errors import GeodeckError
from pipeline.framework.core import TERMINAL, IllegalAction, playout, policy_input, random_policy
from pipeline.games.grid import engine as de

EMDEN, WISMAR, COTTBUS, JENA, KOBLENZ = range(5)
RED, BLUE, GREEN, YELLOW = range(4)
G = {g: i for i, g in enumerate(de.GUESSES)}


def example_state() -> de.State:
    game = de.Game.from_deck(synthetic_deck(examples=True), players=4)
    return de.State(game, list(range(len(game.places))))  # the five example towns are laid out first


def action(state: de.State, guess: str, town: int) -> int:
    return G[guess] * len(state.places) + town


# Example 1, in turn order Red, Blue, Green, Yellow (Red starts)
EXAMPLE_1 = [
    (RED, "W", EMDEN),
    (BLUE, "N", WISMAR),
    (GREEN, "most", JENA),
    (YELLOW, "O", COTTBUS),
    (RED, "O", JENA),
    (BLUE, "most", COTTBUS),
    (GREEN, "fewest", WISMAR),
    (YELLOW, "M", JENA),
    (RED, "most", KOBLENZ),
    (BLUE, "W", EMDEN),
    (GREEN, "N", WISMAR),
    (YELLOW, "N", EMDEN),
]


def test_rulebook_examples_1_and_2():
    state = example_state()
    assert [p.name for p in state.place_cards()] == ["Emden", "Wismar", "Cottbus", "Jena", "Koblenz"]
    for player, guess, town in EXAMPLE_1:
        assert state.current_player() == player
        state.apply_action(action(state, guess, town))
    # Example 2: Red 6, Blue 5, Green 3, Yellow 6
    assert state.scores() == [6, 5, 3, 6]
    rnd = state.rounds[0]
    assert rnd.correct["N"] == {WISMAR} and rnd.correct["S"] == {KOBLENZ} and rnd.correct["W"] == {EMDEN}
    assert rnd.correct["O"] == {COTTBUS} and rnd.correct["most"] == {KOBLENZ} and rnd.correct["fewest"] == {WISMAR}
    assert rnd.correct["M"] == {JENA}
    points = {(p, de.GUESSES[g]): pts for p, g, _, _, pts in rnd.placements}
    assert points[YELLOW, "M"] == 3  # moved up after the two wrong guesses under Jena were removed
    assert points[BLUE, "W"] == 2 and points[GREEN, "fewest"] == 2 and points[GREEN, "N"] == 1
    assert state.current_player() == BLUE  # the next round starts with the player left of Red
    assert len(state.places) == 5 and WISMAR not in state.places


def test_new_guesses_go_below_and_rows_four_on_score_nothing():
    """Three players; each round lays out places that are N, W and fewest / M / S / O and most."""
    deck = synthetic_deck()
    laid_out = [(5, 0, 1000), (50, 10, 2000), (90, 20, 3000), (60, 30, 4000)] * 2
    for card, (ns, we, population) in zip(deck["cards"], laid_out):
        card["fields"] |= {"ns": ns, "we": we, "population": population}
    game = de.Game.from_deck(deck, players=3)
    state = game.initial_state(list(range(len(game.places))))
    first = [("N", 0), ("N", 0), ("S", 0), ("W", 0), ("most", 0), ("N", 1), ("S", 1), ("S", 1), ("W", 1)]
    for guess, place in first:  # players 0, 1, 2, 0, 1, ...; only the first five go under place 0
        state.apply_action(action(state, guess, place))
    # place 0: N right (row 1: 3), N right (row 2: 2), S wrong (removed), W right (row 3: 1), most wrong
    assert [(p, pts) for p, _, position, _, pts in state.rounds[0].placements if position == 0] == [
        (0, 3),
        (1, 2),
        (2, 0),
        (0, 1),
        (1, 0),
    ]
    assert state.scores() == [3 + 1, 2, 0]
    second = [("N", 0), ("W", 0), ("fewest", 0), ("W", 0), ("N", 1), ("N", 1), ("S", 1), ("S", 1), ("S", 1)]
    for guess, place in second:  # players 1, 2, 0, 1, ...: four right guesses under place 0, the 4th scores 0
        state.apply_action(action(state, guess, place))
    assert [(p, pts) for p, _, position, right, pts in state.rounds[1].placements if right] == [
        (1, 3),
        (2, 2),
        (0, 1),
        (1, 0),
    ]
    assert state.scores() == [4 + 1, 2 + 3 + 0, 2]


def test_ties_make_every_tied_place_correct_and_block_m():
    places = [de.Place("a", "a", 10, 40, 500), de.Place("b", "b", 10, 60, 500), de.Place("c", "c", 70, 50, 900)]
    correct = de.extremes(places)
    assert correct["N"] == {0, 1} and correct["fewest"] == {0, 1} and correct["S"] == {2}
    assert correct["M"] == set()  # a and b share the north, c is the south
    middle, d = de.Place("m", "m", 40, 50, 700), de.Place("d", "d", 70, 45, 900)  # d ties c at the top
    correct = de.extremes([middle, *places, d])
    assert correct["S"] == {3, 4} and correct["most"] == {3, 4} and correct["W"] == {1} and correct["O"] == {2}
    assert correct["N"] == {1, 2} and correct["fewest"] == {1, 2} and correct["M"] == {0}


def test_two_players_may_not_repeat_a_guess_but_w_and_m_differ():
    game = de.Game.from_deck(synthetic_deck(), players=2)
    state = game.new_initial_state(random.Random(0))
    state.apply_action(action(state, "O", 0))
    legal = {de.GUESSES[a // len(state.places)] for a in state.legal_actions()}
    assert "O" not in legal and legal == {"N", "S", "W", "M", "most", "fewest"}
    state.apply_action(action(state, "W", 1))
    state.apply_action(action(state, "M", 2))  # player 0 may play M although player 1 played W
    legal = {de.GUESSES[a // len(state.places)] for a in state.legal_actions()}
    assert legal == {"N", "S", "most", "fewest"}  # player 1's W card is used; O was player 0's


def test_w_and_m_are_one_card():
    state = example_state()
    state.apply_action(action(state, "M", JENA))
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    legal = {de.GUESSES[a // len(state.places)] for a in state.legal_actions()}
    assert "W" not in legal and "M" not in legal
    with pytest.raises(IllegalAction, match=r"already placed their W/M guess card .*M is the back of the W card"):
        state.apply_action(action(state, "W", EMDEN))


@pytest.mark.parametrize("players,rounds", [(2, 6), (3, 6), (4, 8)])
def test_rounds_places_and_starting_player(players, rounds):
    game = de.Game.from_deck(synthetic_deck(), players=players)
    state = game.new_initial_state(random.Random(1))
    assert len(state.places) == players + 1
    playout(state, [random_policy] * players, random.Random(2))
    assert len(state.rounds) == rounds
    assert [r.starter for r in state.rounds] == [r % players for r in range(rounds)]
    with pytest.raises(GeodeckError, match="2-4 players"):
        de.Game.from_deck(synthetic_deck(), players=5)


def test_random_and_expert_games_keep_every_invariant():
    """1,000 games, 2-4 players (3-4: every other one face down), random players and the oracle."""
    deck = synthetic_deck()
    games = {
        (n, hidden): de.Game.from_deck(deck, players=n, face_down=hidden)
        for n in (2, 3, 4)
        for hidden in (False, True)
        if n > 2 or not hidden
    }
    for i in range(1000):
        players = 2 + i % 3
        game = games[players, players > 2 and i % 2 == 1]
        rng = random.Random(i)
        state = game.new_initial_state(rng)
        policies = [de.oracle_expert if (i + p) % 2 else random_policy for p in range(players)]
        seen = set()
        while not state.is_terminal():
            assert state.legal_actions()
            seen.update(state.places)
            policy = policies[state.current_player()]
            state.apply_action(policy(policy_input(state, policy), rng))
        assert len(seen) == (players + 1) * game.rounds  # every round lays out new place cards
        assert state.current_player() == TERMINAL
        for rnd in state.rounds:
            by_player = [[g for p, g, *_ in rnd.placements if p == q] for q in range(players)]
            assert all(len(g) == 3 and len({de._card(x) for x in g}) == 3 for g in by_player)
            if players == 2:
                assert not set(by_player[0]) & set(by_player[1])
            assert all(0 <= pts <= 3 and (pts == 0 or right) for *_, right, pts in rnd.placements)
        totals = [sum(pts for rnd in state.rounds for p, *_, pts in rnd.placements if p == q) for q in range(players)]
        assert totals == state.scores() and min(totals) >= 0
        assert {p for p, r in enumerate(state.returns()) if r > 0} == set(state.winners())
        assert sum(state.returns()) == pytest.approx(1)


def test_the_bot_ladder_scores_in_order_and_only_the_oracle_knows_every_town():
    game = de.Game.from_deck(synthetic_deck(), players=4)
    ladder = ["expert", "skilled", "novice", "random"]
    points, oracle_right, expert_right = [0] * 4, [], []
    for i in range(60):
        rng = random.Random(i)
        state = game.new_initial_state(rng)
        playout(state, [de.BOTS[name](game, rng) for name in ladder], rng)
        points = [a + b for a, b in zip(points, state.scores())]
        expert_right += [right for rnd in state.rounds for p, _, _, right, _ in rnd.placements if p == 0]
        state = game.new_initial_state(random.Random(i))
        playout(state, [de.oracle_expert, random_policy, random_policy, random_policy], random.Random(i))
        oracle_right += [right for rnd in state.rounds for p, _, _, right, _ in rnd.placements if p == 0]
    assert points[0] > points[1] > points[2] > points[3]
    assert all(oracle_right) and 0.6 < sum(expert_right) / len(expert_right) < 1  # the expert bot errs


def test_each_round_three_guesses_each_clockwise_from_the_new_starting_player():
    """Rulebook: "Then the player to their left takes a turn ... until each player has placed a total of 3
    guess cards" and "The player to the left of the starting player becomes the new starting player"."""
    game = de.Game.from_deck(synthetic_deck(), players=3)
    state = game.new_initial_state(random.Random(4))
    rng = random.Random(5)
    for rnd in range(3):
        order = []
        for _ in range(3 * 3):
            order.append(state.current_player())
            state.apply_action(random_policy(state.observation(state.current_player()), rng))
        assert order == [(rnd + i) % 3 for i in range(9)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_legal_actions_are_every_guess_card_left_under_every_place(players):
    """The per-deck table of legal actions against the rule read off the round's moves: a player may place
    each guess whose card they have not used this round (W and M share one), with two players not one the
    other player placed; an integer of another type is applied like the int."""
    game = de.Game.from_deck(synthetic_deck(), players=players)
    width = players + 1
    for seed in range(20):
        state, twin = game.new_initial_state(random.Random(seed)), game.new_initial_state(random.Random(seed))
        rng = random.Random(seed)
        while not state.is_terminal():
            player = state.current_player()
            moves = state.history()[state.round * 3 * players :]
            own = {de._card(a // width) for k, a in enumerate(moves) if (state.starter + k) % players == player}
            other = {a // width for k, a in enumerate(moves) if (state.starter + k) % players != player}
            allowed = [g for g in range(len(de.GUESSES)) if de._card(g) not in own]
            allowed = [g for g in allowed if g not in other] if players == 2 else allowed
            assert state.legal_actions() == [g * width + position for g in allowed for position in range(width)]
            choice = random_policy(state.observation(player), rng)
            state.apply_action(choice)
            twin.apply_action(numpy.int64(choice))
        assert twin.history() == state.history() and twin.scores() == state.scores()
        assert all(type(a) is int for a in twin.history())


def test_scored_rounds_are_read_only_and_equal_in_a_clone():
    """Observations hand every player the state's own scored rounds, so a policy must not be able to change them."""
    game = de.Game.from_deck(synthetic_deck(), players=3)
    state = game.new_initial_state(random.Random(3))
    playout(state, [random_policy] * 3, random.Random(4))
    seen = state.observation(0).rounds[0]
    assert seen is state.rounds[0]
    with pytest.raises(TypeError):
        seen.correct["N"] = frozenset()
    assert state.clone().rounds == state.rounds
