"""The teacher's path in a real browser (Debian's Chromium, driven by Playwright): upload a table, see its error
beside its field, fix it, see the first card, publish, print the kit and download it. Each page is taken as a
screenshot; with GEODECK_STUDIO_SCREENSHOTS=DIR they are kept there (docs/studio/: `make studio-screenshots`)."""

import os
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest
import uvicorn
from fixtures.tiny.decks import synthetic

from pipeline import paths
from pipeline.review import browser as chromium
from pipeline.studio import app, listing
from studio.pages import STATES, table_bytes

playwright = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install playwright)")
axe = pytest.importorskip("axe_playwright_python.sync_playwright", reason="pip install axe-playwright-python")
AXE = axe.Axe()
FLAGS = [
    "--headless",
    "--no-sandbox",  # Chromium refuses its sandbox as root (CI containers); the pages are the test's own
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
WIDTH, HEIGHT = 1280, 900
SWEPT = [  # Bremen is the lowest in the first three: play-check refuses the deck, naming them
    ("Fläche (km²)", "Fläche"),
    ("Einwohner (Mio.)", "Einwohner"),
    ("Höchster Punkt (m)", "Höchster Punkt"),
    ("Hauptstadt Breite (° N)", "Breite"),
]
TEXT = [key for key in STATES if key not in ("recipe.game", "recipe.lang")]


@pytest.fixture
def served(built_in):
    """The studio served on a free loopback port in this process (the test's folders), its address."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app.create(), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    end = time.monotonic() + 30
    while not server.started and time.monotonic() < end:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(30)


@pytest.fixture(scope="module")
def browser():
    """One Chromium for the module's tests (each test has a context of its own: no cookie or page shared)."""
    program = chromium.executable()
    if program is None:
        pytest.skip(f"no Chromium found (looked for {', '.join(chromium.NAMES)}); install it: apt-get install chromium")
    with playwright.sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=program, args=FLAGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT}, accept_downloads=True)
    yield context.new_page()
    context.close()


def shot(page, name: str, tmp_path: Path) -> None:
    """The page checked for accessibility by axe-core (labels, contrast, roles, keyboard use: no violation),
    then a screenshot of it, kept in $GEODECK_STUDIO_SCREENSHOTS when set."""
    found = AXE.run(page).response["violations"]
    assert not found, f"{name}: " + "; ".join(f"{v['id']}: {[n['target'] for n in v['nodes']][:3]}" for v in found)
    path = tmp_path / f"{name}.png"
    page.screenshot(path=path)
    if kept := os.environ.get("GEODECK_STUDIO_SCREENSHOTS"):
        Path(kept).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, Path(kept) / path.name)


def field(page, key: str):
    return page.locator(f'[id="{key}"]')


@pytest.fixture
def countries(workshop, mirror):
    """The geo stage's outputs in the test's build folder: the synthetic country table under real codes, whose
    cards print (flags and maps through the snapshot mirror)."""
    synthetic.write_inputs(workshop / "build", synthetic.printable_countries_table())


def test_browsing_a_built_in_deck_its_cards_values_and_changes(served, page, built_in, tmp_path, mirror):
    source = paths.ROOT / "output" / "decks" / "laender-toppen"
    older = sorted(p.name for p in source.iterdir() if p.is_dir() and p.name != built_in)[-1]
    shutil.copytree(source / older, paths.DECKS_DIR / "laender-toppen" / older)
    page.goto(served + "/")
    page.get_by_role("link", name="laender-toppen").click()
    images = page.locator(".cards img")
    assert images.count() == 16  # the first 8 cards, front and back
    assert images.first.evaluate("image => image.decode().then(() => image.naturalWidth)") == 273
    shot(page, "game", tmp_path)
    page.locator("details summary").first.click()
    assert page.locator("details[open] td", has_text="factbook").count() > 0
    shot(page, "values", tmp_path)
    page.get_by_role("link", name="What changed in this version").click()
    assert f"{older} → {built_in}" in page.locator("h1").inner_text()
    shot(page, "diff", tmp_path)
    page.select_option("#lang", "de")
    page.get_by_role("button", name="Switch").click()
    assert page.locator("html").get_attribute("lang") == "de"
    page.goto(served + "/make")
    assert page.locator('label[for="items.table"]').inner_text() == "Deine Tabelle (CSV oder XLSX)"
    shot(page, "make-de", tmp_path)


