"""Place selection over any table of candidate towns (pipeline.geo.selection), on synthetic countries."""

import itertools
import math
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from pipeline.games.deutschland import places
from pipeline.games.grid import selection as grid_selection
from pipeline.geo import selection, synthetic


@pytest.fixture(scope="module")
def settings():
    return replace(places.load_settings(), size=24, iterations=400, pins_in=(), pins_out=())


def test_tie_probabilities_of_many_rows_and_layouts_count_every_layout():
    rng = np.random.default_rng(3)
    values = rng.integers(0, 5, size=(4, 9))
    rates = selection.tie_probabilities(values, (2, 3, 4))
    for row, by_k in zip(values, rates):
        for k, rate in zip((2, 3, 4), by_k):
            layouts = [sorted(layout) for layout in itertools.combinations(row, k)]
            assert rate == pytest.approx(sum(a[0] == a[1] for a in layouts) / len(layouts))


def from_scratch(pool, pinned, s, extremes, division):
    """The selection's local search with every trial deck scored from scratch (no incremental cover):
    the reference the incremental search must reproduce card for card."""
    rng = np.random.default_rng(s.seed)
    objective = selection.Objective(pool, s, extremes)
    states = pool[division].to_numpy()
    seeds = list(dict.fromkeys(pinned))
    for state in sorted(set(states) - set(states[seeds])):
        seeds.append(int(rng.choice(np.flatnonzero(states == state))))
    seeds += [int(row) for row in selection.well_known(pool, s) if row not in seeds][: s.size - len(seeds)]
    while len(seeds) < s.size:
        near = objective.km(seeds).min(axis=1)
        far = objective.spread_from[np.flatnonzero(near == near.max())]
        seeds.append(int(rng.choice(np.setdiff1d(far, seeds))))
    chosen = np.array(seeds)
    free = np.arange(len(set(pinned)), len(chosen))
    outside = np.setdiff1d(objective.spread_from, chosen)
    score = objective(chosen)
    for _ in range(s.iterations):
        slot, new = int(rng.choice(free)), int(rng.choice(outside))
        old = chosen[slot]
        chosen[slot] = new
        trial = objective(chosen) if len(set(states[chosen])) == len(set(states)) else math.inf
        if trial < score:
            score, outside = trial, np.append(outside[outside != new], old)
        else:
            chosen[slot] = old
    return np.sort(chosen)


@pytest.mark.parametrize("seed", [1, 2])
def test_incremental_search_picks_what_scoring_every_trial_from_scratch_picks(settings, seed):
    towns = synthetic.country(400, seed=seed, divisions=6)
    pinned = [5, 17]
    s = replace(settings, seed=seed)
    chosen = selection.select(towns, pinned, s, places.EXTREMES, "division")
    assert chosen.tolist() == from_scratch(towns, pinned, s, places.EXTREMES, "division").tolist()
    assert len(chosen) == s.size and {5, 17} <= set(chosen.tolist())
    assert towns["division"].nunique() == 6 and towns.loc[chosen, "division"].nunique() == 6


def test_cover_radius_after_a_swap_is_the_radius_of_the_swapped_deck(settings):
    towns = synthetic.country(300, seed=4)
    objective = selection.Objective(towns, settings, places.EXTREMES)
    chosen = np.arange(0, 300, 12)
    cover = selection.Cover(objective, chosen.copy())
    rng = np.random.default_rng(0)
    for _ in range(50):
        slot, card = int(rng.integers(len(chosen))), int(rng.choice(np.setdiff1d(np.arange(300), chosen)))
        swapped = chosen.copy()
        swapped[slot] = card
        assert cover.radius_if(slot, card) == objective.radius_km(swapped)
        if rng.random() < 0.5:
            cover.replace(slot, card)
            chosen = swapped
            assert cover.radius() == objective.radius_km(chosen)


def test_synthetic_country_is_seeded_and_every_town_a_candidate():
    towns = synthetic.country(2000, seed=7)
    assert towns.equals(synthetic.country(2000, seed=7)) and not towns.equals(synthetic.country(2000, seed=8))
    assert len(towns) == 2000 and towns["division"].nunique() == 16 and (towns["population"] >= 20_000).all()
    assert towns["ns"].between(0, 150).all() and towns["we"].between(0, 90).all()


def choice_rows(rng, n, k, draws):
    return np.array([rng.choice(n, size=k, replace=False) for _ in range(draws)])


@pytest.mark.parametrize(("n", "k"), [(96, 3), (96, 5), (7, 7), (10, 1), (5000, 40)])
@pytest.mark.parametrize("pending", [False, True])  # half of PCG64's last 64-bit output still unused
def test_layouts_are_rng_choice_rows_and_leave_the_generator_where_choice_does(n, k, pending):
    replayed, called = np.random.default_rng(11), np.random.default_rng(11)
    if pending:
        replayed.integers(10, dtype=np.uint32), called.integers(10, dtype=np.uint32)
        assert replayed.bit_generator.state["has_uint32"]
    assert (selection.layouts(replayed, n, k, 300) == choice_rows(called, n, k, 300)).all()
    assert replayed.bit_generator.state == called.bit_generator.state


