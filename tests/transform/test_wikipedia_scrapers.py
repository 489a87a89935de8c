"""The Wikipedia scrapers on real page markup (../shared/fixtures/wikipedia/, 2014) and on fixtures written in
today's markup for what it lacks (rowspan, data-sort-value, U+2212): every cell read as the page shows it,
a renamed or missing column a ParseError, mutated pages a table or a ParseError, and a first pin through
`fetch --refresh`."""

import hashlib
import shutil
from datetime import date
from pathlib import Path

import pandas as pd
import pycountry
import pytest
import responses
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline import paths
from pipeline.errors import ParseError
from pipeline.extract import http, load_sources, open_store
from pipeline.extract import refresh as refreshing
from pipeline.transform import refreshed
from pipeline.transform.parsers import wikipedia_elevation_extremes as elevations
from pipeline.transform.parsers import wikipedia_temperature_page as temperatures
from pipeline.transform.parsers import wikitable
from pipeline.transform.parsers.common import parse_complete

HERE = Path(__file__).parents[1] / "fixtures" / "wikipedia"
SHARED = paths.ROOT.parent / "shared" / "fixtures" / "wikipedia" / "wikipedia_states.html"
CITIES = (HERE / "cities_by_temperature.html").read_bytes()
EXTREMES = (HERE / "elevation_extremes_by_country.html").read_bytes()


@pytest.fixture(scope="module")
def states() -> list[wikitable.WikiTable]:
    if not SHARED.is_file():
        pytest.skip(f"shared fixture {SHARED} not found")
    return wikitable.tables(SHARED.read_bytes(), "test", SHARED.name)


def test_real_page_tables_headers_and_cells(states):
    assert len(states) == 3  # the portal box, mbox and nested navbox tables are not wikitables
    first = states[0]
    assert first.columns[:4] == ("State/territory", "Total area / Rank", "Total area / sq mi", "Total area / km²")
    assert "Land area / % land" in first.columns  # &#160; in the header, footnote [2] dropped from the group
    alaska = dict(zip(first.columns, (c.text for c in first.rows[0])))
    assert alaska["State/territory"] == "Alaska"
    assert alaska["Total area / Rank"] == "1"  # the visible sort key "!C&#160;" is dropped
    assert alaska["Land area / % land"] == "85.76%"  # the hidden sort key 7001857600000000000 is dropped
    assert first.rows[0][3].number() == 1723337.0  # thousands separators
    assert [len(t.rows) for t in states] == [57, 9, 4]
    names = [row[0].text for t in states for row in t.rows]
    assert "All U.S. territory" not in names and "Contiguous United States" not in names  # total rows
    assert not any("[" in c.text for t in states for row in t.rows for c in row)  # no footnote markers


def test_rowspan_flag_icons_minus_signs_and_sort_values():
    table = temperatures.parse(CITIES)
    assert table.to_dict("records") == [
        {"country": "Algeria", "iso3": "DZA", "city": "Algiers", "mean_temp_c": 17.4},
        {"country": "Algeria", "iso3": "DZA", "city": "Tamanrasset", "mean_temp_c": 21.7},
        {"country": "Nigeria", "iso3": "NGA", "city": "Lagos", "mean_temp_c": 26.8},
        {"country": "Germany", "iso3": "DEU", "city": "Berlin", "mean_temp_c": 9.4},
        {"country": "Russia", "iso3": "RUS", "city": "Moscow", "mean_temp_c": 5.8},
        {"country": "Russia", "iso3": "RUS", "city": "Yakutsk", "mean_temp_c": -8.8},
    ]


def test_elevations_read_every_form():
    table = elevations.parse(EXTREMES).set_index("country")
    assert len(table) == 7  # the continents table above lacks the columns and is skipped
    assert table.loc["Azerbaijan", ["highest_m", "lowest_m"]].tolist() == [4466.0, -28.0]  # span data-sort-value
    assert table.loc["Germany", ["highest_point", "highest_m", "lowest_m"]].tolist() == ["Zugspitze", 2962.0, -3.54]
    assert table.loc["Barbados", ["lowest_point", "lowest_m"]].tolist() == ["Atlantic Ocean", 0.0]  # rowspan
    assert table.loc["Maldives", "lowest_m"] == 0.0  # "sea level"
    assert table.loc["Nepal", "highest_m"] == 8848.86
    assert table.loc["Bahamas", "highest_point"] == "Mount Alvernia, Cat Island"
    assert table["iso3"].tolist() == ["AFG", "AZE", "BHS", "BRB", "DEU", "MDV", "NPL"]


def test_cell_prefers_its_sort_value():
    assert wikitable.Cell("about 7,500 m", "7492").number() == 7492.0
    assert wikitable.Cell("\u22123.5 (26 °F)").number() == -3.5
    assert wikitable.Cell("n/a").number() is None


@pytest.mark.parametrize(
    ("parser", "page", "old", "new", "named"),
    [
        (elevations, EXTREMES, b"Maximum elevation<sup", b"Max. height<sup", "Maximum elevation"),
        (elevations, EXTREMES, b"<th>Lowest point</th>", b"", "Lowest point"),
        (temperatures, CITIES, b"<th>Year</th>", b"<th>Annual</th>", "Year"),
        (temperatures, CITIES, b"<th>City</th>", b"<th>Town</th>", "City"),
    ],
)
def test_renamed_or_missing_column_is_a_parse_error(parser, page, old, new, named):
    assert old in page
    with pytest.raises(ParseError, match=f"{parser.SOURCE}: .*{named}.*no wikitable has these columns \\(found: "):
        parser.parse(page.replace(old, new))


