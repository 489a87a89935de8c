"""Only fair decks published (docs/regions.md): `geodeck region build` play-checks each deck its search
tries (pipeline/games/region/search.py) with a small budget (`[fairness]` in templates/region/settings.toml)."""

from pipeline.framework.definition import GameDefinition
from pipeline.playcheck import report as reports
from pipeline.playcheck import runner


def check(game: GameDefinition, deck: dict, games: int) -> dict:
    """Play-check `deck`, the deck `game` would publish from build/ (`games` random playouts, one look, seed
    0): its result (pass, fail, undecided), the failed verdicts' names and, in plain words, why they failed."""
    report = runner.check(game, deck, games=games, deck_path=f"{game.name} (not published)")
    return {
        "result": report["result"],
        "failed": [v["name"] for v in report["verdicts"] if v["result"] == "fail"],
        "why": " ".join(reports.failures(report)),
        "games": games,
    }