def test_the_teachers_path_upload_fix_preview_publish_print_download(served, page, tmp_path, monkeypatch):
    monkeypatch.setattr(listing, "PLAYCHECK_GAMES", 20)  # deck new's least: the test judges no verdict
    broken = tmp_path / "Bundesländer.csv"
    broken.write_bytes(table_bytes().replace(b"Bremen,Nord,419,", b"Bremen,Nord,vierhundert,"))
    fixed = tmp_path / "Bundesländer-korrigiert.csv"
    fixed.write_bytes(table_bytes())

    page.goto(served + "/")
    shot(page, "home", tmp_path)
    page.get_by_role("link", name="Make a deck").first.click()
    page.select_option('[id="recipe.game"]', "laender-toppen")
    page.select_option('[id="recipe.lang"]', "de")
    for key in TEXT:
        field(page, key).fill(STATES[key])
    field(page, "items.table").set_input_files(broken)
    problem = page.locator('[data-field="items.table"] .problem')
    problem.wait_for(timeout=60_000)
    assert "Bremen" in problem.inner_text() and "vierhundert" in problem.inner_text()
    assert field(page, "items.table").get_attribute("aria-invalid") == "true"
    assert field(page, "recipe.title").input_value() == STATES["recipe.title"]  # what was typed stays
    shot(page, "make-error", tmp_path)

    field(page, "items.table").set_input_files(fixed)
    preview = page.locator(".preview img").first
    preview.wait_for(timeout=120_000)
    assert page.locator(".problem").count() == 0
    shot(page, "make-preview", tmp_path)

    page.locator("#publish").click()
    page.wait_for_url("**/jobs/*")
    page.locator('#job[data-state="done"], #job[data-state="failed"]').wait_for(timeout=300_000)
    assert page.locator("#job").get_attribute("data-state") == "done", page.locator("#job-result").inner_text()
    assert "custom-states" in page.locator("#job-result").inner_text()
    shot(page, "publish", tmp_path)

    page.goto(served + "/games/custom-states")
    page.locator(".cards img").first.evaluate("image => image.decode()")
    shot(page, "deck", tmp_path)
    page.select_option("#what", "kit")
    page.get_by_role("button", name="Make it").click()
    page.wait_for_url("**/jobs/*")
    page.locator("#job-file:not([hidden])").wait_for(timeout=300_000)
    shot(page, "kit", tmp_path)
    with page.expect_download() as download:
        page.locator("#job-file").click()
    kit = Path(download.value.path())
    assert kit.read_bytes().startswith(b"%PDF") and download.value.suggested_filename.endswith(".pdf")
    first = (paths.DECKS_DIR / "custom-states" / "LATEST").read_text(encoding="utf-8").strip()

    changed = tmp_path / "Bundesländer-neu.csv"  # Bremen ten times as large: a suspicious change
    changed.write_bytes(table_bytes().replace(b"Bremen,Nord,419,", b"Bremen,Nord,4190,"))
    page.goto(served + "/make")
    with page.expect_response(lambda answer: answer.url.endswith("/make") and answer.request.method == "POST"):
        field(page, "items.table").set_input_files(changed)
    page.locator("#publish, .problem").first.wait_for(timeout=120_000)
    assert page.locator(".problem").count() == 0, page.locator(".problem").all_inner_texts()
    page.locator("#publish").click()
    page.wait_for_url("**/jobs/*")
    page.locator("#fixes").wait_for(timeout=300_000)
    assert "suspicious change" in page.locator("#job-result").inner_text()
    page.get_by_label("Why publish it anyway (kept in its changelog)").fill("Bremen mit Bremerhaven gezählt")
    page.get_by_role("button", name="Publish with this reason").click()
    page.locator('#job[data-state="done"], #job[data-state="failed"]').wait_for(timeout=300_000)
    assert page.locator("#job").get_attribute("data-state") == "done", page.locator("#job-result").inner_text()
    latest = (paths.DECKS_DIR / "custom-states" / "LATEST").read_text(encoding="utf-8").strip()
    assert latest != first  # as `deck new --accept` publishes it, the reason in its changelog
    assert "Bremen mit Bremerhaven gezählt" in (paths.DECKS_DIR / "custom-states" / latest / "CHANGELOG.md").read_text()


