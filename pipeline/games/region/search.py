"""`geodeck region build` searches its settings for a fair, legible deck (docs/regions.md): it tries the
settings of `[search] tries` in templates/region/settings.toml in order (each a deck size and, in place of
the file's, the pins, the spread's weight and the grid's margin; with `--places N` each at N places), and
takes the first whose map is legible (pipeline/games/region/legibility.py) and whose play-check does not
fail (fairness.py); else it refuses the country, naming each try and why it failed. A try that selects a
deck already tried (a country with fewer candidates) is skipped. Same inputs, same tries, same deck. What
it tried and found is kept in build/region/<iso3>/search.json (`region list`)."""

import json
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from pipeline import atomic, readers
from pipeline.decks import published as published_decks
from pipeline.decks import stage
from pipeline.errors import GeodeckError
from pipeline.framework.definition import GameDefinition
from pipeline.games.grid.decks import deck_grid
from pipeline.games.region import build, definition, fairness, gate, legibility, reviewed
from pipeline.games.region.candidates import SECOND_NAMES
from pipeline.geo.grid import Grid
from pipeline.i18n.language import Language
from pipeline.jsonfile import Unreadable
from pipeline.render import layouts

RESULT = "search.json"
# a try's settings besides `places`, in words (the search's reasons, `region list`, CHANGELOG.md)
SETTINGS = {
    "largest": "{} largest pinned",
    "weight_spread": "spread weight {}",
    "margin": "grid margin {}",
}


def tries(requested: int | None, config: dict) -> list[dict]:
    """The settings to try, in order: the settings' `[search] tries`, each at `--places N` when given (the
    same settings once)."""
    out: list[dict] = []
    for given in config["search"]["tries"]:
        if unknown := sorted(set(given) - {"places", *SETTINGS}):
            raise GeodeckError(
                f"{build.SETTINGS}: [search] tries: unknown setting(s) {', '.join(unknown)}; a try names `places` "
                f"and any of {', '.join(SETTINGS)} (docs/regions.md)"
            )
        setting = {**given, "places": requested or given["places"]}
        if setting not in out:
            out.append(setting)
    return out


def named(setting: dict) -> str:
    """A try in words: "64 places, 8 largest pinned, spread weight 1.0"."""
    return ", ".join(
        [f"{setting['places']} places", *(SETTINGS[k].format(setting[k]) for k in SETTINGS if k in setting)]
    )


def budgets(fairness_settings: dict, first: bool) -> tuple[int, ...]:
    """The play-check budgets a try's deck is judged at, in order: `[fairness] games`, and for a try after a
    failed one also `confirm_games` (a deck found among failing neighbours is often undecided at the small
    budget and failing at a larger one: Chile's 40 places, 8 largest pinned, ties for O 7.3 % at 1,000)."""
    small = fairness_settings["games"]
    return (small,) if first else tuple(sorted({small, fairness_settings["confirm_games"]}))


def grid_sources() -> set[str]:
    """The games the regions' settings name in `grid_from`, by name: the door (`region build`) looks them up."""
    return {given["grid_from"] for given in build.settings().get("countries", {}).values() if "grid_from" in given}


def calibrated(iso3: str, grid_games: Mapping[str, GameDefinition]) -> Grid | None:
    """The grid of the game the region's settings name in `grid_from` (Germany: Deutschland's, calibrated on
    the rulebook's towns), from its published deck; None for a region with a grid of its own. `grid_games`:
    the games of `grid_sources`, by name."""
    name = build.settings().get("countries", {}).get(iso3.upper(), {}).get("grid_from")
    return deck_grid(published_decks.deck(grid_games[name])[1]) if name else None


