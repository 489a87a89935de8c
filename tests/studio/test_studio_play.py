"""A game played in the studio is `geodeck play`'s: the same loop, engines and record (which `geodeck replay`
checks), the hot seat's table hidden between two humans' turns, a table only its session sees."""

import json
import re
import shutil

from click.testing import CliRunner

from pipeline import paths
from pipeline.cli import cli
from studio.pages import client, csrf


def started(browser, **form) -> tuple[str, str]:
    """(the table's address, the session's CSRF token) of a game started from the play page."""
    token = csrf(browser.get("/play").text)
    moved = browser.post("/play", data={"csrf": token, "game": "laender-toppen", **form})
    assert moved.status_code == 303, moved.text
    return moved.headers["location"], token


def test_a_game_against_a_bot_played_to_its_end_leaves_the_record_geodeck_play_does(built_in, workshop):
    with client() as browser, client() as other:
        table, token = started(browser, players="2", humans="1", level="expert")
        assert other.get(table).status_code == 404 and other.get(f"{table}/record").status_code == 404
        for _move in range(500):
            page = browser.get(table).text
            if 'id="ended"' in page:
                break
            assert "Player 1 to move" in page
            browser.post(table, data={"csrf": token, "answer": "1"})
        assert "The game is over." in page and str(paths.OUTPUT_DIR) not in page  # the record by its name alone
        record = browser.get(f"{table}/record")
    document = json.loads(record.content)
    assert document["deck"]["version"] == built_in and [s["plays"] for s in document["seats"]] == [
        "human",
        "bot:expert",
    ]
    (workshop / "game.json").write_bytes(record.content)
    replayed = CliRunner().invoke(cli, ["replay", str(workshop / "game.json")], catch_exceptions=False)
    assert replayed.exit_code == 0, replayed.output


def test_the_hot_seat_hides_the_table_between_two_humans_and_leaving_keeps_the_record(built_in):
    with client() as browser:
        table, token = started(browser, players="2", humans="2")
        first = browser.get(table).text
        assert "Player 1&#39;s turn: take the screen" in first and "Piles" not in first and "/cards/" not in first
        browser.post(table, data={"csrf": token, "answer": ""})
        taken = browser.get(table).text
        assert "Player 1 to move" in taken and '<h2 id="seen-1">Your hand</h2>' in taken  # the hand as pictures
        assert re.search(r'/cards/lt-[A-Z]{3}/front\.png\?lang=en" alt="[^"]+"', taken)
        for _move in range(20):  # Player 1's moves until the turn passes
            browser.post(table, data={"csrf": token, "answer": "1"})
            handed = browser.get(table).text
            if "Player 1 to move" not in handed:
                break
        assert "Player 2&#39;s turn: take the screen" in handed
        assert "Piles" not in handed and "/cards/" not in handed  # nothing of Player 1's table, nor its cards
        browser.post(table, data={"csrf": token, "answer": "q"})
        left = browser.get(table).text
        assert "You left the game." in left and browser.get(f"{table}/record").status_code == 200


def test_seats_the_game_cannot_seat_are_refused_in_geodeck_plays_words(built_in):
    with client() as browser:
        token = csrf(browser.get("/play").text)
        answer = browser.post("/play", data={"csrf": token, "game": "laender-toppen", "level": "grandmaster"})
        assert answer.status_code == 400 and "is neither &#39;human&#39; nor a bot" in answer.text
        assert browser.post("/play", data={"csrf": token, "game": "../etc"}).status_code == 404


def test_a_sessions_fourth_game_leaves_its_oldest_keeping_its_record(built_in):
    with client() as browser:
        tables = [started(browser, players="2")[0] for _game in range(4)]
        assert browser.get(tables[0]).status_code == 404
        assert all(browser.get(table).status_code == 200 for table in tables[1:])
    records = sorted((paths.OUTPUT_DIR / "records").glob("laender-toppen-*.json"))
    assert len(records) == 4  # the left game's too


def test_a_grid_games_places_are_drawn_as_the_renderers_cards(workshop, mirror):  # the cards need the mirror's maps
    source = paths.ROOT / "output" / "decks" / "deutschland"
    latest = (source / "LATEST").read_text(encoding="utf-8").strip()
    shutil.copytree(source / latest, paths.DECKS_DIR / "deutschland" / latest)
    (paths.DECKS_DIR / "deutschland" / "LATEST").write_text(latest + "\n", encoding="utf-8")
    with client() as browser:
        token = csrf(browser.get("/play").text)
        table = browser.post("/play", data={"csrf": token, "game": "deutschland", "players": "3"}).headers["location"]
        page = browser.get(table).text
        assert '<h2 id="seen-1">The places</h2>' in page
        shown = re.findall(r'src="(/games/deutschland/[^"]+/cards/de-\d+/front\.png\?lang=en)" alt="([^"]+)"', page)
        assert len(shown) == 4 and all(name for _src, name in shown)  # each place named: its text alternative
        assert browser.get(shown[0][0]).content.startswith(b"\x89PNG")
