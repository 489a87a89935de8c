"""CIA World Factbook JSON (one file per entity, named by its FIPS/GEC code): areas, peaks, people, capitals.

Values are free text with units ("357,022 sq km", "Zugspitze 2,963 m", "84,012,284 (2025 est.)"); keys may
carry trailing spaces. Every entity file gives one row of the parsed table, countries or not; the ISO3 key
comes from the entity's name through country_converter's patterns, with the reviewed GEC_ISO3 table first.
A stated value that does not parse is a ParseError (a changed layout), except the reviewed TEXT_WITHOUT_VALUE.
West Bank (`we`) and Gaza Strip (`gz`) both map to PSE and are combined in `to_observations`.
"""

import re
from html import unescape

import pandas as pd
from bs4 import BeautifulSoup

from pipeline.errors import ParseError
from pipeline.extract import names
from pipeline.transform.observations import frame
from pipeline.transform.parsers.common import Complete, load_json
from pipeline.transform.parsers.iso3 import name_to_iso3

SOURCE = names.FACTBOOK
COMPLETE = Complete(rows=230, countries=220)  # pinned file: 255 rows, 244 countries

SECTIONS = ("Geography", "People and Society", "Government", "Economy")

# GEC codes whose name match is missing or must not be guessed: code -> (ISO3 or None, why).
GEC_ISO3 = {
    "kv": ("XKX", "Kosovo: user-assigned code XKX"),
    "we": ("PSE", "West Bank: part of Palestine (PSE), combined with Gaza Strip"),
    "gz": ("PSE", "Gaza Strip: part of Palestine (PSE), combined with West Bank"),
    "ay": ("ATA", "Antarctica"),
    "vq": ("VIR", "Virgin Islands: the US Virgin Islands (the name alone also matches the British ones)"),
    "um": ("UMI", "US Pacific Island Wildlife Refuges: the bulk of US Minor Outlying Islands"),
    "ee": (None, "European Union: not a country"),
    "at": (None, "Ashmore and Cartier Islands: Australian territory without an ISO code"),
    "cr": (None, "Coral Sea Islands: Australian territory without an ISO code"),
    "wq": (None, "Wake Island: part of US Minor Outlying Islands (UMI)"),
    "bq": (None, "Navassa Island: part of US Minor Outlying Islands (UMI)"),
    "pf": (None, "Paracel Islands: disputed, no ISO code"),
    "pg": (None, "Spratly Islands: disputed, no ISO code"),
    "ax": (None, "Akrotiri: UK sovereign base area on Cyprus, no ISO code"),
    "dx": (None, "Dhekelia: UK sovereign base area on Cyprus, no ISO code"),
    "jn": (None, "Jan Mayen: part of Svalbard and Jan Mayen (SJM), which Svalbard `sv` carries"),
    "ip": (None, "Clipperton Island: French, no ISO code"),
}
# Land boundaries keys that list neighbours (Hong Kong and Macau: regional; Cyprus: the UK base areas).
BORDER_KEYS = ("border countries", "regional borders", "border sovereign base areas")
# Border entries that name a place that is not a neighbouring country.
NOT_NEIGHBOURS = {"US Naval Base at Guantanamo Bay"}
# Reviewed: entries whose text states no value, (GEC code, column) -> what the text says instead.
TEXT_WITHOUT_VALUE = {
    ("nr", "capital"): "Nauru: no official capital, government offices in the Yaren District",
    ("io", "capital"): "British Indian Ocean Territory: administered from London",
    ("um", "population"): "US Pacific Island Wildlife Refuges: a note on entry permits, no count",
    ("ax", "population"): "Akrotiri: an approximate count for both UK sovereign base areas",
    ("dx", "population"): "Dhekelia: an approximate count for both UK sovereign base areas",
}

