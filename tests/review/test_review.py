"""`geodeck review`: which decks it compares, the page's content (summary, verdict, accept command, changed cards
suspicious first with provenance), the written folder, and the page in headless Chromium."""

import importlib.util
import json
import re
from datetime import date
from html import unescape
from pathlib import Path

import pytest
from catalogues import english_left
from fixtures.tiny.decks.synthetic import publish_then_refresh

from pipeline.decks import diff as diffing
from pipeline.decks import stage, translated
from pipeline.decks.spec import load_spec
from pipeline.errors import GeodeckError
from pipeline.extract import load_sources
from pipeline.games import registry as games
from pipeline.i18n import registry
from pipeline.paths import ROOT
from pipeline.review import browser, model, page

DAY = date(2026, 11, 29)
CITATIONS = {name: source.citation for name, source in load_sources().items()}

README = (ROOT / "README.md").read_text(encoding="utf-8")


@pytest.fixture
def refreshed(tmp_path, monkeypatch):
    """World Game 2026.11.0 published from the synthetic tables; build/ then holds Germany with 40 % more
    inhabitants (suspicious) and China 1 % larger (not suspicious)."""
    return publish_then_refresh(tmp_path, monkeypatch, DAY, {("DEU", "population"): 1.4, ("CHN", "area_km2"): 1.01})


def test_defaults_compare_the_unpublished_build_with_latest(refreshed):
    pair = model.resolve(games.get("world-game"), None, None)
    assert (pair.old["version"], pair.new.get("version")) == ("2026.11.0", None)
    content = model.review(load_spec(games.get("world-game")), pair, CITATIONS)
    assert (content["old"], content["new"], content["published"]) == ("2026.11.0", model.BUILD, False)
    assert [card["id"] for card in content["cards"]] == ["wg-DEU", "wg-CHN"]  # suspicious first, not deck order
    assert content["summary"]["suspicious changes"] == 1 and content["summary"]["changed cards"] == 2
    assert not content["verdict"]["passes"] and content["accept"] == 'geodeck build --accept "REASON"'
    [row] = content["cards"][0]["changes"]
    provenance = pair.new["cards"][[c["id"] for c in pair.new["cards"]].index("wg-DEU")]["provenance"]["population"]
    assert (row["field"], row["suspicious"], row["source"]) == ("population", True, provenance["source"])
    assert row["cells"][1] == diffing.number(row_new(pair, "wg-DEU", "population"))
    assert content["region"] == "continents" and content["cards"][1]["regions"] == ["Asia"]


def row_new(pair: model.Pair, card_id: str, field: str):
    return next(c for c in pair.new["cards"] if c["id"] == card_id)["fields"][field]


def test_an_accepted_build_then_compares_latest_with_the_version_before(refreshed):
    stage.build_deck(games.get("world-game"), DAY, accept="census revision")
    pair = model.resolve(games.get("world-game"), None, None)  # the build now equals LATEST
    assert (pair.old["version"], pair.new["version"]) == ("2026.11.0", "2026.11.1")
    assert model.resolve(games.get("world-game"), "2026.11.1", "2026.11.0").old["version"] == "2026.11.1"


def test_without_changes_the_gate_passes_and_plain_build_accepts(refreshed):
    stage.build_deck(games.get("world-game"), DAY, accept="census revision")
    content = model.review(
        load_spec(games.get("world-game")), model.resolve(games.get("world-game"), "2026.11.1", "2026.11.1"), {}
    )
    assert content["verdict"]["passes"] and content["accept"] == "geodeck build" and content["cards"] == []


def test_a_page_without_changed_cards(refreshed, tmp_path):
    written = page.write(games.get("world-game"), "2026.11.0", "2026.11.0", tmp_path / "review", store=None)
    html = written.path.read_text()
    assert written.changed == 0 and "passes: no suspicious change" in html and "<article" not in html
    assert not any((tmp_path / "review" / "cards").rglob("*.png"))


