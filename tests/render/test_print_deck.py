"""`geodeck print --deck FILE` (a draft, an edited deck) and `--cards ID,…` (a reprint of some cards): the deck is
the file's game, checked as a published deck, every bad file one line; a draft says so where the print names
its version; a subset prints only its cards, in the deck's order, each back behind its front."""

import itertools
import json
import shutil
import zipfile

import pdfplumber
import pypdf
import pytest
from test_render_pdf import MM, TOL, cell_of, grid

from pipeline.decks import subset
from pipeline.i18n import registry as languages
from pipeline.paths import DECKS_DIR
from pipeline.render import layouts

GAME = "deutschland"
FOLDER = DECKS_DIR / GAME / (DECKS_DIR / GAME / "LATEST").read_text().strip()
DECK = json.loads((FOLDER / "deck.json").read_text(encoding="utf-8"))
KIEL, LUEBECK = "de-01002000", "de-01003000"  # the 2nd and 3rd card; Flensburg, the 1st, is left out


def draft(tmp_path, **changes) -> str:
    """A copy of the latest Deutschland deck with `changes` at its top level, without a manifest: a draft."""
    path = tmp_path / "deck.json"
    path.write_text(json.dumps({**DECK, **changes}), encoding="utf-8")
    return str(path)


def written(output: str) -> str:
    """The path a command wrote: its line on stdout (`wrote …:` goes to stderr, with the progress)."""
    return next(line for line in output.splitlines() if line.endswith((".pdf", ".zip")))


@pytest.fixture(scope="module")
def reprint(mirror, tmp_path_factory):
    """Kiel and Lübeck of a draft printed as a subset on A4, long-edge duplex (the default), in German."""
    from click.testing import CliRunner

    from pipeline.cli import cli

    folder = tmp_path_factory.mktemp("reprint")
    path = folder / "deck.json"
    shutil.copy(FOLDER / "deck.json", path)
    result = CliRunner().invoke(cli, ["print", "--deck", str(path), "--cards", f"{LUEBECK}, {KIEL}"])
    assert result.exit_code == 0, result.output
    return written(result.output)


def test_a_drafts_subset_is_named_as_a_draft_and_a_subset_and_says_draft_in_its_title(reprint):
    name = reprint.rsplit("/", 1)[-1]
    ids = subset.name((KIEL, LUEBECK))
    assert name == f"deutschland-draft-{DECK['version']}-cards-a4-sheet-duplex-long-{ids}-de.pdf"
    with open(reprint, "rb") as handle:
        pdf = pypdf.PdfReader(handle)
        assert len(pdf.pages) == 2  # one sheet: fronts, then backs
        assert f"{DECK['version']} (Entwurf, nicht veröffentlicht)" in str(pdf.metadata and pdf.metadata.title)


def test_a_subset_prints_its_cards_in_deck_order_63_by_88_mm_each_back_behind_its_front(reprint):
    with pdfplumber.open(reprint) as pdf:
        front, back = pdf.pages
        (fxs, fys), (bxs, bys) = grid(front), grid(back)
        assert {round((b - a) / MM, 1) for a, b in itertools.pairwise(fxs)} == {63.0}
        assert {round((b - a) / MM, 1) for a, b in itertools.pairwise(fys)} == {88.0}
        placed = {}
        for name in ("Kiel", "Lübeck"):
            (fw,) = [w for w in front.extract_words() if w["text"] == name]
            (bw,) = [w for w in back.extract_words() if w["text"] == name]
            f = cell_of((fw["x0"] + fw["x1"]) / 2, front.height - fw["bottom"], fxs, fys)
            b = cell_of((bw["x0"] + bw["x1"]) / 2, back.height - bw["bottom"], bxs, bys)
            assert b == pytest.approx((front.width - f[2], f[1], front.width - f[0], f[3]), abs=TOL), name  # long edge
            placed[name] = f
        assert placed["Kiel"][0] < placed["Lübeck"][0] and placed["Kiel"][1] == placed["Lübeck"][1]  # deck order
        assert "Flensburg" not in front.extract_text()