def test_layouts_fall_back_to_rng_choice_when_they_cannot_replay_it(monkeypatch):
    other = np.random.Generator(np.random.MT19937(5))
    assert (
        selection.layouts(other, 50, 4, 20) == choice_rows(np.random.Generator(np.random.MT19937(5)), 50, 4, 20)
    ).all()
    monkeypatch.setattr(selection, "_replay_choice", lambda rng, n, k, draws: np.zeros((draws, k), dtype=int))
    replayed, called = np.random.default_rng(3), np.random.default_rng(3)
    assert (selection.layouts(replayed, 96, 3, 50) == choice_rows(called, 96, 3, 50)).all()
    assert replayed.bit_generator.state == called.bit_generator.state


def test_a_card_that_passes_over_a_larger_place_nearby_is_what_familiarity_weighs(settings):
    towns = synthetic.country(300, seed=6)
    s = replace(settings, weight_familiarity=3.0, familiar_km=50.0, well_known=0.0)
    objective = selection.Objective(towns, s, places.EXTREMES)
    small = int(towns["population"].idxmin())
    x, y = objective.x, objective.y
    near = np.hypot(x - x[small], y - y[small]) <= 50_000
    larger = np.flatnonzero(near & (towns["population"].to_numpy() > towns.at[small, "population"]))
    assert len(larger)  # the smallest town has larger neighbours
    biggest = larger[towns["population"].to_numpy()[larger].argmax()]
    given = objective.log_pop[biggest] - objective.log_pop[small]
    assert objective.passed_over(np.array([small])) == pytest.approx(given)
    assert objective.passed_over(np.arange(len(towns))) == 0  # every place a card: none passed over
    unweighted = replace(settings, weight_familiarity=0.0)
    assert selection.Objective(towns, unweighted, places.EXTREMES).passed_over(np.array([small])) == 0


def test_familiarity_takes_the_larger_places_of_each_part_of_the_country(settings):
    towns = synthetic.country(400, seed=2, divisions=6)
    s = replace(settings, seed=2, weight_familiarity=0.0)
    plain = selection.select(towns, [], s, places.EXTREMES, "division")
    familiar = selection.select(
        towns, [], replace(s, weight_familiarity=3.0, familiar_km=50.0), places.EXTREMES, "division"
    )
    objective = selection.Objective(towns, replace(s, weight_familiarity=1.0, familiar_km=50.0), places.EXTREMES)
    assert objective.passed_over(familiar) < objective.passed_over(plain) / 2
    assert towns.loc[familiar, "population"].median() > towns.loc[plain, "population"].median()


def test_a_suburb_is_left_out_and_a_big_city_beside_a_bigger_one_is_kept(settings):
    """Issue 31: a suburb stood in for its town (Lanester beside Lorient, Rumia beside Gdynia) while a city every
    player knows was out because a larger one was a card 20 km away (Heidelberg beside Mannheim). The rule
    (pipeline.games.grid.selection): a place under 100,000 within 7 km x sqrt(the larger's inhabitants /
    100,000) of a place twice as populous is a suburb; the well-known places (the most populous that stand on
    their own) are passed over by every smaller card when they are no card."""
    towns = pd.DataFrame(  # a metropolis with a suburb 6 km east and a big city 20 km north; small towns afar
        {
            "name": ["Metropolis", "Suburb", "Big City", "North", "Northwood", "South", "East", "West"],
            "lat": [50.0, 50.0, 50.18, 52.0, 52.1, 48.0, 50.0, 50.0],
            "lon": [10.0, 10.084, 10.0, 10.0, 10.1, 10.0, 13.0, 7.0],
            "population": [400_000, 30_000, 190_000, 25_000, 21_000, 24_000, 23_000, 22_000],
            "division": "A",
        }
    )
    s = replace(settings, size=5, min_population=20_000, iterations=200, weight_ties=0.0)
    beside, why = grid_selection.suburbs(towns, s, exempt=np.zeros(len(towns), dtype=bool))
    assert beside.tolist()[:3] == ["", "Metropolis", ""]  # 190,000 is not half of 400,000: Big City stands alone
    assert why[1] == "a suburb of Metropolis (6 km away, 13.3 times its inhabitants)" and not why[2]
    assert grid_selection.suburbs(towns, s, exempt=[False, True, *[False] * 6])[1][1] == ""  # a capital, a pin
    pool = towns.assign(beside=beside).loc[why == ""].reset_index(drop=True)
    ns_we = {"ns": (60 - pool["lat"]) * 20, "we": pool["lon"] * 10, "state": "A"}
    pool = pool.assign(**{k: np.round(v).astype(int) if k != "state" else v for k, v in ns_we.items()})
    named = lambda chosen: set(pool.loc[chosen, "name"])  # noqa: E731
    local_only = replace(s, well_known=0.0)
    assert "Big City" not in named(selection.select(pool, [0], local_only, places.EXTREMES, "state"))
    assert "Big City" in named(selection.select(pool, [0], replace(s, well_known=0.4), places.EXTREMES, "state"))


def test_a_pool_of_exactly_the_decks_size_or_of_pins_only_is_the_deck_without_a_search(settings):
    """Nothing to swap (every candidate a card, or every card a pin): Uganda's `region build` crashed there."""
    towns = synthetic.country(settings.size, seed=5, divisions=3)
    assert selection.select(towns, [0, 1], settings, places.EXTREMES, "division").tolist() == list(range(len(towns)))
    pins = list(range(settings.size))
    larger = synthetic.country(60, seed=5, divisions=3)
    assert selection.select(larger, pins, settings, places.EXTREMES, "division").tolist() == pins
