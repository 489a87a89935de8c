"""`geodeck region build` searches its settings for a fair, legible deck (docs/regions.md): it tries the
deck sizes of `[search]` in templates/region/settings.toml in order (or only `--places N`), and takes the
first whose map is legible (pipeline/games/region/legibility.py) and whose play-check does not fail
(fairness.py); else it refuses the country, naming each size tried and why it failed. Same inputs, same
tries, same deck. What it tried and found is kept in build/region/<iso3>/search.json (`region list`)."""

import json
from pathlib import Path

from pipeline import atomic, readers
from pipeline.decks import stage
from pipeline.errors import GeodeckError
from pipeline.games import registry
from pipeline.games.region import build, definition, fairness, legibility
from pipeline.jsonfile import Unreadable
from pipeline.render import layouts

RESULT = "search.json"


def sizes(requested: int | None, config: dict) -> list[int]:
    """The deck sizes to try: `--places N` alone, else the settings' `[search] places` in order."""
    return [requested] if requested else list(config["search"]["places"])


def attempt(store, iso3: str, places: int, title: str | None, lang: str, games: int, seen: set) -> dict | None:
    """Build, write and judge the deck of `places` places: {places, map, play_check} (None: a size already
    tried, a country with fewer candidates)."""
    region = build.build(store, iso3, places, title, lang)
    size = int(region.table["in_deck"].sum())
    if size in seen:
        return None
    seen.add(size)
    build.write(region)
    game = registry.register(definition(region.iso3))
    deck = stage.fresh_deck(game)[1]
    found: dict = {"places": size, "map": legibility.problems(game, deck), "play_check": None}
    if not found["map"]:  # an illegible map is not played
        found["play_check"] = fairness.check(game, deck, games)
    return found


def passed(found: dict) -> bool:
    return not found["map"] and found["play_check"]["result"] != "fail"


def why(found: dict) -> str:
    """One attempt in words: its size and what failed."""
    if found["map"]:
        return f"{found['places']} places: the map is illegible ({'; '.join(found['map'])})"
    if found["play_check"]["result"] == "fail":
        return f"{found['places']} places: play-check fails ({found['play_check']['why']})"
    return f"{found['places']} places: pass"


def search(store, iso3: str, places: int | None, title: str | None, lang: str) -> list[dict]:
    """Try the sizes (module docstring) until one passes; its deck is the one left in build/. Keeps the
    attempts in search.json and refuses, with each attempt's reason, when none passes."""
    config = build.settings()
    tried: list[dict] = []
    seen: set[int] = set()
    for n in sizes(places, config):
        found = attempt(store, iso3, n, title, lang, config["fairness"]["games"], seen)
        if found is None:
            continue
        tried.append(found)
        if passed(found):
            break
    game = f"region-{iso3.lower()}"
    atomic.write_text(
        build.folder(iso3) / RESULT, json.dumps({"tried": tried}, ensure_ascii=False, sort_keys=True) + "\n"
    )
    if not tried or not passed(tried[-1]):
        hint = "" if places else " Other sizes: `--places N` (40-200)."
        raise GeodeckError(
            f"{game} not published: no deck tried is fair and legible: "
            + "; ".join(why(f) for f in tried)
            + f".{hint} `geodeck diff {game}` shows the last deck tried."
        )
    return tried


def changelog(tried: list[dict]) -> str:
    """The search's line for CHANGELOG.md: the settings found, and the sizes that failed before."""
    failed = [why(f) for f in tried[:-1]]
    return f"Settings found by `region build`: {tried[-1]['places']} places" + (
        f" (tried first: {'; '.join(failed)})" if failed else ""
    )


def verdict(folder: Path) -> str:
    """What the last build here found (`region list`): pass (size, play-check), refused (each attempt), or
    unknown when it was not built here (a fresh clone)."""
    try:
        tried = readers.read("region", folder / RESULT)["tried"]
        last = tried[-1]
        if not passed(last):  # each size in short: `region build` names each failure in full
            return "refused: " + ", ".join(
                f"{f['places']} places: "
                + ("map" if f["map"] else f"play-check ({', '.join(f['play_check']['failed'])})")
                for f in tried
            )
        check = last["play_check"]
        words = {"undecided": "no verdict failed"}.get(check["result"], check["result"])
        return f"pass ({last['places']} places; play-check {words} at {check['games']} games)"
    except (Unreadable, KeyError, TypeError, IndexError):  # not built here, or not a result this module wrote
        return "unknown (not built here)"


def publish(
    store,
    iso3: str,
    places: int | None = None,
    title: str | None = None,
    lang: str | None = None,
    accept: str | None = None,
) -> stage.Result:
    """Search the region's settings (`search`) and publish a new version of the deck found when its cards
    changed, CHANGELOG.md saying which settings were found; `accept` publishes suspicious changes and is the
    reason CHANGELOG.md gives. `lang`: the title's language (default: the game's own)."""
    tried = search(store, iso3, places, title, language(iso3, lang))
    return published(iso3, tried, accept)


def language(iso3: str, lang: str | None) -> str:
    """The title's language: `lang`, else the region game's own."""
    return layouts.load(definition(iso3.upper())).language(lang)


def published(iso3: str, tried: list[dict], accept: str | None) -> stage.Result:
    """Publish the deck `search` found (left in build/region/<iso3>/) when its cards changed (`publish`)."""
    game = registry.register(definition(iso3.upper()))
    return stage.build_deck(game, accept=accept, note=changelog(tried))