def attempt(
    country: build.Country,
    setting: dict,
    title: str | None,
    lang: Language,
    games: tuple[int, ...],
    seen: set,
    strict: bool = True,
) -> dict | None:
    """Build, write and judge the deck of a try: {places, settings, data, gate, flagged, map, play_check}
    (`places`: the deck's size; `data` and `gate`: the editorial gate's problems of the country's data and of
    this deck, gate.py; `flagged`: cards whose population is far from the second source; `games`: the
    play-check's budgets, the next only when the last did not fail; None: a deck already tried, e.g. a
    country with fewer candidates than the try's places). `country`: what the tries share (its candidates).
    `strict`: a deck failing the gate is neither drawn nor played (without `--accept`), and a country whose
    data fail it is refused before any deck is selected (they fail every deck alike)."""
    others = {k: v for k, v in setting.items() if k != "places"}
    rules = build.settings()["gate"]
    country.size(setting["places"], others.get("margin"), lang)  # too few places: it cannot be built at all
    candidates = country.candidates(setting["places"], others.get("margin"))[0]
    data = gate.data_problems(country.store, country.iso3, candidates)
    found: dict = {"places": setting["places"], "settings": others, "data": data, "gate": [], "flagged": []}
    if strict and data:  # refused by the country's data: no deck selected, drawn or played
        return {**found, "map": [], "play_check": None}
    region = build.build(country.store, country.iso3, setting["places"], title, lang, country=country, **others)
    problems = gate.deck_problems(region.table, rules)
    chosen = sorted(region.table.loc[region.table["in_deck"], "geonameid"])
    key = json.dumps([chosen, region.grid.to_dict()], default=int)
    if key in seen:
        return None
    seen.add(key)
    build.write(replace(region, tier=tier(region.iso3, data + problems)))
    game = definition(region.iso3)
    built = stage.fresh_deck(game)[1]
    deck = region.table.loc[region.table["in_deck"]]
    off = gate.flagged(deck, rules["second_source_off"])
    found.update(
        places=len(chosen),
        gate=problems,
        flagged=[
            f"{n} {p:,} ({SECOND_NAMES[f]} {s:,})"
            for n, p, s, f in zip(
                deck["name"][off], deck["population"][off], deck["second"][off], deck["second_from"][off]
            )
        ],
        map=[],
        play_check=None,
    )
    if strict and problems:  # refused by the gate: neither drawn nor played
        return found
    found["map"] = legibility.problems(game, built)
    if not found["map"]:  # an illegible map is not played
        for budget in games:  # the next budget only for a deck the last did not fail
            found["play_check"] = fairness.check(game, built, budget)
            if found["play_check"]["result"] == "fail":
                break
    return found


def tier(iso3: str, problems: list[str]) -> str:
    """What a deck is (`region list`, the kit's attribution page): "accepted" (published over the editorial
    gate's `problems` with `--accept`), else "reviewed" (the country has a signed reviewed table,
    sources/reviewed/region_divisions.csv) or "checked" (it passes the gate from the data alone)."""
    if problems:
        return "accepted"
    return "reviewed" if reviewed.divisions(iso3) else "checked"


def passed(found: dict, strict: bool = True) -> bool:
    if strict and (found.get("data") or found.get("gate")):
        return False
    return not found["map"] and found["play_check"] is not None and found["play_check"]["result"] != "fail"


def found_settings(found: dict) -> str:
    """The settings of an attempt in words (`named`)."""
    return named({**found.get("settings", {}), "places": found["places"]})


def why(found: dict) -> str:
    """One attempt in words: its settings and what failed."""
    setting = found_settings(found)
    if stopped(found):
        return f"{setting}: the editorial gate refuses it ({'; '.join(found.get('data', []) + found.get('gate', []))})"
    if found["map"]:
        return f"{setting}: the map is illegible ({'; '.join(found['map'])})"
    if found["play_check"]["result"] == "fail":
        return f"{setting}: play-check fails ({found['play_check']['why']})"
    return f"{setting}: pass"


def search(
    store,
    iso3: str,
    places: int | None,
    title: str | None,
    lang: Language,
    grid_games: Mapping[str, GameDefinition],
    strict: bool = True,
) -> list[dict]:
    """Try the settings (module docstring) until one passes; its deck is the one left in build/. Keeps the
    attempts in search.json and refuses, with each attempt's reason, when none passes. A country whose data
    fails the editorial gate (gate.data_problems) is refused at its first try, before any deck is selected;
    `strict` False (`--accept`): the gate's problems are recorded, not refused. `grid_games`: the games of
    `grid_sources` (`calibrated`)."""
    config = build.settings()
    tried: list[dict] = []
    seen: set[str] = set()
    country = build.Country(store, iso3, calibrated(iso3, grid_games))
    for setting in tries(places, config):
        budget = budgets(config["fairness"], not tried)
        found = attempt(country, setting, title, lang, budget, seen, strict)
        if found is None:
            continue
        tried.append(found)
        if passed(found, strict) or (strict and found["data"]):  # the data fail every try alike
            break
    game = f"region-{iso3.lower()}"
    atomic.write_text(
        build.folder(iso3) / RESULT, json.dumps({"tried": tried}, ensure_ascii=False, sort_keys=True) + "\n"
    )
    if tried and strict and tried[-1]["data"]:
        raise GeodeckError(
            f"{game} not published: the editorial gate refuses the country's data (or publish with --accept REASON):\n"
            + "\n".join(tried[-1]["data"])
        )
    if not tried or not passed(tried[-1], strict):
        hint = "" if places else " Other sizes: `--places N` (40-200)."
        raise GeodeckError(
            f"{game} not published: no deck tried is fair, legible and passes the editorial gate: "
            + "; ".join(why(f) for f in tried)
            + f".{hint} `geodeck diff {game}` shows the last deck tried; --accept REASON publishes over the gate."
        )
    return tried


