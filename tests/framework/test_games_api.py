"""OpenSpiel's state API on every registered engine: clone, history, serialisation, strings, declarations, bad
actions (the games from the registry: tests/conformance.py)."""

import random

import pytest
from conformance import cases
from fixtures.tiny.games.decks import laender_toppen

from pipeline.errors import GeodeckError
from pipeline.framework.core import CHANCE, EngineState, IllegalAction, playout, random_policy, sample_chance
from pipeline.games.laender_toppen import engine as lt

ENGINES = cases("engine")


def step(state, rng: random.Random) -> None:
    player = state.current_player()
    state.apply_action(sample_chance(state, rng) if player == CHANCE else random_policy(state.observation(player), rng))


def into(game, moves: int) -> int:
    """`moves` into a game, or fewer in a game that may end sooner (a toy's: before its last move)."""
    return min(moves, (game.max_game_length() or moves + 1) - 1)


@pytest.fixture(params=ENGINES)
def game(request):
    return request.param.game()


def test_declarations_cover_every_game(game):
    assert game.players in game.player_counts and game.num_players() == game.players
    for seed in range(5):
        state = game.new_initial_state(random.Random(seed))
        rng = random.Random(seed)
        while not state.is_terminal():
            assert all(0 <= a < game.num_distinct_actions() for a in state.legal_actions())
            step(state, rng)
        assert len(state.history()) <= (game.max_game_length() or float("inf"))


def test_clone_is_independent_and_serialise_replays_the_history(game):
    state = game.new_initial_state(random.Random(1))
    rng = random.Random(2)
    moves = into(game, 30)
    for _ in range(moves):
        step(state, rng)
    copy = state.clone()
    assert str(copy) == str(state) and copy.history() == state.history() and copy.game is state.game
    step(copy, rng)
    assert len(copy.history()) == len(state.history()) + 1 == moves + 1
    restored = game.deserialize_state(state.serialize())
    assert restored.history() == state.history() and str(restored) == str(state)
    assert restored.legal_actions() == state.legal_actions()
    playout(restored, [random_policy] * game.players, random.Random(3))
    assert restored.is_terminal() and game.deserialize_state(restored.serialize()).returns() == restored.returns()


def test_random_playouts_take_a_faster_path_to_the_same_game(game):
    """`playout` with every seat `random_policy` hands the game to the engine's `play_randomly`: the same
    moves, draws and end as random moves chosen from the observations, and the branching of the core's loop."""

    def drawn(observation, rng: random.Random) -> int:  # random_policy under another name: the observation path
        return random_policy(observation, rng)

    for seed in range(6):
        fast, slow, base = (game.new_initial_state(random.Random(seed)) for _ in range(3))
        fast_rng, slow_rng, base_rng = (random.Random(seed + 100) for _ in range(3))
        played = playout(fast, [random_policy] * game.players, fast_rng)
        assert playout(slow, [drawn] * game.players, slow_rng).moves == played.moves
        assert fast.history() == slow.history() and str(fast) == str(slow) and fast.returns() == slow.returns()
        assert fast_rng.random() == slow_rng.random()
        moves, decisions, options = EngineState.play_randomly(base, base_rng)  # the core's loop, not the engine's
        assert base.history() == fast.history() and (moves, options / decisions) == (played.moves, played.branching)


def test_every_legal_action_has_a_readable_name_and_strings_render(game):
    state = game.new_initial_state(random.Random(4))
    rng = random.Random(5)
    for _ in range(into(game, 40)):
        player = state.current_player()
        names = [state.action_to_string(player, a) for a in state.legal_actions()]
        assert len(set(names)) == len(names) and all(n and "unknown" not in n for n in names)
        if player != CHANCE:
            assert state.observation_string(player) == str(state.observation(player))
        assert str(state)
        step(state, rng)


@pytest.mark.parametrize("bad", [0.0, True, "1", None])
def test_non_integers_are_refused_with_a_clear_error(game, bad):
    state = game.new_initial_state(random.Random(0))
    with pytest.raises(IllegalAction, match=r"an action is an integer from legal_actions\(\), not"):
        state.apply_action(bad)
    assert state.history() == []


def test_after_the_end_no_action_and_no_player_minus_four(game):
    state = game.new_initial_state(random.Random(6))
    playout(state, [random_policy] * game.players, random.Random(7))
    with pytest.raises(IllegalAction, match="the game is over") as raised:
        state.apply_action(0)
    assert "-4" not in str(raised.value)


def test_deserialise_refuses_another_game_or_options_and_bad_moves(game):
    state = game.new_initial_state(random.Random(8))
    text = state.serialize()
    other = next(case.values[0] for case in ENGINES if case.values[0].name != game.name).game()
    with pytest.raises(GeodeckError, match="not "):
        other.deserialize_state(text)
    with pytest.raises(GeodeckError, match="not a serialised state"):
        game.deserialize_state("{}")
    bad = text.replace('"history": []', f'"history": [{game.num_distinct_actions() + 5}]')
    with pytest.raises(IllegalAction, match="move 1: "):
        game.deserialize_state(bad)
    with pytest.raises(GeodeckError, match="a deal orders the card indices"):
        game.initial_state([0, 0, 1])


def test_laender_toppen_names_the_rule_antarctica_breaks():
    game = lt.Game.from_deck(laender_toppen(), players=2)
    state = game.initial_state(list(range(len(game.cards))))
    assert game.antarctica is not None
    state.hands[0][0] = game.antarctica
    inhabitants_above = game.place + game.antarctica * game.slots + 6
    assert state.action_to_string(0, inhabitants_above) == "play Antarctica in inhabitants_m above"
    with pytest.raises(
        IllegalAction, match=r"Länder toppen: Antarctica may not be placed in inhabitants_m above \(rule: "
    ):
        state.apply_action(inhabitants_above)


def test_the_compiled_shuffle_deals_as_the_standard_librarys():
    """`core.shuffle` draws as `random.Random.shuffle`: the same permutation and the same rng state after, so
    every seeded deal (records, play-check games) stays what it was."""
    from pipeline.framework.core import shuffle

    for seed in range(200):
        for size in (0, 1, 2, 3, 20, 96, 128, 194, 300):
            ours, theirs = random.Random(seed), random.Random(seed)
            dealt, expected = list(range(size)), list(range(size))
            shuffle(dealt, ours)
            theirs.shuffle(expected)
            assert dealt == expected and ours.random() == theirs.random()