def test_a_first_version_or_an_unknown_one_is_a_user_error(refreshed, tmp_path):
    with pytest.raises(GeodeckError, match=r"2026\.11\.0 is its first version.*name OLD and NEW"):
        model.resolve(games.get("world-game"), None, None, build_root=tmp_path / "nothing built")
    with pytest.raises(GeodeckError, match=r"2031\.01\.0 does not exist; known versions of world-game: 2026\.11\.0"):
        model.resolve(games.get("world-game"), "2031.01.0", None)


def test_committed_refresh_suspicious_cards_first_with_sources_and_citations(decks, tmp_path):
    pair = model.resolve(
        games.get("laender-toppen"), "2026.11.0", "2026.11.1", build_root=tmp_path
    )  # the refresh
    assert (pair.old["version"], pair.new["version"]) == ("2026.11.0", "2026.11.1")
    content = model.review(load_spec(games.get("laender-toppen")), pair, CITATIONS)
    diff = diffing.diff_decks(load_spec(games.get("laender-toppen")), pair.old, pair.new)
    assert (
        content["summary"]["changed values"] == len(diff["changes"]) == sum(len(c["changes"]) for c in content["cards"])
    )
    assert content["summary"]["suspicious changes"] == sum(c["suspicious"] for c in diff["changes"]) > 0
    flags = [card["suspicious"] for card in content["cards"]]
    assert flags == sorted(flags, reverse=True) and flags[0]
    for card in content["cards"]:
        rows = [row["suspicious"] for row in card["changes"]]
        assert rows == sorted(rows, reverse=True)
        assert card["regions"] and all(row["source"] for row in card["changes"])
    cited = [row for card in content["cards"] for row in card["changes"] if row["source"] == "factbook"]
    assert cited and all(row["citation"] == CITATIONS["factbook"] for row in cited)
    assert content["added"] and {c["id"] for c in content["added"]} == set(diff["added"])


def test_a_derived_value_cites_both_sources():
    derived = {"source": "worldbank-population / factbook", "vintage": "2024"}
    card = {"id": "x", "kind": "country", "fields": {"v": 2}, "provenance": {"v": derived}}
    was = {**card, "fields": {"v": 1}, "provenance": {"v": {"source": "factbook", "vintage": "2023"}}}
    change = {"card": "x", "field": "v", "old": 1, "new": 2, "abs": 1, "rel": 1.0, "suspicious": False}
    [row] = model._card(was, card, [change], load_spec(games.get("world-game")), CITATIONS)["changes"]
    assert row["citation"] == f"{CITATIONS['worldbank-population']} {CITATIONS['factbook']}"
    assert row["was"] == {"source": "factbook", "vintage": "2023"}


@pytest.mark.mirror
def test_page_folder_cards_as_printed_deterministic(refreshed, store, geodeck, tmp_path):
    out = tmp_path / "review"
    code, output = geodeck(["review", "world-game", "--out", out, "--offline"])
    assert code == 0, output
    assert "2026.11.0 → unpublished build, 2 changed cards" in output
    html = (out / "index.html").read_text()
    for side in ("old", "new"):
        image = out / "cards" / side / "wg-DEU.png"
        assert image.read_bytes().startswith(b"\x89PNG") and f'src="cards/{side}/wg-DEU.png"' in html
    assert html.index("wg-DEU") < html.index("wg-CHN") and "geodeck build --accept &#34;REASON&#34;" in html
    first = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    code, _ = geodeck(["review", "world-game", "--out", out, "--offline", "--lang", "de"])  # its own is English
    assert code == 0 and {p.relative_to(out) for p in out.rglob("*") if p.is_file()} == set(first)
    assert (out / "cards/new/wg-DEU.png").read_bytes() != first[Path("cards/new/wg-DEU.png")]
    code, _ = geodeck(["review", "world-game", "--out", out, "--offline"])
    assert code == 0 and {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()} == first
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no staging folder left