def test_page_without_wikitables_and_non_html():
    with pytest.raises(ParseError, match="no wikitable"):
        elevations.parse(b"<html><body><p>Moved</p></body></html>")
    with pytest.raises(ParseError, match="not UTF-8 HTML"):
        temperatures.parse(b"\xff\xfe\x00garbage")


@pytest.mark.parametrize("parser", [elevations, temperatures])
def test_a_short_page_is_not_complete(parser):
    page = EXTREMES if parser is elevations else CITIES
    with pytest.raises(ParseError, match=r"rows, a complete file gives at least"):
        parse_complete(parser, page)


@pytest.mark.parametrize(("parser", "page"), [(elevations, EXTREMES), (temperatures, CITIES)])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_mutated_pages_give_a_table_or_a_parse_error(parser, page, data):
    kind = data.draw(st.sampled_from(["truncate", "flip", "delete", "random"]))
    if kind == "truncate":
        mutated = page[: data.draw(st.integers(0, len(page)))]
    elif kind == "flip":
        flipped = bytearray(page)
        for at in data.draw(st.lists(st.integers(0, len(page) - 1), min_size=1, max_size=30)):
            flipped[at] = data.draw(st.sampled_from(b'<>/"=0123456789-\xe2\x88\x92 a'))
        mutated = bytes(flipped)
    elif kind == "delete":
        start = data.draw(st.integers(0, len(page)))
        mutated = page[:start] + page[start + data.draw(st.integers(1, 400)) :]
    else:
        mutated = data.draw(st.binary(max_size=3000))
    for run in (parser.parse, lambda raw: parse_complete(parser, raw)):
        try:
            assert isinstance(run(mutated), pd.DataFrame)
        except ParseError as exc:
            assert str(exc).startswith(parser.SOURCE + ":")


def full_elevation_page() -> bytes:
    """The fixture's markup with one row per ISO country (enough for a complete page)."""
    row = (
        '<tr><td><span class="flagicon"><img alt="" src="x.png"/>&#160;</span><a href="/wiki/{0}">{0}</a></td>'
        '<td>Peak {1}</td><td data-sort-value="{2}">{2:,}&#160;m</td><td>Sea</td><td>&#8722;{3}&#160;m</td></tr>\n'
    )
    rows = "".join(row.format(c.name, i, 100 + i, i % 30) for i, c in enumerate(pycountry.countries))
    head, tail = EXTREMES.split(b'</tbody></table>\n<div class="reflist">')
    return head + rows.encode() + b'</tbody></table>\n<div class="reflist">' + tail


@responses.activate
def test_first_pin_of_a_scraped_page_through_refresh(tmp_path):
    sources = tmp_path / "sources"
    shutil.copytree(paths.SOURCES_DIR, sources)
    page = full_elevation_page()
    url = "https://en.wikipedia.org/wiki/List_of_elevation_extremes_by_country"
    responses.add(responses.GET, url, body=page, content_type="text/html; charset=UTF-8")
    source = load_sources(sources)[elevations.SOURCE]
    assert source.files == ()
    store = open_store(mirror=None, online=False, root=tmp_path / "store")
    session = http.session(None, http.HostRateLimit(0))
    [result] = refreshing.refresh([source], store, sources, date(2027, 1, 15), session, refreshed.changes)
    pinned = load_sources(sources)[elevations.SOURCE]
    [entry] = pinned.files
    assert (entry.path, entry.sha256, entry.bytes, entry.url) == (
        elevations.FILE,
        hashlib.sha256(page).hexdigest(),
        len(page),
        url,
    )
    assert pinned.vintage == "as served on 2027-01-15"
    assert store.read(entry) == page
    assert result.changes[0].startswith(f"{elevations.FILE}: first pin")
    assert parse_complete(elevations, store.read(entry))["iso3"].notna().sum() >= elevations.COMPLETE.countries


@responses.activate
def test_refresh_refuses_a_page_that_lost_its_table(tmp_path):
    sources = tmp_path / "sources"
    shutil.copytree(paths.SOURCES_DIR, sources)
    before = (sources / f"{elevations.SOURCE}.toml").read_bytes()
    page = full_elevation_page().replace(b"Maximum elevation", b"Max. height")
    url = "https://en.wikipedia.org/wiki/List_of_elevation_extremes_by_country"
    responses.add(responses.GET, url, body=page, content_type="text/html")
    store = open_store(mirror=None, online=False, root=tmp_path / "store")
    with pytest.raises(ParseError, match="Maximum elevation"):
        refreshing.refresh(
            [load_sources(sources)[elevations.SOURCE]],
            store,
            sources,
            date(2027, 1, 15),
            http.session(None),
            refreshed.changes,
        )
    assert (sources / f"{elevations.SOURCE}.toml").read_bytes() == before
    assert not any(p.is_file() for p in (tmp_path / "store").rglob("*"))
