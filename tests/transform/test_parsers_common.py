"""The shared JSON and CSV readers: every parser's unreadable file or missing column is a ParseError naming it."""

import subprocess
import sys
from types import SimpleNamespace

import pytest

from pipeline.errors import ParseError
from pipeline.transform.parsers.common import Complete, load_features, load_json, parse_complete, read_csv


def test_load_json_reads_a_document_and_names_source_and_file_when_broken():
    assert load_json(b'[{"a": 1}]', "src", "f.json") == [{"a": 1}]
    for raw in (b'{"a": ', b"\xff\xfe not utf-8"):
        with pytest.raises(ParseError, match="not valid JSON") as err:
            load_json(raw, "src", "f.json")
        assert (err.value.source, err.value.field) == ("src", "f.json")


def test_load_features_needs_a_feature_list():
    assert load_features(b'{"type": "FeatureCollection", "features": []}', "src", "g.geojson") == []
    for raw in (b"[]", b'{"type": "Feature"}', b'{"features": {}}'):
        with pytest.raises(ParseError, match="FeatureCollection") as err:
            load_features(raw, "src", "g.geojson")
        assert err.value.field == "g.geojson"


def test_read_csv_keeps_text_and_marks_only_empty_cells():
    raw = b"iso2,name,value\nNA,Namibia,\nDE,Germany,1.5\n"
    text = read_csv(raw, "src", "f.csv", ["iso2", "value"])
    assert text["iso2"].tolist() == ["NA", "DE"] and text["value"].tolist() == ["", "1.5"]
    missing = read_csv(raw, "src", "f.csv", ["iso2"], empty_is_missing=True)
    assert missing["iso2"].tolist() == ["NA", "DE"] and missing["value"].isna().tolist() == [True, False]


def test_read_csv_names_the_missing_columns_or_the_whole_expected_header():
    raw = b"iso2,name\nDE,Germany\n"
    with pytest.raises(ParseError, match="column missing") as err:
        read_csv(raw, "src", "f.csv", ["iso2", "value", "year"])
    assert (err.value.source, err.value.field) == ("src", "f.csv: value, year")
    with pytest.raises(ParseError, match="expected name,iso2, got iso2,name") as err:
        read_csv(raw, "src", "f.csv", ["name", "iso2"], exact=True)
    assert err.value.field == "f.csv: header"
    with pytest.raises(ParseError, match="not a readable CSV") as err:
        read_csv(b'a,b\n"1,2\n', "src", "f.csv", ["a"])
    assert err.value.field == "f.csv"


def test_a_parsers_own_malformed_exceptions_are_parse_errors_and_only_its_own():
    """A parser adds what its file-format library raises (destatis: openpyxl's), so the other parsers need not
    import that library."""
    from openpyxl.utils.exceptions import InvalidFileException

    from pipeline.transform.parsers import destatis

    def parser(raises, **declared):
        def parse(_raw):
            raise raises("not a workbook")

        return SimpleNamespace(SOURCE="demo", COMPLETE=Complete(rows=1), parse=parse, **declared)

    assert InvalidFileException in destatis.MALFORMED
    with pytest.raises(ParseError, match=r"demo: input: malformed \(InvalidFileException: not a workbook"):
        parse_complete(parser(InvalidFileException, MALFORMED=(InvalidFileException,)), b"")
    with pytest.raises(InvalidFileException):  # another parser's input error is a bug there, not a layout change
        parse_complete(parser(InvalidFileException), b"")


def test_the_country_parsers_import_no_excel_reader():
    """openpyxl (0.2 s to import) is read by the towns' Destatis parser alone, not on transform-countries' path."""
    code = (
        "import sys; from pipeline.transform import countries; from pipeline.transform.country_sources import PARSERS; "
        "[countries.parser(name) for name in PARSERS]; print('openpyxl' in sys.modules)"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "False"