def test_out_must_be_a_new_empty_or_review_folder(refreshed, geodeck, tmp_path):
    taken = tmp_path / "notes"
    taken.mkdir()
    (taken / "todo.txt").write_text("keep me")
    code, output = geodeck(["review", "world-game", "--out", taken])
    assert code == 2 and "--out" in output and "holds files geodeck did not write" in output
    assert "Traceback" not in output and (taken / "todo.txt").read_text() == "keep me"


@pytest.mark.mirror
def test_a_card_the_renderer_refuses_gets_its_message(refreshed, store):
    deck = stage.fresh_deck(games.get("world-game"))[1]
    good, bad = deck["cards"][:2]
    bad = {**bad, "fields": {**bad["fields"], "flag": "../../etc/passwd"}}
    images = page.card_images(
        games.get(deck["game"]), {**deck, "cards": [good, bad]}, [good["id"], bad["id"]], store, None
    )
    image, message = images[good["id"]], images[bad["id"]]
    assert isinstance(image, bytes) and image.startswith(b"\x89PNG")
    assert isinstance(message, str) and "not drawable with today's renderer" in message and "flag" in message


WATCH = """<!DOCTYPE html><iframe id="f" src="index.html" width="1280" height="1400"></iframe><pre id="seen"></pre>
<script>
document.getElementById("f").addEventListener("load", () => {
  const doc = document.getElementById("f").contentDocument, win = document.getElementById("f").contentWindow;
  const shown = (el) => !!el && el.checkVisibility() && el.getBoundingClientRect().width > 0;
  const text = (el) => (shown(el) ? el.innerText : null);
  const first = doc.querySelector("article.card");
  const seen = {
    summary: text(doc.getElementById("summary")), verdict: text(doc.getElementById("verdict")),
    accept: text(doc.getElementById("accept")), first: first && first.querySelector("h3").innerText,
    images: [...first.querySelectorAll("img")].map((i) => shown(i) && i.complete && i.naturalWidth > 0),
    top: doc.getElementById("summary").getBoundingClientRect().top < win.innerHeight,
  };
  doc.getElementById("region").value = "Asia";
  doc.getElementById("region").dispatchEvent(new Event("change"));
  seen.asia = [...doc.querySelectorAll("article.card")].filter(shown).map((c) => c.querySelector("h3").innerText);
  doc.getElementById("only-suspicious").click();
  seen.asiaSuspicious = text(doc.getElementById("shown"));
  document.getElementById("seen").textContent = JSON.stringify(seen);
});
</script>"""


@pytest.mark.mirror
def test_page_in_headless_chromium(refreshed, store, tmp_path):
    """The page as a browser shows it: summary, verdict and accept command visible, the first card's old and new
    images loaded, the filters working; and a screenshot (printed path) to look at."""
    if browser.executable() is None:
        pytest.skip("chromium not found: install it with `apt-get install chromium` (.ci/run does)")
    out = tmp_path / "review"
    page.write(games.get("world-game"), None, None, out, store)
    (out / "watch.html").write_text(WATCH)
    dom = browser.dump_dom(out / "watch.html")
    seen = json.loads(unescape(re.search(r'<pre id="seen">(.*?)</pre>', dom, re.S).group(1)))  # type: ignore[union-attr]
    assert "suspicious changes" in seen["summary"] and "2\nchanged cards" in seen["summary"] and seen["top"]
    assert "needs --accept" in seen["verdict"] and 'geodeck build --accept "REASON"' in seen["accept"]
    assert seen["first"].startswith("Germany wg-DEU") and seen["images"] == [True, True]  # its name in the language
    assert seen["asia"] == ["China wg-CHN"] and seen["asiaSuspicious"] == "0 of 2 changed cards"
    screenshot = tmp_path / "review.png"
    browser.screenshot(out / "index.html", screenshot)
    assert screenshot.read_bytes().startswith(b"\x89PNG")
    print(f"screenshot: {screenshot}")


