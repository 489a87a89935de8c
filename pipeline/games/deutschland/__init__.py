"""Deutschland: Das Kartenspiel: 96 places on the 0-150 / 0-90 grid, 24 guess cards (docs/deutschland.md)."""

from pipeline.build.step import Step
from pipeline.games.definition import GameDefinition

GAME = GameDefinition(
    name="deutschland",
    package=__name__,
    default_players=4,
    input_table="geo/places.parquet",
    deck_reads=("geo/grid_report.json",),
    steps=(
        Step(
            "geo-places",
            "geo",
            "pipeline.games.deutschland.places",
            reads=("validate/towns.parquet", "transform/germany_boundaries.parquet"),
            files=("sources/reviewed/grid_control_points.csv", "templates/deutschland/places.toml"),
            writes=(
                "geo/places.parquet",
                "geo/grid_report.md",
                "geo/grid_report.json",
                "geo/selection_report.md",
                "geo/selection_report.json",
            ),
        ),
    ),
    accessories_help="the map of Germany on the game's grid",
)
