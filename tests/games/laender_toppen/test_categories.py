"""Länder toppen!'s categories are declared once, in its deck spec's `[[categories]]` in a recipe's form (issue 32
item 3): one more block in a copy of the templates is a category of the deck, the engine, the cards and the
strips."""

import dataclasses
import io
import os
import random
import shutil
import subprocess
import sys
import tomllib

import pytest
from fixtures.tiny.decks import synthetic
from fixtures.tiny.games.decks import laender_toppen, print_deck
from pdftext import pages
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from pipeline.decks import stage
from pipeline.decks.spec import load_spec
from pipeline.errors import GeodeckError
from pipeline.framework import core
from pipeline.games.laender_toppen import GAME, categories
from pipeline.games.laender_toppen import accessories as lt_accessories
from pipeline.games.laender_toppen import engine as lt
from pipeline.i18n import registry as languages
from pipeline.markup import Markup
from pipeline.paths import ROOT, TEMPLATES_DIR
from pipeline.render import accessories, fonts, layouts, printing, setup
from pipeline.render import ports as render_ports
from pipeline.render.accessories import AccessoryOptions
from pipeline.render.context import CardContext
from pipeline.render.printing import PrintOptions
from pipeline.render.rules import _place as place

LATITUDE = """
[[categories]]
field = "label_lat"
direction = "lower"
pattern = "#,##0.0"
decimals = 1
icon = "bars"
words = { label = "Latitude of the middle", unit = "{n}° N" }
"""


def templates(folder, block: str = ""):
    """A copy of the game's three templates in `folder`, `block` appended to its deck spec."""
    for kind in ("decks", "cards", "playcheck"):
        (folder / kind).mkdir(parents=True)
        shutil.copy(TEMPLATES_DIR / kind / "laender-toppen.toml", folder / kind)
    spec = folder / "decks" / "laender-toppen.toml"
    spec.write_text(spec.read_text(encoding="utf-8") + block, encoding="utf-8")
    return dataclasses.replace(GAME, templates=folder)


def test_a_category_added_to_the_built_in_deck_is_one_block(tmp_path, store, monkeypatch):
    game = templates(tmp_path / "templates", LATITUDE)
    spec = load_spec(game)
    assert spec.categories[-1] == "label_lat" and len(spec.categories) == len(load_spec(GAME).categories) + 1
    assert spec.kinds["country"][-1] == "label_lat"  # the kinds' `categories`: every category, in order
    root = synthetic.write_inputs(tmp_path / "build")
    deck = stage.fresh_deck(game, root)[1]
    countries = [c for c in deck["cards"] if c["kind"] == "country"]
    assert all(isinstance(c["fields"]["label_lat"], float) for c in countries)
    monkeypatch.setattr(categories, "SPEC", tmp_path / "templates" / "decks" / "laender-toppen.toml")
    categories.declared.cache_clear()
    try:
        engine = lt.Game.from_deck(deck, players=3)
    finally:
        categories.declared.cache_clear()
    assert engine.fields[-1] == "label_lat" and engine.slots == 2 * len(spec.categories)  # above and below
    south = min((c for c in deck["cards"] if c["kind"] != "joker"), key=lambda c: c["fields"]["label_lat"])
    ranks = engine.ranks[engine.slot_names.index("label_lat above")]  # lower: the southernmost wins above
    assert max(range(len(ranks)), key=lambda i: (ranks[i], -i)) == engine.ids.index(south["id"])
    state = engine.new_initial_state(random.Random(2))
    core.playout(state, [core.random_policy] * 3, random.Random(2))
    assert state.terminal
    layout = layouts.load(game, languages.language("de"))
    assert layout.data["categories"][-1]["field"] == "label_lat"
    few = {**deck, "cards": [c for c in countries if c["fields"]["iso3"] == "BRA"]}  # a real map and flag
    card_text = " ".join(pages(printing.render(game, few, PrintOptions(lang=languages.language("en")), store)))
    assert "Latitude of the middle" in card_text
    strips, _ = accessories.render(game, few, AccessoryOptions(lang=languages.language("en")), store)
    assert "Latitude of the middle" in " ".join(pages(strips))


def test_the_game_prints_and_plays_its_categories_from_the_deck_spec():
    assert [c["field"] for c in layouts.load(GAME).data["categories"]] == load_spec(GAME).categories
    assert [field for field, _ in categories.declared()] == load_spec(GAME).categories
    assert "categories" not in tomllib.loads((TEMPLATES_DIR / "cards" / "laender-toppen.toml").read_text("utf-8"))


