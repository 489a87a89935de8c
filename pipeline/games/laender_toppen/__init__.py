"""Länder toppen!: 120 country cards and 8 jokers, six categories, continent majorities (docs/laender-toppen.md)."""

from pipeline.games.definition import GameDefinition

GAME = GameDefinition(
    name="laender-toppen",
    package=__name__,
    default_players=4,
    input_table="geo/countries.parquet",
    card_verdicts=True,
    accessories_help="six folded paper strips and a scoring sheet",
)
