"""Information sets: a policy sees only its observation, and states a player cannot tell apart look the same."""

import dataclasses
import random

import pytest
from conformance import cases
from fixtures.tiny.games.decks import deutschland, laender_toppen, world_game

from pipeline.framework import core
from pipeline.games.grid import engine as de
from pipeline.games.laender_toppen import engine as lt
from pipeline.games.world_game import engine as wg


def reachable(value, seen=None) -> list:
    """Every object reachable from an observation through its fields and containers."""
    seen = set() if seen is None else seen
    if id(value) in seen:
        return []
    seen.add(id(value))
    found = [value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        children = [getattr(value, f.name) for f in dataclasses.fields(value)]
    elif isinstance(value, dict):
        children = [*value.keys(), *value.values()]
    elif isinstance(value, (list, tuple, set, frozenset)):
        children = list(value)
    else:
        children = []
    for child in children:
        found += reachable(child, seen)
    return found


@pytest.mark.parametrize("case", cases("engine"))
def test_observations_hold_no_state_game_or_hidden_place(case):
    game = case.game()
    state = game.new_initial_state(random.Random(0))
    rng = random.Random(1)
    for _ in range(60):  # into the game (or to its end: a short game's observations are looked at all)
        if state.is_terminal():
            break
        player = state.current_player()
        if player >= 0:
            kinds = {type(v) for v in reachable(state.observation(player))}
            assert not kinds & {type(state), type(game), de.Place}, game.name
        core.playout(state.clone(), [core.random_policy] * game.players, rng)  # clones stay apart
        state.apply_action(
            core.sample_chance(state, rng)
            if player == core.CHANCE
            else core.random_policy(state.observation(player), rng)
        )


def test_deutschland_hidden_values_do_not_change_the_observation():
    """Two decks that differ only in the places' backs (grid numbers, inhabitants): every player sees the
    same before the round is scored, so no policy that reads its observation can tell them apart."""
    deck = deutschland()
    other = deutschland()
    for card in other["cards"]:
        if card["kind"] == "place":
            card["fields"].update(ns=150 - card["fields"]["ns"], we=90 - card["fields"]["we"], population=1)
    states = [de.Game.from_deck(d, players=3).initial_state(list(range(96))) for d in (deck, other)]
    rng = random.Random(2)
    for _ in range(8):  # within the first round
        observations = [s.observation(s.current_player()) for s in states]
        assert observations[0] == observations[1]
        action = core.random_policy(observations[0], rng)
        for s in states:
            s.apply_action(action)


def test_laender_toppen_other_hands_and_face_down_placements_stay_hidden():
    game = lt.Game.from_deck(laender_toppen(), players=3)
    deal = list(range(len(game.cards)))
    first = game.initial_state(deal)
    second = game.initial_state(deal[:10] + _shuffled(deal[10:]))  # player 0 holds the same ten cards
    assert first.hands[0] == second.hands[0] and first.hands[1:] != second.hands[1:]
    rngs = [random.Random(4), random.Random(4)]
    while first.current_player() in (0, 1):  # player 0 places, then player 1 places their (different) cards
        assert first.observation(0) == second.observation(0)
        for state, rng in zip((first, second), rngs):
            state.apply_action(core.random_policy(state.observation(state.current_player()), rng))
    assert first.strips[1] != second.strips[1] and first.observation(0) == second.observation(0)


def _shuffled(cards: list[int]) -> list[int]:
    cards = list(cards)
    random.Random(3).shuffle(cards)
    return cards


def test_world_game_other_top_cards_stay_hidden():
    game = wg.Game.from_deck(world_game(), players=2)
    deal = list(range(len(game.values)))
    other = deal[:1] + deal[21:40] + deal[1:21] + deal[40:]  # player 0 keeps the top card, the rest moves
    first, second = game.initial_state(deal), game.initial_state(other)
    assert first.stacks[1] != second.stacks[1]
    assert first.observation(0) == second.observation(0)


def test_playout_hands_policies_their_observation_and_oracles_the_state():
    game = de.Game.from_deck(deutschland(), players=2)
    seen = []

    def watcher(observation, rng):
        seen.append(type(observation))
        return core.random_policy(observation, rng)

    @core.oracle
    def peeker(state, rng):
        seen.append(type(state))
        return state.legal_actions()[0]

    core.playout(game.new_initial_state(random.Random(4)), [watcher, peeker], random.Random(5))
    assert set(seen) == {de.Observation, de.State}
    assert getattr(de.oracle_expert, "oracle", False) and not getattr(
        de.BOTS["expert"](game, random.Random(0)), "oracle", False
    )


def test_deutschland_face_down_variant_hides_the_other_players_guesses():
    """Rulebook variant: "the players may choose to place their guess cards face down below the place cards"."""
    game = de.Game.from_deck(deutschland(), players=3, face_down=True)
    state = game.initial_state(list(range(96)))
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    columns = state.observation(0).columns
    assert [g is None for column in columns for p, g in column] == [p != 0 for column in columns for p, _ in column]
    assert any(g is None for column in columns for _, g in column)
    assert all(
        g is not None
        for column in de.Game.from_deck(deutschland(), players=3).initial_state(list(range(96))).observation(0).columns
        for _, g in column
    )


VARIANTS = {"deutschland": [{"face_down": True}], "laender-toppen": [{"fast": True}]}  # options hiding more


def tables(case) -> list:
    """The game of the case's deck at each player count (up to 4), and with each variant's options."""
    counts = case.game().player_counts
    found = [case.game(players=p) for p in counts if p <= 4]
    for options in VARIANTS.get(case.name, []):
        found.append(case.game(players=max(counts[0], 3), **options))
    return found


@pytest.mark.parametrize("case", cases("engine", needs=("hidden information",)))
def test_no_seat_sees_what_the_rules_hide(case):
    """Every game: states that differ only in what a seat may not see (`resample`: the cards it has not
    seen dealt anew, hidden moves replaced) give that seat the same observation, at every move of random
    games; and the resampled states do differ (the hidden part is really redrawn): a shuffle of k >= 2
    unseen cards changes the deal with a chance of 1 - 1/k! >= 1/2, so at least half of those do."""
    for game in tables(case):
        for seed in range(2):
            state, rng = game.new_initial_state(random.Random(seed)), random.Random(seed)
            changed = unseen = moves = 0
            while not state.is_terminal() and moves < 300:
                for player in range(game.players):
                    other = state.resample(player, rng)
                    assert other.observation(player) == state.observation(player), (game.options(), moves, player)
                    changed += other.deal != state.deal or other.history() != state.history()
                    unseen += len(state.deal) - len(state.seen_cards(player)) >= 2
                state.apply_action(core.pick(state.legal_actions(), rng))
                moves += 1
            assert 2 * changed >= unseen > 0, game.options()


@pytest.mark.parametrize("case", cases("engine"))
def test_a_clone_copies_the_state_and_plays_on_like_the_original(case):
    """clone() copies (no replay): the clone and the original, moved apart, stay apart, and the same random
    moves give both the same legal actions, observations and returns."""
    for game in tables(case):
        original = game.new_initial_state(random.Random(3))
        rng = random.Random(4)
        for _ in range((game.max_game_length() or 200) // 3):  # into the game (a game may end sooner)
            if original.is_terminal():
                break
            original.apply_action(core.pick(original.legal_actions(), rng))
        copy = original.clone()
        assert type(copy) is type(original) and copy.serialize() == original.serialize()
        ahead = copy.clone()
        core.playout(ahead, [core.random_policy] * game.players, random.Random(5))
        assert ahead.is_terminal() and copy.serialize() == original.serialize()  # the clone's clone moved alone
        rngs = random.Random(6), random.Random(6)
        while not original.is_terminal():
            assert copy.legal_actions() == original.legal_actions()
            for p in range(game.players):
                assert copy.observation(p) == original.observation(p)
            for state, r in zip((original, copy), rngs):
                state.apply_action(core.pick(state.legal_actions(), r))
        assert copy.is_terminal() and copy.returns() == original.returns() and copy.scores() == original.scores()


def test_a_search_bot_gets_the_information_set_and_samples_only_what_its_player_cannot_tell_apart():
    game = wg.Game.from_deck(world_game(), players=3)
    seen = []

    def searcher(information, rng):
        sample = information.sample(rng)
        seen.append((information.observation, sample.observation(information.player)))
        return core.random_policy(information.observation, rng)

    searcher.searches = True  # type: ignore[attr-defined]
    state = game.new_initial_state(random.Random(7))
    for _ in range(30):
        action = searcher(core.policy_input(state, searcher), random.Random(8))
        state.apply_action(action)
    assert seen and all(mine == sampled for mine, sampled in seen)