def changelog(tried: list[dict]) -> str:
    """The search's lines for CHANGELOG.md: the settings found, and the tries that failed before; the gate's
    problems published over (`--accept`); the populations flagged against the second source."""
    failed = [why(f) for f in tried[:-1]]
    last = tried[-1]
    lines = [
        f"Settings found by `region build`: {found_settings(last)}"
        + (f" (tried first: {'; '.join(failed)})" if failed else "")
    ]
    if over := last.get("data", []) + last.get("gate", []):
        lines.append("Published over the editorial gate (`--accept`, Why: below): " + "; ".join(over))
    if last.get("flagged"):
        lines.append(
            "Populations more than the gate's `second_source_off` from their second source (Natural Earth's pop_min, "
            "or the country's own: docs/regions.md; flagged in each card's provenance): " + "; ".join(last["flagged"])
        )
    return "\n\n".join(lines)


def verdict(folder: Path) -> str:
    """The country's tier and what the last build here found (`region list`): "reviewed" (a signed reviewed
    table, whether built here or not), "checked" (its last build here passed the editorial gate, the map and
    the play-check), "refused: …" (each attempt in short), or "not built here" (a fresh clone: a country
    without a reviewed table is checked only by `region build`)."""
    signed = bool(reviewed.divisions(folder.name.upper()))
    try:
        tried = readers.read("region", folder / RESULT)["tried"]
        last = tried[-1]
        if not passed(last, strict=False):  # each try in short: `region build` names each failure in full
            return ("reviewed; last build here refused: " if signed else "refused: ") + "; ".join(
                f"{found_settings(f)}: {short(f)}" for f in tried
            )
        check = last["play_check"]
        words = {"undecided": "no verdict failed"}.get(check["result"], check["result"])
        found = f"{found_settings(last)}; play-check {words} at {check['games']} games"
        if not passed(last):  # published with --accept over the gate
            problems = "; ".join(last.get("data", []) + last.get("gate", []))
            return f"{'reviewed, ' if signed else ''}accepted over the editorial gate ({problems}; {found})"
        return f"{'reviewed' if signed else 'checked'} ({found})"
    except (Unreadable, KeyError, TypeError, IndexError):  # not built here, or not a result this module wrote
        return "reviewed (not built here)" if signed else "not built here (`region build` checks it)"


def standing(said: str) -> str:
    """The tier a `verdict` says, by its first words: reviewed (a signed table, whatever its last build here),
    checked (a build here passed, or was published with --accept over the gate), refused, or not built."""
    if said.startswith("reviewed"):
        return "reviewed"
    if said.startswith(("checked", "accepted")):
        return "checked"
    return "refused" if said.startswith("refused") else "not built"


def stopped(found: dict) -> bool:
    """Whether the editorial gate stopped an attempt before its map and play-check (without `--accept`)."""
    return bool(found.get("data") or found.get("gate")) and not found["map"] and found["play_check"] is None


def short(found: dict) -> str:
    """Why an attempt failed, in short: the editorial gate's problems, "map", or the failed play-check verdicts."""
    if stopped(found):
        return "editorial gate (" + "; ".join(found.get("data", []) + found.get("gate", [])) + ")"
    if found["map"]:
        return "map"
    return f"play-check ({', '.join(found['play_check']['failed'])})"


def publish(
    store,
    iso3: str,
    places: int | None = None,
    title: str | None = None,
    lang: Language | None = None,
    accept: str | None = None,
    grid_games: Mapping[str, GameDefinition] | None = None,
) -> stage.Result:
    """Search the region's settings (`search`) and publish a new version of the deck found when its cards
    changed, CHANGELOG.md saying which settings were found; `accept` publishes suspicious changes and is the
    reason CHANGELOG.md gives. `lang`: the title's language (default: the game's own); `grid_games`: the games
    of `grid_sources`, by name (needed for a region placed on another game's grid)."""
    tried = search(store, iso3, places, title, language(iso3, lang), grid_games or {}, strict=accept is None)
    return published(iso3, tried, accept)


def language(iso3: str, lang: Language | None) -> Language:
    """The title's language: `lang`, else the region game's own."""
    return layouts.load(definition(iso3.upper())).language(lang)


def published(iso3: str, tried: list[dict], accept: str | None) -> stage.Result:
    """Publish the deck `search` found (left in build/region/<iso3>/) when its cards changed (`publish`)."""
    game = definition(iso3.upper())
    return stage.build_deck(game, accept=accept, note=changelog(tried))