def test_reprinted_cards_have_the_whole_decks_sizes_not_the_subsets(reprint, store):
    """Each text field has one size across the deck: a reprint's names are as large as the whole deck's long
    names allow (15 pt), not as large as Kiel and Lübeck alone would allow (20 pt)."""
    from pipeline.games import registry
    from pipeline.games.grid.cards import steps
    from pipeline.render.context import CardContext

    ctx = CardContext(layouts.load(registry.get(GAME)), languages.language("de"), 3.0, store, False)
    whole = steps(DECK["cards"], ctx)["place_name"]
    alone = steps([c for c in DECK["cards"] if c["id"] in (KIEL, LUEBECK)], ctx)["place_name"]
    with pdfplumber.open(reprint) as pdf:
        sizes = {round(c["size"], 2) for c in pdf.pages[0].chars if c["text"] == "L"}  # Lübeck's L, front only
    assert alone > whole and sizes == {whole}


def test_export_of_a_drafts_subset_holds_its_cards_and_says_draft(geodeck, mirror, tmp_path):
    code, output = geodeck(["export", "--deck", draft(tmp_path), "--service", "mpc", "--cards", KIEL, "--jobs", "1"])
    assert code == 0, output
    path = written(output)
    assert path.endswith(f"deutschland-draft-{DECK['version']}-mpc-{subset.name((KIEL,))}-de.zip")
    with zipfile.ZipFile(path) as archive:
        fronts = sorted(n for n in archive.namelist() if n.startswith("fronts/"))
        assert fronts == [f"fronts/001-{KIEL}.png", *(f"fronts/{i:03d}-filler.png" for i in range(2, 19))]
        order = archive.read("ORDER.txt").decode()
        assert f"{DECK['version']} (draft, not published) for MakePlayingCards" in order and "1 cards" in order


def test_a_draft_without_a_version_says_only_draft():
    assert layouts.version({"version": None}, languages.language("fr"), draft=True) == "(brouillon, non publié)"
    assert layouts.version({"version": "2026.11.0"}, languages.language("fr"), draft=False) == "2026.11.0"


BAD_FILES = {
    "missing": (lambda tmp: str(tmp / "nowhere.json"), "nowhere.json does not exist"),
    "not JSON": (lambda tmp: _write(tmp, "{cards: [}"), "deck.json is corrupted (is not JSON"),
    "huge": (lambda tmp: _huge(tmp), "more than the 20,000,000 allowed"),
    "a pipe": (lambda tmp: _pipe(tmp), "is not a regular file"),
    "a folder": (lambda tmp: str(tmp), "is a directory"),
    "an edited published deck": (lambda tmp: _edited_version(tmp), "was modified after publishing (its content hash"),
    "no game": (lambda tmp: _write(tmp, json.dumps({**DECK, "game": None})), "its \"game\" field is 'None', not a reg"),
    "unknown game": (lambda tmp: draft(tmp, game="skat"), "its \"game\" field is 'skat', not a registered game; "),
    "too few cards": (lambda tmp: draft(tmp, cards=DECK["cards"][:3]), "has 3 cards; a deutschland deck has 30-120"),
    "bad value": (lambda tmp: draft(tmp, version="a b"), "version 'a b' is not like 2026.11.0"),
    "card size": (
        lambda tmp: draft(tmp, card_size_mm=[60, 80]),
        "has cards of [60, 80] mm but templates/cards/deutschland.toml",
    ),
}


def _write(tmp, text: str) -> str:
    (tmp / "deck.json").write_text(text, encoding="utf-8")
    return str(tmp / "deck.json")


def _huge(tmp) -> str:
    with open(tmp / "deck.json", "wb") as handle:
        handle.truncate(21_000_000)  # sparse: nothing written
    return str(tmp / "deck.json")


def _edited_version(tmp) -> str:
    """A published version's deck.json, its manifest beside it, with a card removed: verified, and refused."""
    shutil.copy(FOLDER / "manifest.json", tmp / "manifest.json")
    return draft(tmp, cards=DECK["cards"][1:])