def test_a_refused_deck_offers_its_fix_as_a_button_that_changes_the_draft(served, page, tmp_path):
    """Area, inhabitants, highest point and latitude: Bremen is the lowest in the first three, play-check refuses
    the deck (deck new's 200 games) naming them; the fix's button takes one out (the rows below move up), and the
    draft is checked and drawn again."""
    table = tmp_path / "Bundesländer.csv"
    table.write_bytes(table_bytes())
    chosen = {key: value for key, value in STATES.items() if not key.startswith("categories[")}
    for n, (column, label) in enumerate(SWEPT, 1):
        chosen |= {f"categories[{n}].field": column, f"categories[{n}].words.label": label}
        chosen[f"categories[{n}].words.unit"] = "{n}"
    page.goto(served + "/make")
    page.select_option('[id="recipe.game"]', "laender-toppen")
    page.select_option('[id="recipe.lang"]', "de")
    for key in (key for key in chosen if key not in ("recipe.game", "recipe.lang")):
        field(page, key).fill(chosen[key])
    field(page, "items.table").set_input_files(table)
    page.locator(".preview img").first.wait_for(timeout=120_000)
    page.locator("#publish").click()
    page.wait_for_url("**/jobs/*")
    page.locator("#fixes").wait_for(timeout=300_000)  # the page reloads with the refusal's fixes
    assert "Bremen" in page.locator("#fixes li").first.inner_text()
    buttons = page.locator("#fixes button")
    assert [buttons.nth(n).inner_text() for n in range(buttons.count())] == [
        "Take out category 1 (Fläche) and check again",
        "Take out category 2 (Einwohner) and check again",
        "Take out category 3 (Höchster Punkt) and check again",
    ]
    shot(page, "refused", tmp_path)
    buttons.nth(2).click()
    page.wait_for_url("**/make")
    assert field(page, "categories[3].field").input_value() == "Hauptstadt Breite (° N)"
    assert field(page, "categories[3].words.label").input_value() == "Breite"
    assert field(page, "categories[4].field").input_value() == ""
    assert page.locator(".preview img").count() == 2 and page.locator(".problem").count() == 0


