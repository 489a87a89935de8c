"""The studio's pages on the CLI's stages: browse a published deck (its cards drawn by the print renderer, each
value's source), the diff of two versions, make a deck from a table (each problem beside its field in the CLI's
words, a preview), publish it in a worker, download its recipe and its kit, cancel a job."""

import html
import io
import re
import shutil
import time
import zipfile

import pypdfium2
import pytest
from click.testing import CliRunner
from PIL import Image

from pipeline import fixes, paths
from pipeline.cli import cli
from pipeline.games.custom import commands, numbers
from pipeline.games.custom import recipe as recipes
from pipeline.games.custom import table as tables
from pipeline.i18n.catalogue import translate, translate_plural
from pipeline.studio import drafts, listing, tasks
from studio.pages import STATES, client, csrf, problems, table_bytes

PNG = b"\x89PNG\r\n\x1a\n"


def wait(browser, job: str, limit_s: float = 300) -> dict:
    """The job's state once it is no longer running."""
    end = time.monotonic() + limit_s
    while time.monotonic() < end:
        state = browser.get(f"/jobs/{job}/state").json()
        if state["state"] != "running":
            return state
        time.sleep(0.1)
    raise AssertionError(f"job {job} still running after {limit_s} s")


def test_a_published_deck_its_cards_drawn_and_each_values_source(built_in, mirror):  # cards need the mirror's maps
    with client() as browser:
        home = browser.get("/").text
        assert f'href="/games/laender-toppen?version={built_in}"' in home
        page = browser.get("/games/laender-toppen").text
        assert f"/games/laender-toppen/{built_in}/cards/lt-CRI/front.png" in page
        assert "factbook" in page and "final edition, data updated" in page  # a value's source and vintage
        front = browser.get(f"/games/laender-toppen/{built_in}/cards/lt-CRI/front.png")
        back = browser.get(f"/games/laender-toppen/{built_in}/cards/lt-CRI/back.png")
    assert front.content.startswith(PNG) and back.content.startswith(PNG) and front.content != back.content
    assert Image.open(io.BytesIO(front.content)).size == (
        273,
        382,
    )  # 63 × 88 mm at 110 dpi (rounded up), one-up, no bleed


def test_the_diff_of_two_versions_is_the_review_pages(built_in):
    source = paths.ROOT / "output" / "decks" / "laender-toppen"
    older = sorted(p.name for p in source.iterdir() if p.is_dir() and p.name != built_in)[-1]
    shutil.copytree(source / older, paths.DECKS_DIR / "laender-toppen" / older)
    with client() as browser:
        page = browser.get(f"/games/laender-toppen/diff?old={older}&new={built_in}").text
        assert f"{older} → {built_in}" in page and "changed values" in page
        assert browser.get("/games/laender-toppen/diff?old=1999.1.0").status_code == 404


def play_checked(browser, token: str, game: str, version: str, monkeypatch) -> None:
    """Play-check runs as a job counting its games; the deck's page then shows its report and plots."""
    monkeypatch.setattr(tasks, "PLAYCHECK_GAMES", 20)  # a short look: the verdicts may stay undecided
    assert "No play-check report for this version yet." in browser.get(f"/games/{game}").text
    moved = browser.post(f"/games/{game}/{version}/playcheck", data={"csrf": token})
    job = moved.headers["location"].rsplit("/", 1)[1]
    steps = set()
    end = time.monotonic() + 300
    while (state := browser.get(f"/jobs/{job}/state").json())["state"] == "running" and time.monotonic() < end:
        steps.add(state["step"])
        time.sleep(0.1)
    assert state["state"] == "done", state
    assert re.fullmatch(rf"{game} {version}: play-check (pass|undecided|fail)", state["result"])
    assert any(re.fullmatch(r"\d+/[1-9]\d*", step) for step in steps)  # games played of those planned
    page = browser.get(f"/games/{game}").text
    plots = re.findall(rf'src="/games/{game}/{version}/report/([^"]+\.png)"', page)
    assert 'class="report"' in page and plots
    assert browser.get(f"/games/{game}/{version}/report/{plots[0]}").content.startswith(PNG)
    assert browser.get(f"/games/{game}/{version}/report/..%2Freport.json").status_code == 404


