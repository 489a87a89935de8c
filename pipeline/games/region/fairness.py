"""Only fair decks published (docs/regions.md): `geodeck region build` play-checks the deck it is about to
publish with a small budget (`[fairness]` in templates/region/settings.toml) and refuses one that fails; the
result is kept beside the region's build (build/region/<iso3>/playcheck.json) for `geodeck region list`."""

import json
from pathlib import Path

from pipeline import atomic, readers
from pipeline.decks import stage
from pipeline.errors import GeodeckError
from pipeline.games.definition import GameDefinition
from pipeline.jsonfile import Unreadable
from pipeline.playcheck import report as reports
from pipeline.playcheck import runner

RESULT = "playcheck.json"


def check(game: GameDefinition, folder: Path, games: int, build_root: Path | None = None) -> dict:
    """Play-check the deck `game` would publish from build/ (`games` random playouts, one look, seed 0),
    keep the result in `folder`, and refuse a deck that fails: one line naming each failed verdict and what
    to try."""
    deck = stage.fresh_deck(game, build_root)[1]
    report = runner.check(game, deck, games=games, deck_path=f"{game.name} (not published)")
    places = sum(card["kind"] == "place" for card in deck["cards"])
    result = {
        "result": report["result"],
        "failed": [v["name"] for v in report["verdicts"] if v["result"] == "fail"],
        "games": games,
        "places": places,
    }
    atomic.write_text(folder / RESULT, json.dumps(result, ensure_ascii=False, sort_keys=True) + "\n")
    if report["result"] == "fail":
        raise GeodeckError(
            f"{game.name} not published: its deck of {places} places fails play-check ({games} games): "
            + " ".join(reports.failures(report))
            + " `--places N` (40-200) selects other places; if no number passes, no setting of `region build` "
            f"makes this country fair on the grid yet. `geodeck diff {game.name}` shows the refused deck."
        )
    return result


def checked(folder: Path) -> str:
    """What the last build's play-check found for a region (`region list`): pass, fail (which verdicts), no
    verdict failed (undecided at the small budget: `geodeck play-check` decides), or unchecked when it was
    not built here."""
    try:
        result = readers.read("region", folder / RESULT)
        words = {"undecided": "no verdict failed"}.get(result["result"], result["result"])
        found = f"{words} ({result['places']} places, {result['games']} games)"
        return f"{found}: {', '.join(result['failed'])}" if result["failed"] else found
    except (Unreadable, KeyError, TypeError):  # not built here, or not a result this module wrote
        return "unchecked"
