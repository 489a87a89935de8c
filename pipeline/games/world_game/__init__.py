"""The World Game: 194 country cards with four facts and four challenges (docs/world-game.md)."""

from pipeline.games.definition import GameDefinition

GAME = GameDefinition(
    name="world-game",
    package=__name__,
    default_players=2,
    input_table="geo/countries.parquet",
    length_unit="rounds",
    accessories_help="the numbered world map, one A3 page or two A4/Letter pages to glue",
)