NUMBER = r"\d[\d,]*(?:\.\d+)?"
AREA = re.compile(rf"(?P<num>{NUMBER})\s*(?P<million>million\s+)?sq\s*km(?:\s*\((?P<label>[^)]*)\))?")
PEAK = re.compile(rf"^(?P<name>.*?)\s*(?P<num>-?{NUMBER})\s*(?:m\b|$)")
ESTIMATE = re.compile(rf"^\$?(?P<num>{NUMBER})")
VINTAGE = re.compile(r"\((?P<vintage>[^()]*\b\d{4}\b[^()]*)\)")
COORDS = re.compile(r"(\d+)\s+(\d+)\s*([NS]),\s*(\d+)\s+(\d+)\s*([EW])")
NOBODY = re.compile(r"^(uninhabited|no permanent inhabitants)")
PARENTHESES = re.compile(r"\s*\([^()]*\)")
LOCATOR = re.compile(r"\s+(?=(?:on|in)\s)")  # 'Fako on Mont Cameroun', 'Pico de Teide on Canary Islands'


COLUMNS = {
    "gec": "FIPS/GEC code of the entity file",
    "path": "file path in the snapshot",
    "name": "conventional short form (long form when none)",
    "iso3": "ISO3 or <NA>",
    "iso3_note": "",
    "area_km2": "km²",
    "area_core_km2": "km², metropolitan part where stated",
    "area_core_label": "",
    "area_text": "",
    "area_note": "",
    "highest_point_name": "",
    "highest_point_m": "m",
    "highest_point_note": "",
    "population": "persons",
    "population_vintage": "",
    "population_note": "",
    "life_expectancy": "years, total population",
    "life_expectancy_vintage": "",
    "gdp_pcap_ppp": "int$ (PPP), constant dollars of `gdp_pcap_base`",
    "gdp_pcap_year": "",
    "gdp_pcap_base": "e.g. '2021 dollars', '' when not stated",
    "gdp_pcap_note": "",
    "capital": "';'-joined",
    "capital_lat": "degrees",
    "capital_lon": "degrees",
    "capital_text": "",
    "land_boundaries": "whether the entity has a Land boundaries entry",
    "border_countries": "raw names, ';'-joined",
    "land_neighbours": "ISO3, ';'-joined, sorted",
    "border_unmapped": "border names without ISO3, ';'-joined",
}


def read(store, source) -> dict[str, bytes]:
    """The entity files (path -> bytes), without the metadata under meta/."""
    return {f.path: store.read(f) for f in source.files if f.path.endswith(".json") and not f.path.startswith("meta/")}


def parse(raw: dict[str, bytes]) -> pd.DataFrame:
    """One row per entity file, sorted by GEC code; columns and units as in COLUMNS.

    An absent entry is <NA>; a file that is not JSON, lacks one of SECTIONS or states a value that does not
    parse (and is not in TEXT_WITHOUT_VALUE) raises ParseError.
    """
    rows = [_entity(path, data) for path, data in sorted(raw.items())]
    df = pd.DataFrame(rows, columns=list(COLUMNS)).sort_values("gec", kind="stable").reset_index(drop=True)
    dupes = df[df["iso3"].notna() & (df["iso3"] != "PSE")].groupby("iso3")["gec"].agg(list)
    dupes = dupes[dupes.str.len() > 1]
    if len(dupes):
        raise ParseError(
            SOURCE,
            "Government > Country name",
            f"several entities map to one ISO3: {dict(dupes)}; add them to GEC_ISO3",
        )
    return df


def to_observations(parsed: pd.DataFrame) -> pd.DataFrame:
    """Observation rows for every entity with an ISO3 key; West Bank and Gaza Strip combined as PSE."""
    rows = []
    for iso3, group in parsed[parsed["iso3"].notna()].groupby("iso3", sort=True):
        entity = _combine(group) if len(group) > 1 else group.iloc[0].to_dict()
        rows += _observations(iso3, entity)
    return frame(rows)


# --- one entity -------------------------------------------------------------------------------------------


def _entity(path: str, data: bytes) -> dict:
    doc = load_json(data, SOURCE, path, _stripped_keys)
    for section in SECTIONS:
        if not isinstance(doc.get(section), dict):
            raise ParseError(SOURCE, f"{path}: {section}", "section missing")
    geo, people, gov, econ = (doc[s] for s in SECTIONS)
    gec = path.rsplit("/", 1)[-1].removesuffix(".json")
    name = _name(gov.get("Country name", {}))
    iso3, iso3_note = GEC_ISO3.get(gec) or (name_to_iso3(name) if name else None, "")
    if gec not in GEC_ISO3 and iso3 is None:
        iso3_note = f"no ISO3 for name {name!r}"
    row = {"gec": gec, "path": path, "name": name, "iso3": iso3, "iso3_note": iso3_note}
    for texts, values in (
        _area(geo.get("Area", {})),
        _highest_point(geo.get("Elevation", {})),
        _population(people.get("Population", {})),
        _life_expectancy(people.get("Life expectancy at birth", {})),
        _gdp_pcap(econ.get("Real GDP per capita", {})),
        _capital(gov.get("Capital", {})),
    ):
        for column, text in texts.items():
            if text and values[column] is None and (gec, column) not in TEXT_WITHOUT_VALUE:
                raise ParseError(SOURCE, f"{path}: {column}", f"cannot read {text[:80]!r}")
        row |= values
    row |= _borders(geo.get("Land boundaries"))
    return row