@pytest.mark.parametrize(
    ("block", "problem"),
    [
        ('[[categories]]\nfield = "label_lat"\nicon = "moon"\nwords = { label = "L", unit = "{n}" }\n', "icon 'moon'"),
        ('[[categories]]\nfield = "label_lat"\nwords = { label = "L", unit = "°" }\n', "words.unit '°'"),
        ('[[categories]]\nicon = "bars"\nwords = { label = "L", unit = "{n}" }\n', "field is missing"),
    ],
)
def test_a_bad_category_of_the_deck_spec_is_one_line_naming_the_file(tmp_path, block, problem):
    game = templates(tmp_path / "templates", "\n" + block)
    with pytest.raises(GeodeckError) as error:
        load_spec(game)
        layouts.load(game)  # the pictograms are the renderer's: its layout checks them
    added = len(load_spec(GAME).categories) + 1  # the block's place, after the spec's own
    assert f"laender-toppen.toml: categories[{added}]" in str(error.value) and problem in str(error.value)


@pytest.mark.parametrize(("width_mm", "bands"), [(400, range(1, 2)), (110, range(2, 9))])
def test_the_kit_s_setup_strip_takes_as_many_bands_as_its_labels_need(store, width_mm, bands):
    """The setup picture's strip has a cell per category; where the labels no longer fit their cells (the six
    in German at 110 mm: 'Hauptstadttemperatur' in a 22 mm cell), it comes in bands, every label whole."""
    layout = layouts.load(GAME, languages.language("de"))
    ctx = CardContext(layout, languages.language("de"), 0, store)
    rows = [[["strip", "back", 3, "country"]]]
    deck = print_deck(GAME.name)  # real countries, with their flags
    picture = setup.Setup(render_ports.cards(GAME), deck, ctx, rows, [Markup("strip")], style(), place)
    _, height = picture.wrap(width_mm, 500)
    assert picture.bands in bands
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(width_mm * mm, height * mm))
    canvas.scale(mm, mm)
    picture.drawOn(canvas, 0, 0)
    canvas.save()
    words = " ".join(pages(out.getvalue()))
    assert all(c["words"]["label"] in words for c in ctx.layout.data["categories"]), words


def style():
    from reportlab.lib.styles import ParagraphStyle

    return ParagraphStyle("setup", fontName=fonts.register()[0], fontSize=2.5, leading=3)


def test_a_version_published_before_a_category_block_plays_the_categories_its_cards_carry(tmp_path, monkeypatch):
    """The engine takes the deck spec's categories its cards carry: a deck published before a block was added
    replays as it was played (the golden records); a card lacking a category the others have is an error."""
    templates(tmp_path / "templates", LATITUDE)
    monkeypatch.setattr(categories, "SPEC", tmp_path / "templates" / "decks" / "laender-toppen.toml")
    categories.declared.cache_clear()
    try:
        older = laender_toppen()
        assert "label_lat" not in lt.Game.from_deck(older).fields
        assert lt.Game.from_deck(older).fields == tuple(load_spec(GAME).categories)
        newer = laender_toppen()
        for i, card in enumerate(c for c in newer["cards"] if c["kind"] != "joker"):
            card["fields"]["label_lat"] = float(i) if i else None
        assert lt.Game.from_deck(newer).fields[-1] == "label_lat"
        del next(c for c in newer["cards"] if c["kind"] == "country")["fields"]["label_lat"]
        with pytest.raises(GeodeckError, match="card lt-\\S+ has no value of the category 'label_lat'"):
            lt.Game.from_deck(newer)
    finally:
        categories.declared.cache_clear()


def test_a_strip_in_three_pieces_says_its_turn_over_order_once(tmp_path, store):
    """Seven categories on Letter: each folded strip comes in three pieces; the title is on the first, the
    turn-over order on the second only."""
    game = templates(tmp_path / "templates", LATITUDE)
    cfg = layouts.load(game).data["accessories"]
    room = max(accessories.PAPERS_MM["letter"]) - 2 * float(cfg["side_mm"])
    assert len(lt_accessories.pieces(7, float(cfg["field_mm"]), float(cfg["glue_mm"]), room)) == 3
    data, _ = accessories.render(
        game, print_deck(GAME.name), AccessoryOptions(paper="letter", lang=languages.language("en")), store
    )
    strips = " ".join(pages(data)[:-1])  # the scoring sheet on the last page
    assert strips.count("Turn over") == int(cfg["strips"]) == strips.count("Latitude of the middle")


def test_the_tests_that_read_the_categories_pass_with_a_seventh_block():
    """A category is one block (and its words in the catalogues), no test edited: the tests of the engine, the
    rules' words, the categories and a played game pass with one more block in a copy of the templates
    (`fixtures.seventh_category`; `pytest -p fixtures.seventh_category` runs the whole suite so)."""
    here = "tests/games/laender_toppen"
    command = [sys.executable, "-m", "pytest", "-n", "0", "-p", "no:cacheprovider"]  # not -q: the header says the block
    command += ["-p", "fixtures.seventh_category", here, "tests/play/test_play.py", "-k", "laender or not test_play"]
    command += [
        "--deselect",
        f"{here}/test_categories.py::{test_the_tests_that_read_the_categories_pass_with_a_seventh_block.__name__}",
    ]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(ROOT / "tests"), str(ROOT)))}
    result = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env)
    assert result.returncode == 0 and "seventh category: label_lon in" in result.stdout, result.stdout[-3000:]