def test_resolve_reads_each_deck_once(decks, monkeypatch):
    """Issue 29: the review read the deck it compares (NEW) twice, once more as LATEST."""
    from pipeline.decks import published

    reads: list[str] = []
    real = published.read

    def read(path, game=None):
        reads.append(path.parent.name)
        return real(path, game)

    monkeypatch.setattr(published, "read", read)
    pair = model.resolve(games.get("world-game"), "2026.11.1", "2026.12.4")
    assert (pair.old["version"], pair.new["version"]) == ("2026.11.1", "2026.12.4")
    assert sorted(reads) == ["2026.11.1", "2026.12.4"]


@pytest.mark.parametrize("lang", [code for code in registry.codes() if code != registry.source()])
def test_the_page_speaks_the_language_asked_for(refreshed, lang):
    """Issue 30: the page's words are messages (jinja2's i18n extension); `--lang` shows them in its language,
    English (the source language) by default."""
    content = model.review(load_spec(games.get("world-game")), model.resolve(games.get("world-game"), None, None), {})
    images: dict[str, dict[str, bytes | str]] = {
        side: {c["id"]: "–" for c in content["cards"]} for side in ("old", "new")
    }
    english, translated = page.html(content, images), page.html(content, images, registry.language(lang))
    visible = re.sub(r"<(script|style).*?</\1>|<[^>]+>", " ", translated, flags=re.S)
    for data in [content["region"], *content["regions"]]:  # the deck's region field and its values, as they are
        visible = visible.replace(f" {data} ", " ")
    assert english_left(unescape(visible), lang) == []
    name = content["cards"][0]["names"][lang]  # a card is named in the language asked for (Niemcy, Allemagne)
    assert f"<h3>{name} <small>wg-DEU</small>" in translated and "<h3>Germany <small>wg-DEU</small>" in english
    assert 'lang="en"' in english and "Build gate: needs --accept" in english and "unpublished build" in english


def test_cards_whose_face_changed_come_first_and_the_others_are_marked():
    cards = [{"id": i, "suspicious": s} for i, s in (("a", True), ("b", True), ("c", False), ("d", False))]
    images: dict[str, dict[str, bytes | str]] = {"old": {"a": b"same", "b": b"old", "c": b"same", "d": b"old"}}
    images["new"] = {"a": b"same", "b": b"new"}
    images["new"] |= {"c": b"same", "d": b"new"}
    shown = page._face_changes_first(cards, images)
    assert [(c["id"], c["face_changed"]) for c in shown] == [("b", True), ("d", True), ("a", False), ("c", False)]


def test_an_old_version_is_drawn_with_the_names_its_cards_give():
    """Länder toppen 2026.11.0 predates the `<field>_<lang>` names: its capital and peak keep their base field
    (`capital`), from which every card gets its names in each language, so the README's review draws it."""
    game = games.get("laender-toppen")
    old = model.resolve(game, "2026.11.0", "2026.11.1").old
    spec = load_spec(game)
    for lang in registry.codes():
        named, note = translated.completed(old, spec, registry.language(lang), game.made_by)
        assert note and "predates" in note
        countries = [c for c in named["cards"] if c["kind"] == "country"]
        assert all(c["fields"].get(f"capital_{lang}") for c in countries), lang
        assert lang in translated.languages(named, spec)


def test_the_readme_picture_is_of_the_review_the_readme_shows():
    """docs/previews/review.png is made (make previews) from the README's example command, whose versions its
    caption names."""
    found = importlib.util.spec_from_file_location("regenerate", ROOT / "docs" / "previews" / "regenerate.py")
    assert found and found.loader
    regenerate = importlib.util.module_from_spec(found)
    found.loader.exec_module(regenerate)
    game, old, new = regenerate.readme_review()
    caption = re.search(r"!\[The review page of (.+?) (\S+) → (\S+)\]\(docs/previews/review.png\)", README)
    assert caption and (caption[2], caption[3]) == (old, new) and caption[1] == load_spec(games.get(game)).title