def _stripped_keys(pairs: list[tuple[str, object]]) -> dict:
    """A JSON object without the whitespace around its keys ("total " -> "total"), as it is read."""
    return {k.strip(): v for k, v in pairs}


def plain(text: str | None) -> str:
    """Factbook HTML as one line of plain text; line breaks become '; '."""
    if not text:
        return ""
    text = re.sub(r"<br\s*/?>", "; ", text)
    text = BeautifulSoup(text, "html.parser").get_text() if "<" in text else unescape(text)
    text = re.sub(r"\s+", " ", text.replace("\xa0", " "))
    return re.sub(r"(?:\s*;\s*)+", "; ", text).strip("; ")


def _text(entry: dict, *keys: str) -> str:
    """Plain text of the first of `keys` present in the entry ({"key": {"text": ...}} or {"key": "..."})."""
    for key in keys:
        value = entry.get(key)
        if isinstance(value, dict):
            value = value.get("text")
        if value:
            return plain(value)
    return ""


def _number(text: str) -> float:
    return float(text.replace(",", ""))


def _name(entry: dict) -> str:
    for key in ("conventional short form", "conventional long form"):
        name = _text(entry, key)
        if name and name != "none":
            return name
    return ""


def parse_area(text: str) -> tuple[float | None, float | None, str]:
    """Total km², metropolitan km² and its label from e.g. '643,801 sq km ; 551,500 sq km (metropolitan France)'."""
    matches = list(AREA.finditer(text))
    if not matches:
        return None, None, ""

    def km2(m):
        return _number(m["num"]) * (1e6 if m["million"] else 1)

    core = next((m for m in matches[1:] if (m["label"] or "").startswith("metropolitan")), None)
    return km2(matches[0]), (km2(core) if core else None), (core["label"] if core else "")


# Each entry reader returns ({column: the text it was read from}, {column: value}).


def _area(entry: dict) -> tuple[dict, dict]:
    text = _text(entry, "total", "text")
    total, core, label = parse_area(text)
    return {"area_km2": text}, {
        "area_km2": total,
        "area_core_km2": core,
        "area_core_label": label,
        "area_text": text,
        "area_note": _text(entry, "note"),
    }


def parse_highest_point(text: str) -> tuple[str | None, float | None, str]:
    """Name, metres and remarks from e.g. 'Zugspitze 2,963 m', 'Mont Blanc 4,810' (no unit) or
    'Mount Scenery (on the island of Saba ...) 862 m'; remarks are parentheses and further '; ' parts.
    A locator after the name (' on …', ' in …': 'Fako on Mont Cameroun') is a remark, not part of the name."""
    remarks = [p.strip(" ()") for p in PARENTHESES.findall(text)]
    first, *rest = [part.strip() for part in PARENTHESES.sub("", text).split(";")]
    remarks += [p for p in rest if p]
    m = PEAK.match(first)
    if not m:
        return None, None, "; ".join(remarks)
    name, *locator = LOCATOR.split(m["name"].strip(), maxsplit=1)
    return name.strip() or None, _number(m["num"]), "; ".join(locator + remarks)


def _highest_point(entry: dict) -> tuple[dict, dict]:
    text = _text(entry, "highest point")
    name, metres, remarks = parse_highest_point(text)
    note = "; ".join(x for x in (remarks, _text(entry, "note")) if x)
    return {"highest_point_m": text}, {
        "highest_point_name": name,
        "highest_point_m": metres,
        "highest_point_note": note,
    }


