"""The Deutschland grid: rulebook towns reproduce, calibration candidates, bad input."""

import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from fixtures.rulebook import DEUTSCHLAND_TOWNS

from pipeline.build import graph
from pipeline.cli import cli
from pipeline.errors import GeodeckError
from pipeline.games.deutschland.locate import locate
from pipeline.geo import grid


@pytest.fixture
def towns(towns_build, monkeypatch):
    """The built towns table; GEODECK_BUILD points at its build for code (and the CLI) reading build/."""
    monkeypatch.setenv("GEODECK_BUILD", str(towns_build))
    return pd.read_parquet(graph.output("validate/towns.parquet"))


def test_rulebook_towns_reproduce_their_numbers_from_the_towns_table(towns):
    chosen, _, _ = grid.calibrated(towns)
    assert chosen.reproduces_all()
    for name, numbers in DEUTSCHLAND_TOWNS.items():
        town = towns.loc[towns["short_name"] == name].query("population > 40000")
        assert len(town) == 1, name
        assert tuple(chosen.grid.numbers(town["lat"], town["lon"])[0]) == numbers, name


def test_calibration_lists_candidates_with_residuals(towns):
    chosen, fits, _ = grid.calibrated(towns)
    assert {f.grid.crs for f in fits} >= {"EPSG:4326", "EPSG:25832", "EPSG:3035"}
    assert fits[0] is chosen and chosen.rms == min(f.rms for f in fits if f.reproduces_all())
    for f in fits:
        assert 0 < f.rms <= f.max_residual * np.sqrt(2) and f.residuals.shape == (6, 2)
    # a metric projection cannot fit the map's grid (its units are not square on the ground)
    utm = next(f for f in fits if f.grid.crs == "EPSG:25832")
    assert not utm.reproduces_all() and utm.rms > 2 * chosen.rms


def test_every_located_town_is_on_the_map(towns):
    chosen, _, _ = grid.calibrated(towns)
    located = towns.loc[towns["lat"].notna()]
    assert not grid.off_map(chosen.grid.numbers(located["lat"], located["lon"])).any()


def test_grid_command_prints_numbers_and_refuses_points_off_the_map(towns):
    runner = CliRunner()
    bamberg = runner.invoke(cli, ["grid", "49.9", "10.9"])
    assert bamberg.exit_code == 0 and bamberg.stdout == "49.9000°N 10.9000°E: north-south 102, west-east 49\n"
    as_json = runner.invoke(cli, ["grid", "49.9", "10.9", "--format", "json"])
    assert json.loads(as_json.stdout) == {"lat": 49.9, "lon": 10.9, "ns": 102, "we": 49, "on_map": True}
    warsaw = runner.invoke(cli, ["grid", "52.23", "21.01"])
    assert warsaw.exit_code == 1
    assert "off the map" in warsaw.output and "north-south 56" in warsaw.output and "west-east 150" in warsaw.output
    warsaw = runner.invoke(cli, ["grid", "52.23", "21.01", "--format", "json"])
    assert warsaw.exit_code == 1 and json.loads(warsaw.stdout) == {
        "lat": 52.23,
        "lon": 21.01,
        "ns": 56,
        "we": 150,
        "on_map": False,
    }
    strasbourg = runner.invoke(cli, ["grid", "48.58", "7.75"])  # inside the grid's rectangle, outside Germany
    assert strasbourg.exit_code == 1 and "off the map" in strasbourg.output
    chosen, _, _ = grid.calibrated(towns)
    assert locate(48.58, 7.75, chosen.grid) == (127, 17, False)
    with pytest.raises(GeodeckError, match="not coordinates"):
        locate(95, 3, chosen.grid)


def test_grid_report_shows_the_geo_stages_calibration(geo_build, monkeypatch):
    monkeypatch.setenv("GEODECK_BUILD", str(geo_build))
    report = CliRunner().invoke(cli, ["grid", "--report"])
    assert report.exit_code == 0 and "EPSG:3035" in report.stdout and "Koblenz" in report.stdout


def test_grid_command_without_a_build_uses_the_published_deck(tmp_path, mirror, monkeypatch):
    """A fresh clone: only the committed decks; the numbers come from the Deutschland deck's grid and
    Germany's outline from the pinned boundary snapshot."""
    monkeypatch.setenv("GEODECK_BUILD", str(tmp_path / "build"))
    monkeypatch.setenv("GEODECK_STORE", str(tmp_path / "store"))
    monkeypatch.setenv("GEODECK_MIRROR", str(mirror))
    (tmp_path / "build").mkdir()
    runner = CliRunner()
    bamberg = runner.invoke(cli, ["grid", "49.9", "10.9"])
    assert bamberg.exit_code == 0 and bamberg.stdout.endswith("north-south 102, west-east 49\n")
    strasbourg = runner.invoke(cli, ["grid", "48.58", "7.75"])
    assert strasbourg.exit_code == 1 and "off the map" in strasbourg.output
    warsaw = runner.invoke(cli, ["grid", "52.23", "21.01"])
    assert warsaw.exit_code == 1 and "west-east 150" in warsaw.output
    report = runner.invoke(cli, ["grid", "--report"])
    assert isinstance(report.exception, GeodeckError) and "grid_report.json is missing" in str(report.exception)
    assert not any((tmp_path / "build").iterdir())


def test_malformed_control_points_are_a_clear_error(tmp_path):
    bad = tmp_path / "points.csv"
    bad.write_text(
        "name,state,ns,we,source\nBamberg,Bayern,102,forty-nine,rulebook\nEmden,Niedersachsen,33,12,r\n"
        "Jena,Thüringen,82,56,r\n"
    )
    with pytest.raises(GeodeckError, match="we of Bamberg"):
        grid.load_control_points(bad)
    bad.write_text("town,ns,we\nBamberg,102,49\n")
    with pytest.raises(GeodeckError, match="expected name,state,ns,we,source"):
        grid.load_control_points(bad)
    bad.write_text("name,state,ns,we,source\nBamberg,Bayern,102,49,r\n")
    with pytest.raises(GeodeckError, match="at least 3"):
        grid.load_control_points(bad)


def test_grid_json_round_trip_gives_the_same_values_and_means_what_docs_say():
    """deck.json `grid`: ns = a·x + b·y + c per affine row, (x, y) the point in `crs`; exact after JSON."""
    from pyproj import Transformer

    original = grid.Grid("EPSG:3857", ((-4.8e-07, 8.97e-05), (-1.107e-04, 1.9e-07), (814.21, -61.09)))
    data = json.loads(json.dumps(original.to_dict()))
    assert grid.Grid.from_dict({**data, "control_points": "x.csv"}) == original
    x, y = Transformer.from_crs("EPSG:4326", "EPSG:3857", always_xy=True).transform(10.9, 49.9)
    (a, b, c), (d, e, f) = data["affine"]
    assert original.values(49.9, 10.9)[0] == pytest.approx([a * x + b * y + c, d * x + e * y + f], abs=1e-9)
    for bad in (
        {"affine": data["affine"]},
        {**data, "crs": "EPSG:999999"},
        {**data, "affine": [[1, 2, 3]]},
        {**data, "affine": [[1, 2, 3], [4, 5, float("nan")]]},
        {**data, "crs": 3857},
    ):
        with pytest.raises(ValueError):
            grid.Grid.from_dict(bad)
