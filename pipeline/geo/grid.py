"""The Deutschland map grid: a CRS plus an affine map to (north-south, west-east) units, 0-150 and 0-90.

The card numbers are the grid values rounded half up. The grid is calibrated from ground control points
(by default the six towns whose numbers the rulebook prints, `sources/reviewed/grid_control_points.csv`)
with their coordinates from the validated towns table: for each candidate CRS a least-squares affine
(numpy lstsq) is fitted, and the candidate that reproduces every control point exactly after rounding
with the smallest RMS residual is chosen (if none reproduces all of them, the smallest RMS is chosen and
the report says so). Nothing is clamped: `off_map` says when a point falls outside 0-150 / 0-90.
"""

import math
from dataclasses import asdict, dataclass
from functools import cache
from io import StringIO
from pathlib import Path

import numpy as np
import pandas as pd
from pyproj import CRS, Transformer
from pyproj.exceptions import CRSError

from pipeline import jsonfile, readers
from pipeline.errors import GeodeckError
from pipeline.paths import SOURCES_DIR
from pipeline.rounding import round_half_up

CONTROL_POINTS = SOURCES_DIR / "reviewed" / "grid_control_points.csv"
CONTROL_COLUMNS = ["name", "state", "ns", "we", "source"]
NS_MAX, WE_MAX = 150, 90
# EPSG:4326 plate carrée (degrees), ETRS89/UTM 32N, LAEA Europe, Web Mercator
CANDIDATES = ("EPSG:4326", "EPSG:25832", "EPSG:3035", "EPSG:3857")
AFFINE_DIGITS = 10  # significant digits kept of each fitted coefficient (grid units stay exact to ~1e-7)


@cache
def from_lonlat(crs: str) -> Transformer:
    """The transformer from lon/lat (EPSG:4326) to `crs`, made once per CRS (making one takes ~30 ms)."""
    return Transformer.from_crs("EPSG:4326", crs, always_xy=True)


def whole_numbers(values) -> np.ndarray:
    """Grid values as card numbers: each rounded half up (pipeline.rounding), as ints of the same shape."""
    array = np.asarray(values, dtype=float)
    return np.array([int(round_half_up(v)) for v in array.flat], dtype=int).reshape(array.shape)


