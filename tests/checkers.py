"""Checkers of a print-shop PDF that share no code with what writes it, besides the project's preflight
(tests/preflight.py): Ghostscript renders it into separations (`tiffsep`) and stops at any error or warning,
qpdf checks its structure, and pikepdf parses every content stream of every page and form.
Ghostscript and qpdf are Debian packages (`apt-get install ghostscript qpdf`, as .ci/run does); without them
the checks skip and say so."""

import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pikepdf
import pytest


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed: apt-get install -y {'ghostscript' if name == 'gs' else name}")
    return path


def ghostscript(pdf: Path) -> set[str]:
    """The separations Ghostscript renders `pdf` into (the four process inks and every spot colour), failing
    on any error or warning it reports."""
    with tempfile.TemporaryDirectory() as folder:
        run = subprocess.run(
            [
                _tool("gs"),
                "-q",
                "-dNOPAUSE",
                "-dBATCH",
                "-dSAFER",
                "-dPDFSTOPONERROR",
                "-dPDFSTOPONWARNING",
                "-sDEVICE=tiffsep",
                "-r8",
                f"-sOutputFile={folder}/page-%d.tif",
                str(pdf),
            ],
            capture_output=True,
            text=True,
        )
        assert run.returncode == 0 and not run.stdout.strip() and not run.stderr.strip(), (pdf.name, run.stderr)
        return {m[1] for p in Path(folder).iterdir() if (m := re.fullmatch(r"page-\d+\((.+)\)\.tif", p.name))}


def qpdf(pdf: Path) -> None:
    run = subprocess.run([_tool("qpdf"), "--check", str(pdf)], capture_output=True, text=True)
    assert run.returncode == 0 and "No syntax or stream encoding errors" in run.stdout, (pdf.name, run.stdout)


def pikepdf_walk(pdf: Path) -> int:
    """Every content stream of every page and of the forms they use parsed; the operators counted."""
    operators = 0
    with pikepdf.open(pdf) as doc:
        seen: set = set()

        def walk(stream, resources) -> None:
            nonlocal operators
            operators += len(pikepdf.parse_content_stream(stream))
            for ref in (resources.get("/XObject") or {}).values():
                if ref.get("/Subtype") == "/Form" and ref.objgen not in seen:
                    seen.add(ref.objgen)
                    walk(ref, ref.get("/Resources") or {})

        for page in doc.pages:
            walk(page, page.obj.get("/Resources") or {})
    return operators


def separations(pdf: Path, dpi: int) -> dict:
    """The first page's separations as Ghostscript renders them (8-bit PIL images, 0 = full ink), by name."""
    from PIL import Image

    with tempfile.TemporaryDirectory() as folder:
        subprocess.run(
            [
                *(_tool("gs"), "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-dFirstPage=1", "-dLastPage=1"),
                *("-sDEVICE=tiffsep", f"-r{dpi}", f"-sOutputFile={folder}/page.tif", str(pdf)),
            ],
            check=True,
            capture_output=True,
        )
        found = {}
        for path in Path(folder).iterdir():
            if match := re.fullmatch(r"page\((.+)\)\.tif", path.name):
                with Image.open(path) as image:
                    found[match[1]] = image.convert("L").copy()
        return found


def shop_kit(files: dict[str, Path], deck: dict) -> None:
    """A print shop's kit (`pipeline.render.shop`, parts by name): every PDF passes the preflight, Ghostscript,
    qpdf and a pikepdf walk, and names the registered output condition, the deck version's date and a shop's
    subject; the tuck box alone has spot colours, its CutContour and Fold, and is sized to the deck; the
    booklet has a multiple of 4 pages; the note names every file."""
    import io
    from datetime import date

    import preflight
    import pypdf

    from pipeline.games import registry as games
    from pipeline.render import layouts, shop, tuckbox

    for part, path in files.items():
        if part == "note":
            continue
        data = path.read_bytes()
        assert preflight.findings(data) == [], part
        spots = set(tuckbox.SPOTS) if part == "tuckbox" else set()
        assert ghostscript(path) == {"Cyan", "Magenta", "Yellow", "Black"} | spots, part
        qpdf(path)
        assert pikepdf_walk(path) > 0
        with pikepdf.open(io.BytesIO(data)) as doc:
            (intent,) = doc.Root.OutputIntents
            assert str(intent.OutputConditionIdentifier) == "FOGRA39"
            assert "ISO 12647-2:2004" in str(intent.OutputCondition)
            assert str(intent.RegistryName) == "http://www.color.org"
            year, month = (int(v) for v in deck["version"].split(".")[:2])
            assert str(doc.docinfo.CreationDate).startswith(f"D:{date(year, month, 1):%Y%m%d}")
            assert str(doc.docinfo.Subject).endswith("PDF/X-4 FOGRA39")
    assert len(pypdf.PdfReader(files["booklet"]).pages) % 4 == 0
    settings = shop.settings()
    (page,) = pypdf.PdfReader(files["tuckbox"]).pages
    trim = [float(v) * 25.4 / 72 for v in page.trimbox]
    w, h = layouts.load(games.get(deck["game"])).card_mm
    room = settings["clearance_mm"]
    depth = len(deck["cards"]) * settings["card_thickness_mm"] + room
    assert trim[2] - trim[0] == pytest.approx(settings["glue_mm"] + 2 * (w + room) + 2 * depth, abs=0.01)
    assert trim[3] - trim[1] == pytest.approx(h + room + 2 * (depth + settings["tuck_mm"]), abs=0.01)
    note = files["note"].read_text(encoding="utf-8")
    assert all(path.name in note for path in files.values() if path.suffix == ".pdf")
