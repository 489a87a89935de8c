"""Issue 35: cards judged against expert play, and skill judged against a blind expert (Länder toppen)."""

import pytest
from fixtures.tiny.games.decks import laender_toppen

from pipeline import games
from pipeline.games.laender_toppen import engine
from pipeline.games.laender_toppen import playcheck as rules
from pipeline.playcheck import config as thresholds
from pipeline.playcheck.play import Batch, Kind, deck_json, play_batch

GAMES = 150  # four-player expert games: every card is dealt in each, so each meets every slot ~150 times


def one_country_tops_every_category() -> tuple[dict, str]:
    deck = laender_toppen()
    countries = [c for c in deck["cards"] if c["kind"] == "country"]
    for category in engine.CATEGORIES:
        countries[0]["fields"][category] = max(c["fields"][category] for c in countries) * 2
    return deck, countries[0]["id"]


def expert_cards(deck: dict) -> dict[str, dict]:
    definition = games.get("laender-toppen")
    tally = play_batch(Batch(definition, Kind("seats 4p", 4, "expert"), 0, 0, GAMES), deck_json(deck))
    report = {"players": 4}
    found = rules.verdicts(report, {"seats 4p": tally}, thresholds.load(definition), 0.05)
    return {v["name"]: v for v in found}


def test_a_card_topping_every_category_fails_against_expert_play_and_a_plain_deck_passes():
    """With random players a card topping every category won every above slot but lost every below one, a
    win index the random-play verdicts let pass (one dominant card among 120); with the experts a card's win
    rate measured where they put it measured the experts (Nepal in peak above). Each card is now put in
    every slot of its round against the cards the experts played there."""
    deck, strong = one_country_tops_every_category()
    unfair, fair = expert_cards(deck), expert_cards(laender_toppen())
    top, sweeps = unfair["strongest card against expert play"], unfair["slots one card always wins against expert play"]
    assert top["result"] == "fail" and top["detail"].startswith(strong) and top["low"] > top["band"][1]
    assert sweeps["result"] == "fail" and sweeps["value"] == 6 and sweeps["detail"].startswith(strong)
    assert {v["result"] for v in fair.values()} == {"pass"}
    assert fair["strongest card against expert play"]["value"] == pytest.approx(5.3, abs=0.6)  # Antarctica
