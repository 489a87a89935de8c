"""Issue 48: each game's strongest bot, the top of its `BOTS`, beats every other bot of the game and the
tournament's baselines, seat-rotated (`pipeline.playcheck.tournament`; the full table, with hundreds of games
per pairing, is in docs/rules-engines.md). Small sizes, fixed seeds: in a few dozen duels against each, the
search bot included, the top must take more than a fair share of the points (the win share needs hundreds of
games to tell them apart)."""

import pytest

from pipeline.cli import tournament as door
from pipeline.decks import published
from pipeline.games import registry
from pipeline.playcheck import tournament

GAMES = {"laender-toppen": 40, "deutschland": 30, "world-game": 20}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_top_bot_beats_every_other_bot_and_the_baselines(name):
    definition = registry.get(name)
    bots = door.bots_of(name)
    top = list(definition.engine.BOTS)[-1]
    game = definition.engine.Game.from_deck(published.deck(definition)[1], players=2)
    others = [bot for bot in bots if bot != top]  # the search bot too (Deutschland's and the World Game's)
    for other in others:
        pairing = tournament.duel(game, bots, top, other, GAMES[name], seed="test")
        assert pairing.points.value > pairing.fair, (other, str(pairing.points))


def test_the_table_names_every_pairing():
    rows = [
        tournament.Pairing("a", "b", 2, 10, tournament.wilson(6, 10), tournament.mean_of([0.6, 0.5])),
        tournament.Pairing("b", "a", 2, 10, tournament.wilson(4, 10), tournament.mean_of([0.4, 0.5])),
    ]
    table = tournament.markdown(rows)
    assert "| a | 0.600 [0.313, 0.832] | – |" in table and "| b | – | 0.400 [" in table and table.count("\n") == 3