def assert_the_cli_makes_the_same_deck(exported: bytes, workshop, monkeypatch) -> None:
    """`geodeck deck new` of the studio's exported recipe, in folders of its own, publishes the same files."""
    studio_decks = paths.DECKS_DIR
    with monkeypatch.context() as elsewhere:
        elsewhere.setenv("GEODECK_BUILD", str(workshop / "cli-build"))
        elsewhere.setattr(paths, "DECKS_DIR", workshop / "cli-decks")
        (workshop / "states.zip").write_bytes(exported)
        done = CliRunner().invoke(
            cli,
            ["deck", "new", str(workshop / "states.zip"), "--games", str(listing.PLAYCHECK_GAMES)],
            catch_exceptions=False,
        )
        assert done.exit_code == 0, done.output
        cli_decks = paths.DECKS_DIR
    ours, theirs = (sorted(p.relative_to(d) for p in d.rglob("*") if p.is_file()) for d in (studio_decks, cli_decks))
    assert ours == theirs and len(ours) > 5
    for relative in ours:
        assert (studio_decks / relative).read_bytes() == (cli_decks / relative).read_bytes(), relative


def test_the_studio_publishes_with_deck_news_default_games():
    assert next(p.default for p in commands.new.params if p.name == "games") == listing.PLAYCHECK_GAMES


def test_a_table_deck_checked_beside_its_fields_then_previewed_published_and_downloaded(workshop, monkeypatch):
    monkeypatch.setattr(listing, "PLAYCHECK_GAMES", 20)  # deck new's least, studio and CLI alike: no verdict judged
    with client() as browser:
        token = csrf(browser.get("/make").text)
        table = {"items.table": ("Länder.csv", table_bytes(), "text/csv")}
        page = browser.post("/make", data={**STATES, "csrf": token, "recipe.cards": "300"}, files=table).text
        draft = next((paths.OUTPUT_DIR / "studio").iterdir())
        assert sorted(p.name for p in draft.iterdir()) == ["form.json", "recipe.toml", "table.csv"]  # no states.toml
        try:  # the CLI's words for the same recipe, in the page's language (English)
            recipes.load(draft / drafts.RECIPE, lang="en")
        except recipes.RecipeError as exc:
            said = [line.split(": ", 1)[1] for line in exc.problems]
        assert problems(page) == {"recipe.cards": said} and "data:image/png" not in page
        assert 'aria-describedby="problem-recipe.cards-1 "' in page

        page = browser.post("/make", data={**STATES, "csrf": token}).text  # fixed; the table stays
        assert problems(page) == {} and page.count("data:image/png;base64,") == 2

        moved = browser.post("/make/publish", data={"csrf": token})
        assert moved.status_code == 303
        job = moved.headers["location"].rsplit("/", 1)[1]
        done = wait(browser, job)
        assert done["state"] == "done", done
        assert re.fullmatch(r"custom-states \d{4}\.\d+\.\d+: 20 cards; play-check (pass|undecided)", done["result"])
        assert "/games/custom-states" in browser.get("/").text

        recipe = browser.post("/games/custom-states/recipe", data={"csrf": token})
        assert recipe.status_code == 200
        assert sorted(zipfile.ZipFile(io.BytesIO(recipe.content)).namelist()) == ["states.toml", "table.csv"]
        assert_the_cli_makes_the_same_deck(recipe.content, workshop, monkeypatch)

        version = (paths.DECKS_DIR / "custom-states" / "LATEST").read_text(encoding="utf-8").strip()
        play_checked(browser, token, "custom-states", version, monkeypatch)
        moved = browser.post(f"/games/custom-states/{version}/print", data={"csrf": token, "what": "kit", "lang": "de"})
        job = moved.headers["location"].rsplit("/", 1)[1]
        assert wait(browser, job)["file"]
        kit = browser.get(f"/jobs/{job}/file")
    document = pypdfium2.PdfDocument(kit.content)
    assert len(document) > 4 and "Bundesländer toppen!" in document[0].get_textpage().get_text_range()


def test_a_table_s_problem_stands_beside_its_field_in_the_page_s_language(workshop):
    """The German recipe's bad cell, on a French page: the table reader's French line (the catalogue's)."""
    bad = table_bytes().decode("utf-8").replace("Bremen,Nord,419,", "Bremen,Nord,viel,").encode("utf-8")
    assert b"viel" in bad
    with client() as browser:
        token = csrf(browser.get("/make").text)
        browser.post("/language", data={"csrf": token, "lang": "fr", "back": "/make"})
        table = {"items.table": ("Länder.csv", bad, "text/csv")}
        page = browser.post("/make", data={**STATES, "csrf": token}, files=table).text
    row = translate_plural("fr", *tables.ROWS, 1, rows="6 (Bremen)")
    cell = {"column": "'Fläche (km²)'", "cell": "'viel'", "row": row, "language": "allemand", "example": "1.234,5"}
    french = translate("fr", numbers.NO_NUMBER, **cell)
    assert french != translate("en", numbers.NO_NUMBER, **cell)
    assert [html.unescape(line) for line in problems(page)["items.table"]] == [french]


