"""A custom deck's play-check thresholds follow its rules (issue 32): a Länder toppen deck of a recipe has no
Antarctica card to break a tie of the totals, so its template (`templates.write`) carries the no-tie-break
shared-wins bound and reason, its words translated like the base game's; the built-in deck's stay as they are."""

import tomllib

import tomlkit

from pipeline.games import registry
from pipeline.games.custom import templates
from pipeline.i18n import registry as languages
from pipeline.playcheck import config


def test_a_custom_trick_deck_s_template_carries_the_no_tiebreak_shared_wins_bound(tmp_path):
    base = registry.get("laender-toppen")
    path = tmp_path / "custom-german-states.toml"
    path.write_text(tomlkit.dumps(templates.playcheck(base)), encoding="utf-8")
    custom, builtin = config.Config(tomllib.loads(path.read_text(encoding="utf-8")), path), config.load(base)
    assert (custom.get("shared_wins.max"), custom.get("shared_wins.margin")) == (0.13, 0.01)
    assert custom.reason("shared_wins").startswith("No Antarctica card breaks a tie of the totals")
    assert (builtin.get("shared_wins.max"), builtin.get("shared_wins.margin")) == (0.05, 0.01)
    assert builtin.reason("shared_wins").startswith("A tie of the totals goes to the Antarctica card's owner")
    others = {k: v for k, v in custom.data.items() if k not in ("shared_wins", "words_context")}
    assert others == {k: v for k, v in builtin.data.items() if k != "shared_wins"}


def test_a_custom_deck_s_copied_thresholds_speak_german_like_the_base_game_s(tmp_path):
    base = registry.get("laender-toppen")
    path = tmp_path / "custom-german-states.toml"
    path.write_text(tomlkit.dumps(templates.playcheck(base)), encoding="utf-8")
    custom = config.Config(tomllib.loads(path.read_text(encoding="utf-8")), path).speaking(languages.language("de"))
    builtin = config.load(base).speaking(languages.language("de"))
    assert "Antarktis" in custom.reason("shared_wins") and "acht" in custom.reason("shared_wins")
    assert custom.reason("shared_wins") != builtin.reason("shared_wins")
    assert custom.reason("seats") == builtin.reason("seats") != config.load(base).reason("seats")
