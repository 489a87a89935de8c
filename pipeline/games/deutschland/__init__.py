"""Deutschland: Das Kartenspiel: 96 places on the 0-150 / 0-90 grid, 24 guess cards (docs/deutschland.md)."""

from pipeline.games.definition import GameDefinition

GAME = GameDefinition(
    name="deutschland",
    package=__name__,
    default_players=4,
    input_table="geo/places.parquet",
    prepare="places",
    accessories_help="the map of Germany on the game's grid",
)