def parse_estimate(text: str) -> tuple[float | None, str]:
    """Leading number and the year in parentheses: '84,012,284 (2025 est.)', '$62,800 (2024 est.)',
    '(2017 est.) 77.9'."""
    vintage = VINTAGE.search(text)
    m = ESTIMATE.match(VINTAGE.sub("", text, count=1).strip())
    return (_number(m["num"]) if m else None), (vintage["vintage"].strip() if vintage else "")


def _population(entry: dict) -> tuple[dict, dict]:
    text = _text(entry, "total", "text")
    value, vintage = parse_estimate(text)
    if value is None and NOBODY.match(text):
        value, vintage = 0.0, ""
    note = "; ".join(x for x in (text if value in (None, 0.0) else "", _text(entry, "note")) if x)
    return {"population": text}, {"population": value, "population_vintage": vintage, "population_note": note}


def _life_expectancy(entry: dict) -> tuple[dict, dict]:
    text = _text(entry, "total population")
    value, vintage = parse_estimate(text)
    if value is not None and not vintage:  # e.g. Western Sahara states the year on the 'female' line only
        vintage = next((v for k in entry if (v := parse_estimate(_text(entry, k))[1])), "")
    return {"life_expectancy": text}, {"life_expectancy": value, "life_expectancy_vintage": vintage}


def _gdp_pcap(entry: dict) -> tuple[dict, dict]:
    """The latest year's value, its year and its dollar base."""
    years = sorted((int(m[1]), key) for key in entry if (m := re.fullmatch(r"Real GDP per capita (\d{4})", key)))
    for year, key in reversed(years):
        value, _ = parse_estimate(_text(entry, key))
        if value is not None:
            note = _text(entry, "note").removeprefix("note:").strip()
            base = re.search(r"data (?:are )?in (\d{4} dollars|current dollars)", note)
            return {}, {
                "gdp_pcap_ppp": value,
                "gdp_pcap_year": str(year),
                "gdp_pcap_base": base[1] if base else "",
                "gdp_pcap_note": note,
            }
    text = "; ".join(_text(entry, key) for _, key in years)
    return {"gdp_pcap_ppp": text}, {"gdp_pcap_ppp": None, "gdp_pcap_year": "", "gdp_pcap_base": "", "gdp_pcap_note": ""}


def parse_capital(text: str) -> list[str]:
    """Capital names from e.g. 'Pretoria (administrative capital); Cape Town (legislative capital)',
    'Gitega (political capital), Bujumbura (commercial capital)', 'Santiago; note - Valparaiso is ...'."""
    names = []
    for part in re.split(r";|(?<=\)),\s*", text):
        name = PARENTHESES.sub("", part).strip()
        name = re.sub(r"\s+(?:in|is)\s+.*$", "", name)  # 'Chisinau in Romanian', 'Nay Pyi Taw is the ...'
        if name[:1].isupper() and not name.lower().startswith("note"):
            names.append(name)
    return names


def parse_coordinates(text: str) -> tuple[float | None, float | None]:
    """Latitude and longitude in degrees from '52 31 N, 13 24 E'."""
    m = COORDS.search(text)
    if not m:
        return None, None
    lat = (int(m[1]) + int(m[2]) / 60) * (1 if m[3] == "N" else -1)
    lon = (int(m[4]) + int(m[5]) / 60) * (1 if m[6] == "E" else -1)
    return round(lat, 4), round(lon, 4)


def _capital(entry: dict) -> tuple[dict, dict]:
    text = _text(entry, "name")
    coordinates = _text(entry, "geographic coordinates")
    lat, lon = parse_coordinates(coordinates)
    return {"capital": text, "capital_lat": coordinates}, {
        "capital": ";".join(parse_capital(text)) or None,
        "capital_lat": lat,
        "capital_lon": lon,
        "capital_text": text,
    }


def parse_border_countries(text: str) -> list[str]:
    """Neighbour names from e.g. 'Austria 801 km; China (southeast) 4,133 km and China (south) 46 km'."""
    names = []
    for item in re.split(r";|(?<=km),\s*|(?<=km)\s+and\s+", text):
        m = re.match(rf"\s*(?P<name>.+?)\s+{NUMBER}\s*km", item)
        if m:
            names.append(m["name"])
    return names