def test_a_recipe_of_countries_its_categories_picked_from_the_list_and_its_first_card_drawn(
    countries, served, page, tmp_path
):
    """Countries (no table): the draft's preview reads the stage outputs' country table; each category is one of
    the field table's, its words filled in from the list in the deck's language, and what is typed over them
    stays."""
    page.goto(served + "/make")
    page.select_option('[id="recipe.game"]', "laender-toppen")
    page.select_option('[id="recipe.lang"]', "de")
    page.locator('#category-fields option[data-label="Fläche"]').wait_for(state="attached")
    field(page, "recipe.name").fill("europa")
    field(page, "recipe.title").fill("Europa toppen!")
    field(page, "recipe.cards").fill("12")
    page.get_by_label("Europe", exact=True).check()
    assert page.locator('#category-fields option[value="highest_point_m"]').get_attribute("label") == (
        "Höchster Berg (highest_point_m)"
    )
    field(page, "categories[3].words.label").fill("Höchster Gipfel")  # typed before its field is chosen: it stays
    for n, name in enumerate(("area_km2", "population", "highest_point_m", "life_expectancy"), 1):
        field(page, f"categories[{n}].field").fill(name)
        field(page, f"categories[{n}].field").press("Tab")
    assert field(page, "categories[1].words.label").input_value() == "Fläche"
    assert field(page, "categories[1].words.unit").input_value() == "{n} km²"
    assert field(page, "categories[2].words.label").input_value() == "Einwohner"
    assert field(page, "categories[2].words.unit").input_value() == "{n}"  # the deck's millions need a scale
    assert field(page, "categories[3].words.label").input_value() == "Höchster Gipfel"
    assert field(page, "categories[3].words.unit").input_value() == "{n} m"
    field(page, "categories[4].field").fill("capital_temp_c")  # another field: the words it filled in follow it
    field(page, "categories[4].field").press("Tab")
    assert field(page, "categories[4].words.label").input_value() == "Hauptstadttemperatur"
    assert field(page, "categories[4].words.unit").input_value() == "{n} °C"
    page.locator(".preview img").first.wait_for(timeout=120_000)
    assert page.locator(".problem").count() == 0
    shot(page, "make-countries", tmp_path)


@pytest.mark.mirror
def test_the_regions_page_picks_a_country_on_the_map_or_in_the_list_and_says_its_tier(served, page, tmp_path):
    page.goto(served + "/regions")
    countries = page.locator("#world a")
    assert countries.count() > 200  # Natural Earth's outlines of the listed countries
    assert countries.count() == page.locator('#world a[aria-label*=": "] path title').count()  # each one named
    austria = page.locator('#world a[href="/regions/AUT"]')
    assert austria.get_attribute("aria-label") == "Austria: reviewed"
    assert austria.locator("path").get_attribute("class") == "tier tier-reviewed"  # its own shade and pattern
    assert page.locator("#world .tier-cannot").count() > 0 and page.locator("#world .tier-not-built").count() > 0
    shot(page, "regions", tmp_path)
    page.get_by_label("Find a country").fill("Austria")
    shown = page.locator("#regions tbody tr:not([hidden])")
    assert shown.count() == 1 and "not built here" in shown.inner_text()
    assert shown.get_by_role("button", name="Build the deck of Austria").is_visible()
    austria.focus()  # a link of the map, reached and followed with the keyboard
    page.keyboard.press("Enter")
    page.wait_for_url("**/regions/AUT")
    assert page.locator("#tier").inner_text() == "reviewed"
    assert "not built here" in page.locator("#why").inner_text()
    assert page.get_by_role("button", name="Build the deck of Austria").is_visible()
    shot(page, "region", tmp_path)


def test_a_game_against_the_bots_played_to_its_end(served, page, tmp_path, mirror):  # its cards drawn: the flags
    page.goto(served + "/play")
    page.select_option("#play-game", "laender-toppen")
    page.locator("#players").fill("4")  # the human plays a quarter of the cards: a short game
    page.get_by_role("button", name="Start the game").click()
    for move in range(500):
        if page.locator("#ended").count():
            break
        if move == 3:
            hand = page.locator(".seen").first
            assert hand.locator("h2").inner_text() == "Your hand" and hand.locator("img").count() > 0
            assert hand.locator("img").first.get_attribute("alt")  # each card's name, its text alternative
            card = hand.locator("img").first
            assert card.evaluate("image => image.decode().then(() => image.naturalWidth)") == 273  # the renderer's
            page.evaluate("window.scrollTo(0, 0)")
            shot(page, "play", tmp_path)
        page.locator("#answer").fill("1")
        page.locator("#answer").press("Enter")
        page.wait_for_load_state()
    assert page.locator("#ended").inner_text().startswith("The game is over.")
    shot(page, "play-over", tmp_path)
    with page.expect_download() as download:
        page.get_by_role("link", name="Download its record").click()
    assert download.value.suggested_filename.startswith("laender-toppen-")
