"""World Game engine: fact rounds, ties on the next card, challenges, the end, the round cap, invariants."""

import random

import pytest
from fixtures.tiny.games.decks import world_game as synthetic_deck

from pipeline.errors import GeodeckError
from pipeline.games.core import CHANCE, TERMINAL, random_policy
from pipeline.games.world_game import engine as wg

AREA, POPULATION, PEAK, NEIGHBOURS = range(4)


def deck_with(values: list[tuple[int, int, int, int]]) -> list[dict]:
    """Cards with the given facts, padded to 80 cards of small values."""
    rows = values + [(1, 1, 1, 0)] * (80 - len(values))
    return [{"id": f"wg-{i}", "kind": "country", "fields": dict(zip(wg.FACTS, row))} for i, row in enumerate(rows)]


def state_with(stacks: list[list[int]], values, **options) -> wg.State:
    game = wg.Game(deck_with(values), players=len(stacks), **options)
    state = wg.State(game, list(range(len(game.values))))
    state.stacks = [wg.deque(s) for s in stacks]
    return state


def test_highest_fact_takes_every_top_card_to_the_bottom():
    values = [(100, 5, 0, 2), (300, 1, 0, 1), (200, 9, 0, 3), (7, 7, 7, 7), (8, 8, 8, 8)]
    state = state_with([[0, 3], [1, 4], [2]], values)
    state.apply_action(AREA)
    assert state.turns[-1].winner == 1 and state.leader == 1
    assert [list(s) for s in state.stacks] == [[3], [4, 1, 2, 0], []]  # own card first, then clockwise
    assert state.is_terminal() and state.winners() == [1]  # 3 players: the first player out ends the game


def test_tied_players_compare_the_same_fact_on_their_next_card():
    values = [(500, 0, 0, 3), (500, 0, 0, 3), (100, 0, 0, 9), (10, 0, 0, 0), (20, 0, 0, 0), (1, 0, 0, 0)]
    state = state_with([[0, 3, 5], [1, 4, 5], [2, 5]], values)
    state.stacks[0][2] = 6  # distinct third cards
    state.apply_action(AREA)
    turn = state.turns[-1]
    assert turn.best == (0, 1) and turn.tie_levels == 1 and turn.winner == 1  # 20 beats 10 on the next card
    assert list(state.stacks[1]) == [5, 1, 4, 2, 0, 3]  # both tied cards of each player went to the winner
    assert list(state.stacks[2]) == [5] and list(state.stacks[0]) == [6]


def test_a_tied_player_without_a_next_card_drops_out():
    values = [(500, 0, 0, 0), (500, 0, 0, 0), (1, 0, 0, 0)]
    state = state_with([[0], [1, 2]], values)
    state.apply_action(AREA)
    assert state.turns[-1].winner == 1 and [list(s) for s in state.stacks] == [[], [2, 1, 0]]
    state = state_with([[0], [1]], values)  # nobody tied has a next card: the first from the leader wins
    state.apply_action(AREA)
    assert state.turns[-1].winner == 0


def test_challenge_first_right_answer_wins_the_callers_setters_and_wrong_answerers_cards():
    state = state_with([[0, 4], [1, 5], [2, 6], [3, 7]], [(1, 1, 1, 1)] * 8, knowledge=0.5)
    state.apply_action(wg.CHALLENGE)
    assert state.current_player() == CHANCE and state.chance_outcomes() == [(wg.WRONG, 0.5), (wg.RIGHT, 0.5)]
    state.apply_action(wg.WRONG)  # the caller (0) is wrong; the setter is player 1; then player 2 decides
    assert state.current_player() == 2 and state.legal_actions() == [wg.ANSWER, wg.PASS]
    state.apply_action(wg.PASS)
    assert state.current_player() == 3
    state.apply_action(wg.ANSWER)
    state.apply_action(wg.RIGHT)
    turn = state.turns[-1]
    assert turn.winner == 3 and turn.answers == ((0, False), (3, True))
    assert [list(s) for s in state.stacks] == [[4], [5], [2, 6], [3, 7, 0, 1]]  # the winner keeps their top card
    assert state.leader == 3


def test_challenge_nobody_right_the_setter_wins():
    state = state_with([[0, 3], [1, 4], [2, 5]], [(1, 1, 1, 1)] * 6)
    state.apply_action(wg.CHALLENGE)
    state.apply_action(wg.WRONG)
    state.apply_action(wg.ANSWER)
    state.apply_action(wg.WRONG)
    assert state.turns[-1].winner == 1 and [list(s) for s in state.stacks] == [[3], [4, 1, 2, 0], [5]]


def test_two_players_play_until_one_has_every_card_and_the_cap_stops_the_rest():
    state = state_with([[0], [1, 2]], [(9, 0, 0, 0), (1, 0, 0, 0), (5, 0, 0, 0)])
    state.apply_action(AREA)
    assert not state.is_terminal()  # each still has cards: 0 holds [0, 1], 1 holds [2]
    state.apply_action(AREA)
    assert state.is_terminal() and state.winners() == [0] and state.returns() == [1.0, 0.0]
    state = state_with([[0, 1], [2, 3]], [(9, 0, 0, 0), (1, 0, 0, 0), (1, 0, 0, 0)], max_rounds=1)
    state.apply_action(AREA)  # player 0 takes card 2; both still hold cards, but the cap is reached
    assert state.capped and state.current_player() == TERMINAL and state.legal_actions() == []
    assert state.card_counts() == [3, 1] and state.returns() == [1.0, 0.0]


def test_options_are_checked():
    with pytest.raises(GeodeckError, match="2-4 players"):
        wg.Game(deck_with([]), players=5)
    with pytest.raises(GeodeckError, match="probability"):
        wg.Game(deck_with([]), knowledge=1.5)
    assert wg.Game(deck_with([]), challenges=False).new_initial_state(random.Random(0)).legal_actions() == [0, 1, 2, 3]


def test_random_games_keep_every_invariant():
    deck = synthetic_deck()["cards"]
    for i in range(600):
        players = 2 + i % 4
        game = wg.Game(deck, players=players, max_rounds=400, knowledge=(i % 5) / 4)
        rng = random.Random(i)
        state = game.new_initial_state(rng)
        dealt = sorted(c for s in state.stacks for c in s)
        policies = [wg.BOTS["expert"](game, rng) if (i + p) % 2 else random_policy for p in range(players)]
        while not state.is_terminal():
            assert state.legal_actions()
            if state.current_player() == CHANCE:
                outcomes = state.chance_outcomes()
                assert sum(p for _, p in outcomes) == pytest.approx(1)
                state.apply_action(outcomes[rng.random() < outcomes[1][1]][0])
            else:
                state.apply_action(policies[state.current_player()](state.observation(state.current_player()), rng))
            assert sorted(c for s in state.stacks for c in s) == dealt
        assert len(dealt) == 20 * players and len(state.set_aside) == len(deck) - 20 * players
        assert state.capped or min(state.card_counts()) == 0
        assert state.capped == (len(state.turns) == 400 and min(state.card_counts()) > 0)
        returns = state.returns()
        assert sum(returns) == pytest.approx(1) and {p for p, r in enumerate(returns) if r > 0} == set(state.winners())
        for turn in state.turns:
            if turn.action != wg.CHALLENGE:
                assert turn.winner in turn.best or turn.tie_levels > 0
                assert len(turn.top) == players