def _borders(entry: dict | None) -> dict:
    names = parse_border_countries(_text(entry or {}, *BORDER_KEYS))
    codes, unmapped = set(), []
    for name in names:
        base = PARENTHESES.sub("", name).strip()  # 'Spain (Ceuta)' -> Spain, 'Denmark (Greenland)' -> Denmark
        code = None if name in NOT_NEIGHBOURS else name_to_iso3(base) or name_to_iso3(name)
        (codes.add(code) if code else unmapped.append(name))
    return {
        "land_boundaries": entry is not None,
        "border_countries": ";".join(names),
        "land_neighbours": ";".join(sorted(codes)),
        "border_unmapped": ";".join(unmapped),
    }


# --- observations -----------------------------------------------------------------------------------------


def _combine(group: pd.DataFrame) -> dict:
    """Entities sharing one ISO3 (West Bank + Gaza Strip) as one: areas and people summed, life expectancy
    weighted by population, the highest of the peaks, the union of neighbours."""
    parts = " + ".join(f"{n} ({g})" for n, g in zip(group["name"], group["gec"]))
    people = group["population"]
    top = group.loc[group["highest_point_m"].idxmax()]
    gdp = group["gdp_pcap_ppp"].dropna().unique()
    iso3 = group["iso3"].iloc[0]
    neighbours = set(";".join(group["land_neighbours"]).split(";")) - {"", iso3}
    return {
        "iso3_note": f"combined from {parts}",
        "area_km2": group["area_km2"].sum(min_count=len(group)),
        "area_core_km2": None,
        "area_note": "",
        "highest_point_name": top["highest_point_name"],
        "highest_point_m": top["highest_point_m"],
        "highest_point_note": f"highest of {parts}",
        "population": people.sum(min_count=len(group)),
        "population_vintage": group["population_vintage"].iloc[0],
        "population_note": "",
        "life_expectancy": (group["life_expectancy"] * people).sum(min_count=len(group)) / people.sum(),
        "life_expectancy_vintage": group["life_expectancy_vintage"].iloc[0],
        "gdp_pcap_ppp": gdp[0] if len(gdp) == 1 else None,
        "gdp_pcap_year": group["gdp_pcap_year"].iloc[0],
        "gdp_pcap_base": group["gdp_pcap_base"].iloc[0],
        "gdp_pcap_note": group["gdp_pcap_note"].iloc[0],
        "capital": None,
        "capital_lat": None,
        "capital_lon": None,
        "land_boundaries": bool(group["land_boundaries"].any()),
        "land_neighbours": ";".join(sorted(neighbours)),
        "border_unmapped": "",
    }


def _observations(iso3: str, e: dict) -> list[dict]:
    combined = e["iso3_note"].startswith("combined")

    def note(*parts: str) -> str:
        return "; ".join(p for p in ((e["iso3_note"] if combined else ""), *parts) if p)

    def obs(field, value, vintage="", *notes):
        return (
            [{"iso3": iso3, "field": field, "value": value, "source": SOURCE, "vintage": vintage, "note": note(*notes)}]
            if pd.notna(value)
            else []
        )

    area_note = e["area_note"] + ("; area rounded to 0 sq km in the source" if e["area_km2"] == 0 else "")
    return [
        *obs("area_km2", e["area_km2"], "", area_note.strip("; ")),
        *obs("area_core_km2", e["area_core_km2"], "", e.get("area_core_label", "")),
        *obs("highest_point_name", e["highest_point_name"], "", e["highest_point_note"]),
        *obs("highest_point_m", e["highest_point_m"], "", e["highest_point_note"]),
        *obs("population", e["population"], e["population_vintage"], e["population_note"]),
        *obs(
            "life_expectancy",
            e["life_expectancy"],
            e["life_expectancy_vintage"],
            "weighted by population" if combined else "",
        ),
        *obs("gdp_pcap_ppp", e["gdp_pcap_ppp"], e["gdp_pcap_year"], e["gdp_pcap_note"] or "dollar base not stated"),
        *obs("capital", e["capital"]),
        *obs("capital_lat", e["capital_lat"]),
        *obs("capital_lon", e["capital_lon"]),
        *obs(
            "land_neighbours",
            e["land_neighbours"] if e["land_boundaries"] else None,
            "",
            f"not countries: {e['border_unmapped']}" if e["border_unmapped"] else "",
        ),
    ]
