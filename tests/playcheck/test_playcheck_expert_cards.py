"""Issue 35: cards judged against expert play, and skill judged against a blind expert (Länder toppen)."""

import pytest
from fixtures.rulebook import laender_toppen_rulebook
from fixtures.tiny.games.decks import laender_toppen

from pipeline.games import registry
from pipeline.games.laender_toppen import engine
from pipeline.games.laender_toppen import playcheck as rules
from pipeline.playcheck import config as thresholds
from pipeline.playcheck import runner as playcheck
from pipeline.playcheck.play import Batch, Kind, deck_json, play_batch

GAMES = 150  # four-player expert games: every card is dealt in each, so each meets every slot ~150 times


# The figures below were measured on the rulebook's six categories (`laender_toppen_rulebook`), whatever the
# deck spec adds.
def one_country_tops_every_category() -> tuple[dict, str]:
    deck = laender_toppen()
    countries = [c for c in deck["cards"] if c["kind"] == "country"]
    for category in engine.Game.from_deck(deck).fields:
        countries[0]["fields"][category] = max(c["fields"][category] for c in countries) * 2
    return deck, countries[0]["id"]


def expert_cards(deck: dict) -> dict[str, dict]:
    definition = registry.get("laender-toppen")
    tally = play_batch(Batch(definition, Kind("seats 4p", 4, "expert"), 0, 0, GAMES), deck_json(deck))
    report = {"players": 4, "playouts": {}}  # no ladder: the cards only
    found = [judge(0.05) for judge in rules.verdicts(report, {"seats 4p": tally}, thresholds.load(definition))]
    return {v["name"]: v for v in found}


def test_a_card_topping_every_category_fails_against_expert_play_and_a_plain_deck_passes():
    """With random players a card topping every category won every above slot but lost every below one, a
    win index the random-play verdicts let pass (one dominant card among 120); with the experts a card's win
    rate measured where they put it measured the experts (Nepal in peak above). Each card is now put in
    every slot of its round against the cards the experts played there."""
    deck, strong = one_country_tops_every_category()
    unfair, fair = expert_cards(deck), expert_cards(laender_toppen_rulebook(laender_toppen()))
    top, sweeps = unfair["strongest card against expert play"], unfair["slots one card always wins against expert play"]
    assert top["result"] == "fail" and top["detail"].startswith(strong) and top["low"] > top["band"][1]
    above = len(engine.Game.from_deck(deck).fields)  # every category's above slot (of the deck spec's)
    assert sweeps["result"] == "fail" and sweeps["value"] == above and sweeps["detail"].startswith(strong)
    assert {v["result"] for v in fair.values()} == {"pass"}
    assert fair["strongest card against expert play"]["value"] == pytest.approx(5.3, abs=0.6)  # Antarctica


def values_carry_nothing() -> dict:
    """Every card (Antarctica too, where it has values) the same in each category (the first country's value):
    every trick a tie, so knowing the values is worth nothing; only pile play differs between the bots. The
    rulebook's six categories: the band below is theirs."""
    deck = laender_toppen_rulebook(laender_toppen())
    first = next(card["fields"] for card in deck["cards"] if card["kind"] == "country")
    flat = {category: first[category] for category in engine.Game.from_deck(deck).fields}
    for card in deck["cards"]:
        fields = card["fields"]
        fields.update({k: v for k, v in flat.items() if card["kind"] != "joker" and fields[k] is not None})
    return deck


def against_the_blind_expert(monkeypatch, deck: dict, games: int) -> dict[str, dict]:
    """The check at four players with `games` of the rung expert > blind and 5 of every other kind (one look)."""
    judged = "ladder expert>blind"
    monkeypatch.setattr(playcheck, "games_of", lambda kind, n: games if kind.name == judged else 5)
    load = playcheck.thresholds.load

    def fewer(definition):
        config = load(definition)
        config.data["seats"] = config.data["seats"] | {"player_counts": [4]}
        return config

    monkeypatch.setattr(playcheck.thresholds, "load", fewer)
    report = playcheck.check(registry.get("laender-toppen"), deck, games=games, seed=0)
    assert report["playouts"][judged]["games"] == games and report["playouts"]["ladder 2p expert>blind"]
    return {v["name"]: v for v in report["verdicts"]}


def test_skill_fails_a_deck_where_knowing_the_values_does_not_pay(monkeypatch):
    """On such a deck the ladder's expert beat the skilled bot by its pile play alone (0.85 of 400 four-player
    games, 0.64 of two-player ones): the skill verdicts passed. The blind expert plays as the expert (regret,
    piles by points) on another card's values, so pile play cancels out; what is left, the others' cards
    the expert takes over a blind seat, is what knowing the values wins: none here, 35 a game on a real deck."""
    name = "knowing the values: expert vs blind, 4 players"
    flat = against_the_blind_expert(monkeypatch, values_carry_nothing(), 20)[name]
    assert (flat["result"], flat["value"], flat["band"]) == ("fail", 0.0, [4.0, 96])
    plain = against_the_blind_expert(monkeypatch, laender_toppen_rulebook(laender_toppen()), 20)
    assert plain[name]["result"] == "pass" and plain[name]["low"] > 20
    assert plain["knowing the values: expert vs blind, 2 players"]["result"] != "fail"  # its 5 games
