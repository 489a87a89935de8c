import os

import pytest

from pipeline import atomic


def test_write_replaces_whole_file_with_normal_permissions(tmp_path):
    target = tmp_path / "sub" / "out.txt"
    atomic.write_text(target, "first")
    atomic.write_text(target, "second")
    assert target.read_text() == "second"
    mask = os.umask(0)
    os.umask(mask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~mask
    assert [p.name for p in target.parent.iterdir()] == ["out.txt"]


def test_failed_write_keeps_the_old_file(tmp_path):
    target = tmp_path / "out.txt"
    atomic.write_text(target, "good")
    with pytest.raises(TypeError):
        atomic.write_bytes(target, object())  # type: ignore[arg-type]
    assert target.read_text() == "good"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_parquet_round_trips_without_the_index_and_keeps_geometry(tmp_path):
    import geopandas as gpd
    import pandas as pd
    from shapely.geometry import Point

    frame = pd.DataFrame({"a": [2, 1]}, index=[7, 3])
    atomic.write_parquet(tmp_path / "t.parquet", frame)
    assert pd.read_parquet(tmp_path / "t.parquet").equals(frame.reset_index(drop=True))
    shapes = gpd.GeoDataFrame({"name": ["x"]}, geometry=[Point(1, 2)], crs="EPSG:4326")
    atomic.write_parquet(tmp_path / "g.parquet", shapes)
    back = gpd.read_parquet(tmp_path / "g.parquet")
    assert back.crs == shapes.crs and back.geometry.iloc[0].equals(Point(1, 2))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.parquet", "t.parquet"]  # no temporary files left