def _pipe(tmp) -> str:
    import os

    os.mkfifo(tmp / "deck.json")
    return str(tmp / "deck.json")


@pytest.mark.parametrize("bad", sorted(BAD_FILES))
def test_every_bad_deck_file_is_one_line_naming_it(geodeck, tmp_path, bad):
    make, phrase = BAD_FILES[bad]
    path = make(tmp_path)
    code, output = geodeck(["print", "--deck", path])
    assert code == 2 and output.startswith("error: ") and "Traceback" not in output, output
    assert len(output.strip().splitlines()) == 1 and path in output and phrase in output, output


def test_game_and_deck_must_agree(geodeck, tmp_path):
    path = draft(tmp_path)
    code, output = geodeck(["print", "world-game", "--deck", path])
    assert code == 2 and len(output.strip().splitlines()) == 1, output
    assert f"{path} is a deutschland deck, not world-game: leave GAME out to print it" in output
    code, output = geodeck(["print", GAME, "--deck", path, "--cards", "de-xyz"])  # the same game: read, then the ids
    assert code == 2 and f'has no card de-xyz; its ids are the "id" of each card in {path}' in output, output


REFUSED = {  # the arguments after `print`, and what the one line says
    "no card": (["deutschland", "--cards", " , "], "--cards names no card: give card ids separated by commas"),
    "empty id": (["deutschland", "--cards", f"{KIEL},,{LUEBECK}"], "has an empty id (two commas, or one at an end)"),
    "twice": (["deutschland", "--cards", f"{KIEL},{LUEBECK},{KIEL}"], f"--cards names {KIEL} more than once"),
    "unknown": (
        ["deutschland", "--cards", "de-0100200,de-xyz"],
        f"has no card de-0100200 (did you mean {KIEL}?), de-xyz; its ids are the deck's deck.csv",
    ),
    "kit": (["deutschland", "--kit", "--cards", KIEL], "--cards and --kit do not go together"),
    "accessories": (["deutschland", "--what", "accessories", "--cards", KIEL], "--cards and --what do not go"),
    "all": (["deutschland", "--what", "all", "--cards", KIEL], "--cards and --what do not go together"),
    "calibration": (["deutschland", "--calibration", "--deck", "x.json"], "--calibration and --deck do not go"),
    "version": (["--deck", str(FOLDER / "deck.json"), "--version", "2026.11.0"], "--deck and --version do not go"),
    "no game": (["--cards", KIEL], "Missing argument 'GAME': name a game (`geodeck games` lists them) or --deck"),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_meaningless_or_wrong_cards_are_refused_in_one_line(geodeck, case):
    args, phrase = REFUSED[case]
    code, output = geodeck(["print", *args])
    assert code == 2 and phrase in output and "Traceback" not in output, output


def test_prints_into_the_default_folder_one_after_another_as_make_print_does(geodeck, mirror, tmp_path, monkeypatch):
    """`make print` prints each game's sheets, accessories and kit into output/print/ in turn: a folder of
    print's own PDFs (and a print shop's note) takes the next print; the second game's once failed with "it
    holds files geodeck did not write" (issue 47, found by timing the README's targets)."""
    from pipeline import paths

    folder = tmp_path / "print"
    monkeypatch.setattr(paths, "PRINT_DIR", folder)
    for args in (
        ["print", "deutschland", "--what", "all"],
        ["print", "deutschland", "--kit"],
        ["print", "deutschland", "--kit", "--for", "print-shop"],
        ["print", "deutschland", "--what", "all", "--paper", "letter"],
    ):
        code, output = geodeck(args)
        assert code == 0, (args, output)
    assert {path.suffix for path in folder.iterdir()} == {".pdf", ".txt"}
    (folder / "mine.docx").write_text("a user's file")
    code, output = geodeck(["print", "deutschland", "--what", "all"])
    assert code != 0 and "holds files geodeck did not write" in output and "--force" in output
