"""The kit's rules summaries are complete: every rule of the game's rulebook (../shared/rules/, listed rule by
rule in fixtures/kit_rules.toml) is found in the summary's text in both languages (`[kit.de]` / `[kit.en]`
rules of the game's card layout, the text the kit prints, and the table it sets beside them, row by row)."""

import re
import tomllib
from pathlib import Path

import pytest

from pipeline.decks import published
from pipeline.games import registry as games
from pipeline.i18n import registry as languages
from pipeline.render import layouts
from pipeline.render import ports as render_ports

LISTED = tomllib.loads((Path(__file__).parents[1] / "fixtures" / "kit_rules.toml").read_text(encoding="utf-8"))
REGION_START = "the starting player: most recently in another state"  # a region names its own parts instead
RULES: dict[str, dict[str, dict[str, list[str]]]] = {
    **LISTED,
    "region-fra": {
        **{rule: words for rule, words in LISTED["deutschland"].items() if rule != REGION_START},
        **LISTED["region-fra"],
    },
}


def _summary(game: str, lang: str) -> str:
    layout = layouts.load(games.get(game), languages.language(lang))
    kit = layout.data["kit"]
    table = kit.get("rules", {}).get("table") or kit["words"].get("table") or []
    rows = [kit["words"].get("table_header", []), *table]
    own = render_ports.rules_words(render_ports.accessories(games.get(game)))  # the published deck's own words in them
    fields = own(published.deck(games.get(game))[1], layout) if own else {}
    rules = [paragraph.format(**fields) for paragraph in kit["words"]["rules"]]
    parts = [*rules, *(" ".join(str(cell) for cell in row) for row in rows)]
    return " ".join(re.sub(r"<[^>]+>", "", " | ".join(parts)).split()).casefold()


def test_every_game_and_rule_is_listed_in_both_languages():
    assert sorted(RULES) == ["deutschland", "laender-toppen", "region-fra", "world-game"]
    assert REGION_START in RULES["deutschland"] and REGION_START not in RULES["region-fra"]
    for rules in RULES.values():
        assert len(rules) >= 18 and all(words["de"] and words["en"] for words in rules.values())


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("game", sorted(RULES))
def test_the_rules_summary_states_every_rule_of_the_rulebook(game, lang):
    text = _summary(game, lang)
    missing = [
        rule
        for rule, words in RULES[game].items()
        if not all(" ".join(w.split()).casefold() in text for w in words[lang])
    ]
    assert not missing, f"{game} [kit.{lang}] rules miss: {missing}"
