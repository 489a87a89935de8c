"""Matching capitals to city names in temperature lists: normalization plus a small reviewed alias table.

`normalize` folds accents, case, punctuation, "St."/"Saint" and a "City"/"City of" affix, so "Kuwait City"
= "Kuwait", "Washington, D.C." = "Washington D.C." and "Bogotá" = "Bogota". Accent folding makes
"San José" (Costa Rica) and "San Jose" (California) collide: a source that has both must say which one is
which (see `parsers.city_temperatures.NOT_CAPITALS`).
"""

import re
import unicodedata

import pandas as pd

# Reviewed: other spellings of the same city (normalized variant -> normalized capital name).
ALIASES = {
    "ulaanbaatar": "ulan bator",
    "kiev": "kyiv",
    "nay pyi taw": "naypyidaw",
    "naypyitaw": "naypyidaw",
    "nur sultan": "astana",
    "tarawa": "south tarawa",
    "berne": "bern",
}

# Reviewed: a neighbouring city that stands in for a capital no list names (kept visible in the note).
PROXIES = {
    "vatican": ("rome", "Vatican City lies within Rome"),
    "new delhi": ("delhi", "New Delhi lies within Delhi"),
    "sri jayewardenepura kotte": (
        "colombo",
        "the value is Colombo's (the source has no Sri Jayewardenepura Kotte); Sri Jayewardenepura Kotte lies "
        "about 8 km east of Colombo's centre, in the Colombo urban area",
    ),
    "porto novo": (
        "cotonou",
        "the value is Cotonou's (no source an editor cites has Porto-Novo); Cotonou, Benin's seat of government, "
        "lies about 14 km west of Porto-Novo on the same coastal lagoon (Natural Earth 10m populated places)",
    ),
}

MATCH_COLUMNS = ["iso3", "capital", "rank", "city", "how", "note", "shared_with"]


def normalize(name: str) -> str:
    """A comparison key: no accents, lower case, no punctuation, "saint" spelled out, no "city" affix."""
    text = unicodedata.normalize("NFKD", str(name).replace("’", "'"))
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).casefold()
    text = re.sub(r"\bst\.?(?=\s)", "saint", text)
    text = re.sub(r"['.]", "", text)
    text = re.sub(r"[^a-z0-9]+", " ", text).strip()
    text = re.sub(r"^city of |(?<=\w) city$", "", text)
    return ALIASES.get(text, text)


def split_capitals(capitals: pd.DataFrame) -> pd.DataFrame:
    """One row per (iso3, capital) from a table whose `capital` may be ';'-joined, with its `rank` (0 first)."""
    rows = []
    for iso3, joined in zip(capitals["iso3"], capitals["capital"]):
        if pd.isna(joined):
            continue
        names = [n.strip() for n in str(joined).split(";") if n.strip()]
        rows += [{"iso3": iso3, "capital": name, "rank": rank} for rank, name in enumerate(names)]
    return pd.DataFrame(rows, columns=["iso3", "capital", "rank"])


def match_capitals(capitals: pd.DataFrame, cities: pd.DataFrame) -> pd.DataFrame:
    """Every (capital, city) pair whose names agree, for the card capital only (the first listed): the
    temperature on a card is measured in the city the card prints, never in a second capital.

    `capitals`: iso3, capital (';'-joined if several, first = the card capital). `cities`: city, and optionally iso3
    (a city with an iso3 only matches that country's capitals). Result columns MATCH_COLUMNS: `how` is
    "name" or "proxy", `note` explains a proxy, `shared_with` lists the other countries whose capital
    has the same normalized name ("" when none), so a caller never silently gives one city to two countries.
    """
    caps = split_capitals(capitals)
    caps = caps[caps["rank"] == 0].copy()
    caps["key"] = caps["capital"].map(normalize)
    caps["how"], caps["note"] = "name", ""
    proxied = caps[caps["key"].isin(PROXIES)].copy()
    proxied["note"] = proxied["key"].map(lambda k: f"proxy: {PROXIES[k][1]}")
    proxied["key"] = proxied["key"].map(lambda k: PROXIES[k][0])
    proxied["how"] = "proxy"
    caps = pd.concat([caps, proxied], ignore_index=True)

    city = pd.DataFrame({"city": cities["city"], "key": cities["city"].map(normalize)})
    city["city_iso3"] = cities.get("iso3", pd.NA)
    pairs = caps.merge(city, on="key")
    pairs = pairs[pairs["city_iso3"].isna() | (pairs["city_iso3"] == pairs["iso3"])]
    owners = pairs.groupby("city")["iso3"].agg(lambda s: sorted(set(s)))
    pairs["shared_with"] = [
        ";".join(i for i in owners[c] if i != iso3) for c, iso3 in zip(pairs["city"], pairs["iso3"])
    ]
    pairs = pairs.sort_values(["iso3", "rank", "how", "city"], kind="stable")
    return pairs[MATCH_COLUMNS].reset_index(drop=True)


def best_match(matches: pd.DataFrame) -> pd.DataFrame:
    """The chosen match per country: a real name before a proxy."""
    return matches.drop_duplicates("iso3", keep="first").reset_index(drop=True)


def match_note(row) -> str:
    """The observation note for a chosen match: the city, and any proxy or shared-name warning."""
    parts = [f"city: {row['city']}"]
    if row["city"] != row["capital"]:
        parts.append(f"for capital {row['capital']}")
    if row["note"]:
        parts.append(row["note"])
    if row["shared_with"]:
        parts.append(f"same city name also matched {row['shared_with']}")
    return "; ".join(parts)
