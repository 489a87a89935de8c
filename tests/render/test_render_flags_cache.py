"""The flag cache holds data, never code: drawings round-trip through JSON and draw the same PDF; a damaged,
crafted or old (pickled) cache file is ignored, never executed, and replaced by a fresh conversion."""

import io
import json
import os
import pickle
from pathlib import Path

import pytest
from reportlab.graphics import renderPDF
from reportlab.pdfgen.canvas import Canvas
from svglib.svglib import svg2rlg

from pipeline.extract.store import SnapshotStore
from pipeline.render import drawings, flags, fonts

# a cross section of svglib's output: plain shapes (de), linear and radial gradients (mx, gt, bz), clipping
# paths (ag), many paths (br, ec)
PATHS = ("4x3/de.svg", "4x3/mx.svg", "4x3/gt.svg", "4x3/bz.svg", "4x3/ag.svg", "4x3/br.svg", "4x3/ec.svg")


def pdf(drawing) -> bytes:
    fonts.register()
    canvas = Canvas(io.BytesIO(), invariant=1)
    renderPDF.draw(drawing, canvas, 0, 0)
    canvas.showPage()
    return canvas.getpdfdata()


@pytest.fixture
def fresh(store, tmp_path) -> flags.Flags:
    """Flags over an empty store of its own (filled from the mirror)."""
    return flags.Flags(SnapshotStore(tmp_path / "store", store.mirror, online=False))


def cache_file(fresh: flags.Flags, path: str) -> Path:
    [cached] = (fresh.store.root / ".drawings" / "flag-icons").glob(f"*-{fresh.source.file(path).sha256}.json")
    return cached


@pytest.mark.parametrize("path", PATHS)
def test_a_drawing_round_trips_to_the_same_pdf(fresh, path):
    drawing = fresh.drawing(path)
    assert pdf(drawings.loads(drawings.dumps(drawing))) == pdf(drawing)


def test_cache_is_json_named_by_the_svgs_sha256_and_read_back(fresh):
    first = pdf(fresh.drawing("4x3/mx.svg"))
    cached = cache_file(fresh, "4x3/mx.svg")
    assert json.loads(cached.read_bytes())["shape"] == "Drawing"
    again = flags.Flags(fresh.store)
    assert pdf(again.drawing("4x3/mx.svg")) == first


class Payload:
    """Unpickling this runs code: it creates the marker file."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


def test_a_pickle_in_the_cache_is_never_loaded(fresh, tmp_path):
    """A crafted pickle where the old cache (or the new one) is read runs no code; the flag is converted."""
    marker = tmp_path / "pwned"
    entry = fresh.source.file("4x3/de.svg")
    folder = fresh.store.root / ".drawings" / "flag-icons"
    folder.mkdir(parents=True)
    for name in (f"{flags.version('svglib')}-{entry.sha256}.pickle", f"{flags.CONVERTER}-{entry.sha256}.json"):
        (folder / name).write_bytes(pickle.dumps(Payload(marker)))
    drawing = fresh.drawing("4x3/de.svg")
    assert not marker.exists()
    converted = svg2rlg(str(fresh.store.resolve(entry)))
    assert converted is not None
    converted.initialFontName = fonts.REGULAR
    assert pdf(drawing) == pdf(converted)
    assert json.loads(cache_file(fresh, "4x3/de.svg").read_bytes())["shape"] == "Drawing"  # replaced


def crafted(good: dict) -> dict[str, object]:
    """Cache contents that must not load: (name -> JSON value or raw bytes)."""
    first = good["attrs"]["contents"][0]
    return {
        "truncated": json.dumps(good)[:500].encode(),
        "not utf-8": b"\xff\xfe{",
        "a class not listed": {**good, "shape": "os.system"},
        "a module path": {"shape": "subprocess.Popen", "attrs": {}},
        "an unknown attribute": {**good, "attrs": {**good["attrs"], "__class__": "x"}},
        "a wrong type": {**good, "attrs": {**good["attrs"], "width": "wide"}},
        "a wrong colour": {
            "shape": "Drawing",
            "attrs": {"contents": [{**first, "attrs": {"fillColor": {"color": [2]}}}]},
        },
        "an operator out of range": {
            "shape": "Drawing",
            "attrs": {"contents": [{"shape": "Path", "attrs": {"operators": [7], "points": [0, 0]}}]},
        },
        "points that do not match": {
            "shape": "Drawing",
            "attrs": {"contents": [{"shape": "Path", "attrs": {"operators": [0, 2], "points": [0, 0, 1]}}]},
        },
        "NaN": json.dumps(good).replace('"width":', '"width":NaN,"x":', 1).encode(),
        "not a drawing": {"shape": "Path", "attrs": {}},
        "deeply nested": b'{"shape":"Drawing","attrs":{"contents":' + b"[" * 5000 + b"]" * 5000 + b"}}",
        "a list": [1, 2, 3],
    }


def test_loads_refuses_whatever_is_not_a_drawing(fresh):
    good = json.loads(drawings.dumps(fresh.drawing("4x3/gb.svg")))
    for name, value in crafted(good).items():
        data = value if isinstance(value, bytes) else json.dumps(value).encode()
        with pytest.raises(ValueError):
            drawings.loads(data)
            pytest.fail(f"loaded {name}")


def test_a_damaged_cache_file_is_converted_again(fresh):
    expected = pdf(fresh.drawing("4x3/gb.svg"))
    cached = cache_file(fresh, "4x3/gb.svg")
    cached.write_bytes(cached.read_bytes()[:1000])
    assert pdf(flags.Flags(fresh.store).drawing("4x3/gb.svg")) == expected
    assert drawings.loads(cached.read_bytes())  # rewritten whole


@pytest.mark.parametrize("damage", ["pipe", "dev-zero"])
def test_a_cache_file_that_is_a_pipe_or_dev_zero_is_converted_again_with_one_warning(fresh, capsys, damage):
    """`print` hung past 240 s on a pipe here, and ran out of memory on /dev/zero."""
    expected = pdf(fresh.drawing("4x3/gb.svg"))
    cached = cache_file(fresh, "4x3/gb.svg")
    cached.unlink()
    os.mkfifo(cached) if damage == "pipe" else cached.symlink_to("/dev/zero")
    capsys.readouterr()
    assert pdf(flags.Flags(fresh.store).drawing("4x3/gb.svg")) == expected
    warning = capsys.readouterr().err
    assert warning.count("\n") == 1 and "this flag drawing cache is not a regular file" in warning
    assert cached.is_file() and not cached.is_symlink()  # replaced by the fresh conversion


CODE_LOADERS = ("import pickle", "pickle.load", "marshal.", "eval(", "exec(", "read_pickle", "shelve", "yaml.load")


def test_no_code_is_loaded_from_store_or_build_content():
    """Nothing in the pipeline unpickles, unmarshals or evaluates (play-check's workers pickle their own
    messages through Dask, never a file)."""
    root = Path(flags.__file__).parents[1]
    offenders = [
        f"{p.relative_to(root)}:{n}"
        for p in root.rglob("*.py")
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if any(word in line for word in CODE_LOADERS)
    ]
    assert offenders == []
