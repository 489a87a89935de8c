"""Facts defined once and shared by the stages: Natural Earth codes, rounding, hashing, source names; and a
CLI and step graph that import nothing heavy."""

import hashlib
import subprocess
import sys

import numpy as np
import pytest

from pipeline.country_codes import ADM0_TO_ISO3, ISO3_TO_ADM0, natural_earth_code
from pipeline.extract import load_sources, names
from pipeline.geo.grid import whole_numbers
from pipeline.hashing import file_sha256, sha256
from pipeline.paths import SOURCES_DIR
from pipeline.rounding import round_half_up
from pipeline.transform.parsers import natural_earth


def test_natural_earth_codes_go_both_ways_from_one_table():
    assert {ISO3_TO_ADM0[iso3]: iso3 for iso3 in ISO3_TO_ADM0} == ADM0_TO_ISO3
    for adm0, iso3 in ADM0_TO_ISO3.items():
        assert natural_earth_code(iso3) == adm0
        assert natural_earth.iso3_of(adm0, "-99") == iso3
    assert natural_earth_code("DEU") == "DEU" and natural_earth.iso3_of("DEU", "DEU") == "DEU"


@pytest.mark.parametrize(
    ("value", "decimals", "rounded"),
    [(2.675, 2, 2.68), (0.5, 0, 1.0), (1.5, 0, 2.0), (2.5, 0, 3.0), (-2.5, 0, -3.0), (0.285, 2, 0.29), (7.449, 1, 7.4)],
)
def test_rounding_is_half_up_on_the_shortest_decimal_form(value, decimals, rounded):
    assert round_half_up(value, decimals) == rounded


def test_grid_numbers_use_the_same_rounding():
    values = np.array([[102.5, 48.49999], [0.5, 89.5]])
    assert whole_numbers(values).tolist() == [[103, 48], [1, 90]]
    assert whole_numbers(values).dtype == np.int64 and whole_numbers(np.empty((0, 2))).shape == (0, 2)


def test_one_sha256_for_bytes_text_and_files(tmp_path):
    (tmp_path / "f").write_bytes("Köln".encode())
    assert sha256("Köln") == sha256("Köln".encode()) == hashlib.sha256("Köln".encode()).hexdigest()
    assert file_sha256(tmp_path / "f") == sha256("Köln")


def test_every_source_name_constant_is_a_source_definition():
    constants = {value for key, value in vars(names).items() if key.isupper()}
    assert constants <= set(load_sources())
    assert all((SOURCES_DIR / f"{name}.toml").is_file() for name in constants)


def test_the_cli_and_the_step_graph_import_nothing_heavy():
    code = (
        "import sys, pipeline.cli; from pipeline.build import graph, runner; "
        "sums = runner.Checksums(); [sums.code([s.module, *s.code]) for s in graph.steps()]; "
        "print(sorted({'pandas', 'geopandas', 'pyproj', 'reportlab', 'requests', 'numpy'} & set(sys.modules)))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"
