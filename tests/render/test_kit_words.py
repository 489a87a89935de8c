"""Issue 43: a kit says what its cards print, in every registered language. The Länder toppen card legend
names the language of the second name the cards print (one setting, `[second_name]`), and every rules page's
worked example names its cards as they print them, with their printed numbers (no PDF: the text the rules
page draws, `rules.example_text`)."""

import re

import pytest
from babel import Locale

from pipeline import markup
from pipeline.decks import published, translated
from pipeline.decks.spec import load_spec
from pipeline.games import registry as games
from pipeline.games.laender_toppen import accessories
from pipeline.games.laender_toppen import cards as lt_cards
from pipeline.i18n import registry
from pipeline.render import layouts, rules
from pipeline.render import ports as render_ports
from pipeline.text import shown

LANGS = registry.codes()


def _language_name(lang: str, of: str) -> str:
    """CLDR's name in `lang` of the language `of`, its stem (Englisch, englische; angielski, angielska)."""
    return Locale.parse(registry.language(lang).locale).languages[of][:5].casefold()


def _as_printed(definition, lang: str) -> dict:
    """The game's published deck as the kit prints it in `lang`: its names taken from its cards where it
    predates the language (a new catalogue)."""
    deck = published.deck(definition)[1]
    return translated.completed(deck, load_spec(definition), registry.language(lang), definition.made_by)[0]


@pytest.mark.parametrize("lang", LANGS)
def test_the_card_legend_names_the_language_of_the_second_name_the_cards_print(lang):
    game = games.get("laender-toppen")
    layout, deck = layouts.load(game, registry.language(lang)), _as_printed(game, lang)
    legend = markup.fill(layout.data["kit"]["words"]["anatomy"][1], **accessories.rules_words(deck, layout))
    named = [other for other in LANGS if other != lang and _language_name(lang, other) in legend.casefold()]
    assert len(named) == 1, f"{lang}: the legend {legend!r} names {named}, not one language"
    countries = [card["fields"] for card in deck["cards"] if card["kind"] != "joker"]
    seconds = [lt_cards.names(fields, layout, registry.language(lang))[1] for fields in countries]
    assert all(second in ("", fields[f"name_{named[0]}"]) for second, fields in zip(seconds, countries))
    assert sum(bool(second) for second in seconds) > len(countries) / 3  # the cards do print it


def _examples():
    for name in games.names():
        plan = layouts.load(games.get(name)).data.get("kit", {}).get("rules", {})
        if plan.get("example"):
            yield name


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", sorted(_examples()))
def test_every_rules_example_names_its_cards_and_numbers_as_they_print(game, lang):
    definition = games.get(game)
    layout, deck = layouts.load(definition, registry.language(lang)), _as_printed(definition, lang)
    plan = layout.data["kit"]["rules"]
    text = shown(
        re.sub(
            r"<[^>]+>",
            "",
            rules.example_text(
                render_ports.cards(definition),
                deck,
                plan,
                layout.data["kit"]["words"],
                registry.language(lang),
                layout,
            ),
        )
    )
    cards = rules.example_cards(deck, plan)
    names = [card["fields"][f"name_{lang}"] for card in cards]
    assert not [name for name in names if name not in text], f"{game} {lang}: {text}"
    others = {card["fields"].get(f"name_{other}") for card in cards for other in LANGS} - set(names) - {None}
    assert not [name for name in others if re.search(rf"\b{re.escape(name)}\b", text)], f"{game} {lang}: {text}"
    numbers = {str(value) for card in cards for value in card["fields"].values() if isinstance(value, int)}
    assert set(re.findall(r"\((\d+)\)", text)) <= numbers, f"{game} {lang}: {text}"


def test_both_kits_with_a_worked_example_are_checked():
    assert sorted(_examples()) == ["deutschland", "laender-toppen", "world-game"]


def test_the_worked_examples_claims_hold_for_the_cards_they_name():
    """What the example text says of its cards (the rulebook's orders) is true of the deck's values: the
    Deutschland places from north to south, the westernmost, easternmost, most and fewest inhabitants; the
    Länder toppen trick's largest area; the World Game's fact round won on area by A's card and the challenge
    answered with the capital the set card prints."""
    game = games.get("deutschland")
    deck = published.deck(game)[1]
    a, b, c, d, e = (card["fields"] for card in rules.example_cards(deck, layouts.load(game).data["kit"]["rules"]))
    assert a["ns"] < b["ns"] < c["ns"] < d["ns"] < e["ns"]
    assert min(a, b, c, d, e, key=lambda f: f["we"]) is b and max(a, b, c, d, e, key=lambda f: f["we"]) is c
    assert max(a, b, c, d, e, key=lambda f: f["population"]) is e
    assert min(a, b, c, d, e, key=lambda f: f["population"]) is a
    game = games.get("laender-toppen")
    deck = published.deck(game)[1]
    cards = [card["fields"] for card in rules.example_cards(deck, layouts.load(game).data["kit"]["rules"])]
    assert max(cards, key=lambda f: f["area_km2"]) is cards[2]  # C takes the trick
    game = games.get("world-game")
    deck = published.deck(game)[1]
    layout = layouts.load(game, registry.language("en"))
    a, b, _, d = (card["fields"] for card in rules.example_cards(deck, layout.data["kit"]["rules"]))
    assert a["area_km2"] > b["area_km2"]  # A takes both cards on area
    words = rules.example_words(
        render_ports.cards(game),
        rules.example_cards(deck, layout.data["kit"]["rules"]),
        registry.language("en"),
        layout,
    )
    assert words["d_capital"] == d["capitals_en"][0] == "Astana"
    assert words["a_area_km2"] == "8,515,770 km²"
