"""Every path built from data stays inside its folder: deck versions inside deck.json, file paths and names
in sources/*.toml (store and mirror), and the flag paths on cards."""

import hashlib
import json

import pytest

from pipeline import paths
from pipeline.decks import canonical, published
from pipeline.errors import GeodeckError
from pipeline.extract import SourceFile, load_source, open_store
from pipeline.extract.sources import inside, relative_path
from pipeline.games import registry as games

ESCAPE = "../../../../tmp/geodeck-escape"


def republish_as(folder, version: str) -> None:
    """Rewrite a published deck with another version and a manifest that matches it (a forged, consistent
    pair: the hash alone cannot catch it)."""
    deck = json.loads((folder / "deck.json").read_text())
    manifest = json.loads((folder / "manifest.json").read_text())
    deck["version"] = version
    (folder / "deck.json").write_text(canonical.dumps(deck))
    (folder / "manifest.json").write_text(canonical.dumps({**manifest, "version": version}))


def test_deck_version_cannot_lead_print_outside_output(decks, tmp_path, geodeck):
    latest = (decks / "laender-toppen" / "LATEST").read_text().strip()  # the version print reads
    republish_as(decks / "laender-toppen" / latest, ESCAPE)
    code, output = geodeck(["print", "laender-toppen"])
    assert code == 2 and "Traceback" not in output
    assert "is not like 2026.11.0" in output and "deck.json" in output
    assert not list(tmp_path.parent.glob("geodeck-escape*")) and not (paths.ROOT.parent / "tmp").exists()


def test_draft_deck_version_is_checked_too(decks, tmp_path, geodeck):
    draft = json.loads((decks / "world-game" / "2026.11.0" / "deck.json").read_text())
    (tmp_path / "draft.json").write_text(json.dumps({**draft, "version": ESCAPE}))
    code, output = geodeck(["play-check", "world-game", "--deck", tmp_path / "draft.json", "--games", "5"])
    assert code == 2 and "is not like 2026.11.0" in output


@pytest.mark.parametrize(
    "path", ["../../../x", "/etc/passwd", "a/../../x", "a//b", "./a", "a\\..\\b", "", "a/./b", "a/"]
)
def test_source_file_path_must_stay_inside(path, tmp_path):
    toml = tmp_path / "evil.toml"
    toml.write_text(
        '[source]\nname = "evil"\nproducer = "p"\nlicense = "l"\ncitation = "c"\nvintage = "v"\n'
        f'date_accessed = "2026-11-01"\n\n[[files]]\npath = {json.dumps(path)}\nsha256 = "{"0" * 64}"\nbytes = 1\n'
    )
    with pytest.raises(GeodeckError, match="not a relative path inside its folder"):
        load_source(toml)


def test_source_name_cannot_be_a_path(tmp_path):
    toml = tmp_path / "evil.toml"
    toml.write_text(
        '[source]\nname = "../x"\nproducer = "p"\nlicense = "l"\ncitation = "c"\nvintage = "v"\n'
        'date_accessed = "2026-11-01"\n'
    )
    with pytest.raises(GeodeckError, match="source name '../x' must be"):
        load_source(toml)


def test_good_paths_pass():
    assert relative_path("africa/ag.json", "x") == "africa/ag.json"
    assert relative_path("4x3/de.svg", "x") == "4x3/de.svg"


def test_store_and_mirror_paths_are_inside_their_folders(tmp_path):
    """Defence in depth behind relative_path: the joined path is normalised and must stay inside the root."""
    store = open_store(mirror=tmp_path / "mirror", online=False, root=tmp_path / "store")
    entry = SourceFile("demo", "dir/file.txt", hashlib.sha256(b"x").hexdigest(), 1)
    digest = entry.sha256
    assert store.blob(digest) == tmp_path / "store" / "sha256" / digest[:2] / digest
    assert store.stored("../" * 20 + "etc/passwd") is None  # a digest from a file is never a path
    with pytest.raises(GeodeckError, match="not a relative path inside its folder"):
        inside(tmp_path, "demo/../../x", "test")


def test_card_flag_path_must_be_a_pinned_file(store):
    from pipeline.render.flags import Flags

    with pytest.raises(GeodeckError, match=r"card X: flag '\.\./\.\./etc/passwd' is not a file of the flag-icons"):
        Flags(store).check("../../etc/passwd", "X")


def test_published_reader_rejects_version_argument_paths(decks):
    with pytest.raises(GeodeckError, match="not a deck version"):
        published.deck(games.get("laender-toppen"), "../../../tmp")
