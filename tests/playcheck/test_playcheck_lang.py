"""play-check --lang (issue 30): the report's words (labels, verdicts, reasons, details, counts) in a registered
language with its number formats, its JSON keys and figures as in the source language; an unregistered
language refused in one line."""

import io
import re

import pytest
from catalogues import english_left
from fixtures.tiny.games.decks import deutschland
from rich.console import Console

from pipeline.games import registry as games
from pipeline.i18n import registry
from pipeline.i18n.catalogue import translate
from pipeline.playcheck import config as thresholds
from pipeline.playcheck import plots
from pipeline.playcheck import report as reports
from pipeline.playcheck import runner as playcheck

GERMAN = "de"  # the catalogue filled with the report's words on this branch


@pytest.fixture(scope="module")
def checked() -> dict[str, dict]:
    """The same check (the tiny Deutschland deck, one look) in the source language and in German."""
    game, deck = games.get("deutschland"), deutschland()
    return {
        lang: playcheck.check(game, deck, games=20, seed=1, lang=registry.language(lang))
        for lang in (registry.source(), GERMAN)
    }


def _keys(document) -> list:
    """Every key of a JSON document, nested ones by their path (list positions left out)."""
    if isinstance(document, dict):
        return [(key, *inner) for key, value in sorted(document.items()) for inner in [(), *_keys(value)]]
    if isinstance(document, list):
        return [path for value in document for path in _keys(value)]
    return []


def _figures(report: dict) -> list:
    return [(v["value"], v["low"], v["high"], v["band"], v["result"], v["playouts"]) for v in report["verdicts"]]


def test_a_german_report_has_no_english_message_left(checked):
    german = checked[GERMAN]
    markdown = reports.to_markdown(german, {name: f"{name}.png" for name in plots.PLOTS}, registry.language(GERMAN))
    console = Console(width=400, record=True, file=io.StringIO())
    console.print(reports.to_rich(german, registry.language(GERMAN)))
    for text in (markdown, console.export_text()):
        words = re.sub(r"--[\w-]+|\]\([^)]*\)", "", text)  # an option's name (--max-games), a plot's file: no words
        assert english_left(words, GERMAN, ("report:", "deutschland:")) == [], text
        assert not re.search(r"(?<![\d.])0\.\d", text) and re.search(r"(?<![\d.])0,\d{3}", text)  # 0,512
    assert translate(GERMAN, "Why these bands:") in markdown
    assert plots.ties(german, registry.language(GERMAN)).startswith(
        b"\x89PNG"
    )  # its allowed limits found by the German names


def test_only_the_words_change_not_the_keys_or_the_figures(checked):
    english, german = checked[registry.source()], checked[GERMAN]
    assert _keys(german) == _keys(english) and list(german["playouts"]) == list(english["playouts"])
    assert _figures(german) == _figures(english)
    names = [(e["name"], g["name"]) for e, g in zip(english["verdicts"], german["verdicts"])]
    assert all(e != g for e, g in names), names  # every verdict's name is in German
    assert "Why these bands:" in reports.to_markdown(english)  # the source language's report as it was


def test_a_games_own_verdict_words_come_from_its_template_in_the_language():
    config = thresholds.load(games.get("laender-toppen"))
    english, german = config.speaking(None), config.speaking(registry.language(GERMAN))
    assert english.text("skill.words.knowing", players=4) == "knowing the values: expert vs blind, 4 players"
    assert (
        german.text("skill.words.knowing", players=4)
        == translate(GERMAN, english.get("skill.words.knowing"), "laender-toppen:skill.words.knowing", players=4)
        != english.text("skill.words.knowing", players=4)
    )
    assert german.get("skill.min_taken_share") == english.get("skill.min_taken_share")  # thresholds are not words


def test_play_check_refuses_an_unregistered_language_in_one_line(geodeck):
    code, output = geodeck(["play-check", "deutschland", "--lang", "xx"])
    assert code == 2 and len(output.strip().splitlines()) == 1, output
    assert "'xx'" in output and f"geodeck has {', '.join(registry.codes())};" in output, output