@dataclass(frozen=True)
class Inset:
    """Far islands drawn beside the mainland, as atlases draw them (Spain's Canary Islands beside Andalucía):
    every point within the lon/lat box `west`-`east` × `south`-`north` (edges included) is moved by `dlon`,
    `dlat` degrees before the grid projects it, so its grid numbers are read off the inset."""

    west: float
    south: float
    east: float
    north: float
    dlon: float
    dlat: float

    def moved(self, lat: np.ndarray, lon: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The points (lat, lon) with those in the box moved by the offset."""
        inside = (lon >= self.west) & (lon <= self.east) & (lat >= self.south) & (lat <= self.north)
        return lat + inside * self.dlat, lon + inside * self.dlon


@dataclass(frozen=True)
class Grid:
    """`crs` plus `matrix` (3x2): [x, y, 1] @ matrix = [north-south, west-east] in grid units; `inset`: far
    islands moved beside the mainland before projecting (None: none)."""

    crs: str
    matrix: tuple[tuple[float, float], ...]
    inset: Inset | None = None

    def values(self, lat, lon) -> np.ndarray:
        """Unrounded (ns, we) per point, shape (n, 2)."""
        lat, lon = np.atleast_1d(np.asarray(lat, dtype=float)), np.atleast_1d(np.asarray(lon, dtype=float))
        if self.inset is not None:
            lat, lon = self.inset.moved(lat, lon)
        x, y = from_lonlat(self.crs).transform(lon, lat)
        return np.c_[x, y, np.ones(len(x))] @ np.array(self.matrix)

    def numbers(self, lat, lon) -> np.ndarray:
        """Card numbers (ns, we) per point, rounded half up, shape (n, 2)."""
        return whole_numbers(self.values(lat, lon))

    def to_dict(self) -> dict:
        """The grid as JSON: `crs`, and `affine` = the rows [a, b, c] of ns and of we = a·x + b·y + c, where
        (x, y) are a point's lon/lat (EPSG:4326), moved by the `inset` when it has one, transformed to `crs`
        (east, north). `from_dict` reverses it."""
        grid = {"crs": self.crs, "affine": [list(column) for column in zip(*self.matrix)]}
        return grid if self.inset is None else {**grid, "inset": asdict(self.inset)}

    @classmethod
    def from_dict(cls, data: dict) -> "Grid":
        """The grid `to_dict` wrote (other keys are ignored); ValueError when `data` is no such grid."""
        try:
            crs, affine = data["crs"], np.array(data["affine"], dtype=float)
            CRS.from_user_input(crs)
        except (KeyError, TypeError, ValueError, CRSError) as exc:
            raise ValueError(f"not a grid with crs and affine ({exc})") from None
        if not isinstance(crs, str) or affine.shape != (2, 3) or not np.isfinite(affine).all():
            raise ValueError("a grid needs a crs string and an affine of 2 rows of 3 finite numbers")
        try:
            inset = Inset(**{k: float(v) for k, v in data["inset"].items()}) if "inset" in data else None
        except (AttributeError, TypeError, ValueError) as exc:
            raise ValueError(f"not an inset of west, south, east, north, dlon, dlat ({exc})") from None
        return cls(crs, tuple((float(x), float(y)) for x, y in affine.T), inset)


def off_map(numbers: np.ndarray) -> np.ndarray:
    """True where a card number pair falls outside 0-150 / 0-90."""
    numbers = np.atleast_2d(numbers)
    return (numbers[:, 0] < 0) | (numbers[:, 0] > NS_MAX) | (numbers[:, 1] < 0) | (numbers[:, 1] > WE_MAX)


@dataclass(frozen=True)
class Fit:
    grid: Grid
    name: str
    residuals: np.ndarray  # (n, 2): fitted minus printed, grid units
    exact_round: int  # control points reproduced by rounding half up
    exact_floor: int  # ... by truncation, in case the game truncates

    @property
    def rms(self) -> float:
        return float(np.sqrt((self.residuals**2).sum(axis=1).mean()))

    @property
    def max_residual(self) -> float:
        return float(np.abs(self.residuals).max())

    def reproduces_all(self) -> bool:
        return self.exact_round == len(self.residuals)


def load_control_points(path: Path = CONTROL_POINTS) -> pd.DataFrame:
    """The control points file, checked: columns name,state,ns,we,source; integer numbers in range."""
    try:
        points = pd.read_csv(StringIO(readers.read_input("csv", path)), dtype=str, keep_default_na=False)
    except (OSError, pd.errors.ParserError, UnicodeDecodeError) as exc:
        raise GeodeckError(
            f"{path}: cannot read the control points ({exc}); expected CSV columns {','.join(CONTROL_COLUMNS)}"
        ) from exc
    if list(points.columns) != CONTROL_COLUMNS:
        raise GeodeckError(
            f"{path}: columns are {','.join(map(str, points.columns))}; expected {','.join(CONTROL_COLUMNS)}"
        )
    for column, top in (("ns", NS_MAX), ("we", WE_MAX)):
        bad = points.loc[~points[column].str.fullmatch(r"\d+"), "name"].tolist()
        bad += points.loc[
            points[column].str.fullmatch(r"\d+") & (pd.to_numeric(points[column], errors="coerce") > top), "name"
        ].tolist()
        if bad:
            raise GeodeckError(f"{path}: {column} of {', '.join(bad)} is not a whole number from 0 to {top}")
    if (points[["name", "state", "source"]] == "").any().any():
        raise GeodeckError(f"{path}: every control point needs a name, a state and a source")
    if points.duplicated(["name", "state"]).any() or len(points) < 3:
        raise GeodeckError(f"{path}: needs at least 3 distinct (name, state) control points for an affine fit")
    return points.astype({"ns": int, "we": int})


def with_coordinates(points: pd.DataFrame, towns: pd.DataFrame) -> pd.DataFrame:
    """The control points with ags, lat, lon, coord_source from the towns table, on (short) name + state."""
    names = pd.concat([towns.assign(key=towns["name"]), towns.assign(key=towns["short_name"])]).drop_duplicates(
        ["ags", "key"]
    )
    located = points.merge(
        names[["key", "state", "ags", "lat", "lon", "coord_source"]].rename(columns={"key": "name"}),
        on=["name", "state"],
        how="left",
    )
    missing = located.loc[located["lat"].isna(), "name"].tolist()
    if missing or len(located) != len(points):
        raise GeodeckError(
            f"control point(s) {', '.join(missing) or '(duplicated in the towns table)'} have no "
            f"single located town of that name and state in the towns table; fix the control "
            f"points file or the towns table"
        )
    return located


def significant(number: float, digits: int = AFFINE_DIGITS) -> float:
    """`number` to `digits` significant digits: the fit's last bits differ between BLAS builds and
    processors, and the deck that carries the grid must be the same on every machine."""
    return float(f"{number:.{digits}g}")


def fit(points: pd.DataFrame, crs: str) -> Fit:
    """Least-squares affine from `crs` coordinates of the points (lat, lon) to their (ns, we)."""
    x, y = from_lonlat(crs).transform(points["lon"].to_numpy(float), points["lat"].to_numpy(float))
    design = np.c_[x, y, np.ones(len(x))]
    target = points[["ns", "we"]].to_numpy(float)
    matrix, *_ = np.linalg.lstsq(design, target, rcond=None)
    fitted = design @ matrix
    grid = Grid(crs, tuple((significant(x), significant(y)) for x, y in matrix))
    exact = lambda numbers: int((numbers == target).all(axis=1).sum())  # noqa: E731
    return Fit(
        grid, CRS.from_user_input(crs).name, fitted - target, exact(whole_numbers(fitted)), exact(np.floor(fitted))
    )


def calibrate(points: pd.DataFrame, candidates=CANDIDATES) -> list[Fit]:
    """Every candidate's fit, best first: those reproducing all points, then by RMS residual."""
    return sorted((fit(points, crs) for crs in candidates), key=lambda f: (not f.reproduces_all(), f.rms))


def calibrated(towns: pd.DataFrame, path: Path = CONTROL_POINTS) -> tuple[Fit, list[Fit], pd.DataFrame]:
    """(chosen fit, all fits, control points with coordinates) for the towns table."""
    points = with_coordinates(load_control_points(path), towns)
    fits = calibrate(points)
    return fits[0], fits, points


def extremes(country, grid: Grid) -> list[dict]:
    """Germany's northern-, southern-, western- and easternmost boundary points with their grid values."""
    coords = np.vstack(
        [np.asarray(ring.coords) for poly in getattr(country, "geoms", [country]) for ring in [poly.exterior]]
    )
    picks = {
        "N": coords[:, 1].argmax(),
        "S": coords[:, 1].argmin(),
        "W": coords[:, 0].argmin(),
        "O": coords[:, 0].argmax(),
    }
    rows = []
    for side, i in picks.items():
        lon, lat = coords[i]
        ns, we = grid.values(lat, lon)[0]
        rows.append(
            {
                "side": side,
                "lat": round(float(lat), 5),
                "lon": round(float(lon), 5),
                "ns": round(float(ns), 2),
                "we": round(float(we), 2),
                "off_map": bool(off_map(whole_numbers([[ns, we]]))[0]),
            }
        )
    return rows


def describe(lat: float, lon: float) -> str:
    return f"{abs(lat):.4f}°{'N' if lat >= 0 else 'S'} {abs(lon):.4f}°{'E' if lon >= 0 else 'W'}"


def check_latlon(lat: float, lon: float) -> None:
    if not (math.isfinite(lat) and math.isfinite(lon) and -90 <= lat <= 90 and -180 <= lon <= 180):
        raise GeodeckError(
            f"latitude {lat} / longitude {lon} are not coordinates; give LAT in -90..90 and "
            f"LON in -180..180 degrees, e.g. `geodeck grid 49.89 10.89`"
        )


def country_shape(boundaries_path: Path):
    """Germany's outline from transform's boundaries table."""

    if not boundaries_path.is_file():
        raise GeodeckError(f"{boundaries_path} is missing; run `geodeck build --stage towns` first")
    table = readers.table(boundaries_path, geo=True)
    return table.loc[table["level"] == "country"].geometry.iloc[0]


def report(chosen: Fit, fits: list[Fit], points: pd.DataFrame, places: pd.DataFrame, country) -> dict:
    """The calibration table, the chosen grid, Germany's extreme points and every off-map town."""
    fitted = chosen.grid.values(points["lat"], points["lon"])
    off = places.loc[places["off_map"]]
    return {
        "rounding": "half up",
        "clamping": "none: off-map towns are listed here and never selected",
        "candidates": [
            {
                "crs": f.grid.crs,
                "name": f.name,
                "rms": round(f.rms, 4),
                "max_residual": round(f.max_residual, 4),
                "exact_round": f.exact_round,
                "exact_floor": f.exact_floor,
                "points": len(points),
                "chosen": f is chosen,
            }
            for f in fits
        ],
        "chosen": {**chosen.grid.to_dict(), "reproduces_all": chosen.reproduces_all()},
        "control_points": [
            {
                "name": p["name"],
                "state": p["state"],
                "lat": p["lat"],
                "lon": p["lon"],
                "coord_source": p["coord_source"],
                "ns": int(p["ns"]),
                "we": int(p["we"]),
                "ns_value": round(float(v[0]), 3),
                "we_value": round(float(v[1]), 3),
                "card": [int(c) for c in whole_numbers(v)],
                "source": p["source"],
            }
            for p, v in zip(points.to_dict("records"), fitted)
        ],
        "extremes": extremes(country, chosen.grid),
        "towns_off_map": [
            {"name": r["name"], "state": r["state"], "ns": int(r["ns"]), "we": int(r["we"])}
            for r in off.to_dict("records")
        ],
    }


def markdown(r: dict) -> str:
    lines = [
        "# Grid calibration",
        "",
        f"Chosen: {r['chosen']['crs']} (reproduces every control point: {r['chosen']['reproduces_all']}). "
        f"Rounding {r['rounding']}; clamping {r['clamping']}.",
        "",
        "| CRS | name | RMS | max residual | exact (round) | exact (floor) | chosen |",
        "|---|---|---|---|---|---|---|",
    ]
    lines += [
        f"| {c['crs']} | {c['name']} | {c['rms']:.3f} | {c['max_residual']:.3f} | {c['exact_round']}/{c['points']} "
        f"| {c['exact_floor']}/{c['points']} | {'yes' if c['chosen'] else ''} |"
        for c in r["candidates"]
    ]
    lines += [
        "",
        "## Control points",
        "",
        "| town | lat | lon | coordinates | printed | fitted | card |",
        "|---|---|---|---|---|---|---|",
    ]
    lines += [
        f"| {p['name']} ({p['state']}) | {p['lat']:.5f} | {p['lon']:.5f} | {p['coord_source']} | "
        f"{p['ns']}/{p['we']} | {p['ns_value']:.2f}/{p['we_value']:.2f} | {p['card'][0]}/{p['card'][1]} |"
        for p in r["control_points"]
    ]
    lines += [
        "",
        "## Germany's extreme points (boundary polygon)",
        "",
        "| side | lat | lon | ns | we | off map |",
        "|---|---|---|---|---|---|",
    ]
    lines += [
        f"| {e['side']} | {e['lat']} | {e['lon']} | {e['ns']} | {e['we']} | {e['off_map']} |" for e in r["extremes"]
    ]
    lines += ["", f"## Towns off the map ({len(r['towns_off_map'])})", ""]
    lines += [f"- {t['name']} ({t['state']}): {t['ns']}/{t['we']}" for t in r["towns_off_map"]] or ["(none)"]
    return "\n".join(lines) + "\n"


def read_report(path: Path) -> tuple[dict, Grid]:
    """The geo stage's grid report (`report`, saved as JSON) and the grid it chose; a user error without it."""
    if not path.is_file():
        raise GeodeckError(f"{path} is missing; run `geodeck build --stage towns --stage geo` first")
    try:
        data = jsonfile.load(path, jsonfile.REPORT_BYTES)
        return data, Grid.from_dict(data["chosen"])
    except (ValueError, KeyError, TypeError) as exc:  # jsonfile.Unreadable is a ValueError
        raise GeodeckError(
            f"{path}: no calibrated grid under 'chosen' ({exc}); rebuild it with `geodeck build --stage geo --force`"
        ) from exc
