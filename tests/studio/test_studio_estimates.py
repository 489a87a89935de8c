"""The time a print or an export will take, said before it starts (pipeline/studio/estimates.py): computed from
the deck's size with the lines through measured runs (templates/studio/print-times.json), shown on the deck's
page and beside the elapsed time on the job's page."""

import time

import pytest

from pipeline import paths
from pipeline.games import custom, registry
from pipeline.render import services
from pipeline.studio import estimates, tasks
from studio.pages import client, csrf

KINDS = ("kit", "cards", *services.names())


@pytest.mark.parametrize("name", ["laender-toppen", "world-game", "region-fra"])
def test_an_estimate_grows_with_the_deck(name):
    game = registry.get(name)
    for kind in KINDS:
        small, large = (estimates.seconds(game, kind, cards) for cards in (40, 200))
        assert estimates.LEAST_S <= small < large, (kind, small, large)


@pytest.mark.parametrize("name", ["laender-toppen", "world-game"])
def test_a_custom_deck_is_estimated_as_its_recipe_games(name):
    game = registry.get(name)
    own = custom.definition("states", game, True, paths.TEMPLATES_DIR)
    assert estimates.seconds(own, "kit", 40) == estimates.seconds(game, "kit", 40)


def test_an_estimate_is_said_in_seconds_then_minutes():
    assert [estimates.duration("en", s) for s in (0.4, 7.2, 41, 89, 91, 400)] == [
        "about 1 s",
        "about 8 s",
        "about 45 s",
        "about 90 s",
        "about 2 min",
        "about 7 min",
    ]
    assert estimates.duration("de", 41) == "etwa 45 s"


@pytest.mark.mirror
def test_an_estimate_is_near_a_real_run_and_shown_before_and_while_it_runs(built_in):
    game = registry.get("laender-toppen")
    cards = len(tasks._game("laender-toppen", built_in)[1]["cards"])
    start = time.process_time()  # CPU seconds: the estimate's measure, which other work on the machine leaves be
    tasks.sheets(tasks.Where.here(), "laender-toppen", built_in, {}, lambda _step: None)
    measured = time.process_time() - start
    assert measured / 3 <= estimates.seconds(game, "cards", cards) <= measured * 3
    with client() as browser:
        page = browser.get("/games/laender-toppen").text
        said = estimates.duration("en", estimates.seconds(game, "kit", cards))
        assert f"The whole kit (one PDF): {said}" in page
        moved = browser.post(f"/games/laender-toppen/{built_in}/print", data={"csrf": csrf(page), "what": "kit"})
        job = browser.get(moved.headers["location"]).text
        browser.post(f"{moved.headers['location']}/cancel", data={"csrf": csrf(page)})
    assert f"Expected to take {said}." in job and 'id="job-state"' in job