def test_a_job_is_cancelled_and_another_session_cannot_see_it(built_in):
    with client() as browser, client() as other:
        token = csrf(browser.get("/").text)
        moved = browser.post(f"/games/laender-toppen/{built_in}/print", data={"csrf": token, "what": "kit"})
        address = moved.headers["location"]
        assert other.get(address).status_code == 404
        assert other.post(f"{address}/cancel", data={"csrf": csrf(other.get("/").text)}).status_code == 404
        browser.post(f"{address}/cancel", data={"csrf": token})
        assert browser.get(f"{address}/state").json()["state"] == "cancelled"
        assert browser.get(f"{address}/file").status_code == 404


def test_the_pages_words_are_in_the_language_the_user_chose(built_in):
    with client() as browser:
        token = csrf(browser.get("/").text)
        browser.post("/language", data={"lang": "de", "csrf": token})
        home, make = browser.get("/").text, browser.get("/make").text
        game = browser.get("/games/laender-toppen").text
    assert '<html lang="de">' in home and "Eingebaute Spiele" in home and "Deck machen" in make
    assert "Spalte der Namen" in make and "Werte und ihre Quellen" in game and "Built-in games" not in home
    assert 'aria-label="Kategorie 1: Bezeichnung"' in make  # a message with fields, filled in after translation
    assert "Die ersten 8 Karten sind gezeichnet" in game


@pytest.mark.mirror
def test_the_regions_page_lists_each_countrys_tier_and_builds_one_as_a_job(workshop):
    with client() as browser:
        page = browser.get("/regions").text
        assert '<td>FRA</td><td><a href="/regions/FRA">France</a></td>' in page and "no: too few places" in page
        assert "cannot be built" in browser.get("/regions/ABW").text
        assert browser.get("/regions/..%2Fx").status_code == 404
        token = csrf(page)
        assert browser.post("/regions/ABW/build", data={"csrf": token}).status_code == 404  # too few places
        assert browser.post("/regions/..%2Fx/build", data={"csrf": token}).status_code == 404
        address = browser.post("/regions/AUT/build", data={"csrf": token}).headers["location"]
        assert browser.get(address).status_code == 200
        browser.post(f"{address}/cancel", data={"csrf": token})
        assert browser.get(f"{address}/state").json()["state"] == "cancelled"


def test_a_fix_takes_a_category_out_of_the_draft_or_excludes_a_country(tmp_path):
    """The recipe's categories[2] is the form's third row where the second is empty (the recipe skips it); the
    rows below the one taken out move up; a country excluded once is excluded once."""
    rows: dict[str, str | list[str]] = {
        "categories[1].field": "a",
        "categories[2].field": "",
        "categories[3].field": "b",
    }
    drafts.save(
        tmp_path, rows | {"categories[4].field": "c", "categories[4].words.label": "C", "items.exclude": "DEU"}, None
    )
    drafts.change(tmp_path, fixes.Change("remove", "categories[2]"))
    drafts.change(tmp_path, fixes.Change("add", "items.exclude", "FRA"))
    drafts.change(tmp_path, fixes.Change("add", "items.exclude", "FRA"))
    assert drafts.values(tmp_path) == {
        "categories[1].field": "a",
        "categories[2].field": "",
        "categories[3].field": "c",
        "categories[3].words.label": "C",
        "items.exclude": "DEU FRA",
    }


def test_a_textareas_line_ends_from_the_browser_are_kept_as_newlines(tmp_path):
    """A form sends a textarea's lines ended by CR LF: kept as they came, the CR came back into the form shown as
    `\\x0d` and the jokers named no group on the next check."""
    drafts.save(tmp_path, {"recipe.jokers": "Nord / Süd\r\nOst / West"}, None)
    assert drafts.values(tmp_path) == {"recipe.jokers": "Nord / Süd\nOst / West"}


def test_a_recipe_s_problem_stands_beside_its_field_in_the_page_s_language(workshop):
    """The German recipe's count out of the game's range, on a French page: the recipe reader's French line."""
    with client() as browser:
        token = csrf(browser.get("/make").text)
        browser.post("/language", data={"csrf": token, "lang": "fr", "back": "/make"})
        table = {"items.table": ("Länder.csv", table_bytes(), "text/csv")}
        page = browser.post("/make", data={**STATES, "recipe.cards": "500", "csrf": token}, files=table).text
    rules = recipes.games()["laender-toppen"]
    lines = {
        lang: translate_plural(
            lang,
            *recipes.CARDS_RANGE,
            4,
            cards=500,
            game="laender-toppen",
            low=8,
            high=200,
            total=504,
            fix=recipes.reach(rules, 500, 4, more_items=False, lang=lang),
        )
        for lang in ("fr", "en")
    }
    assert lines["fr"] != lines["en"] and "recipe.cards" in lines["fr"]
    assert [html.unescape(line) for line in problems(page)["recipe.cards"]] == [lines["fr"]]
