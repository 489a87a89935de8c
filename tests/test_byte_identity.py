"""Decks and PDFs stay byte-identical through a refactor (issue 44): the sha256 of each game's deck built from
the synthetic inputs, and of its cards and accessories printed from its fixed print deck, against the digests
recorded in tests/fixtures/digests.json.

The digests hold for the data they were recorded from (`data_key`: the templates, catalogues included,
pipeline/fields.toml, sources/*.toml and the fixture decks and inputs), never a published deck's, so a deck
republished does not touch them. When that data changes on purpose (a category block, a catalogue), the
outputs are meant to change with it: the test says so and skips until they are recorded anew with
`GEODECK_RECORD_DIGESTS=1 pytest tests/test_byte_identity.py`; a change of code alone must leave every
digest as it is."""

import hashlib
import json
import os
from pathlib import Path

import pytest
from conformance import cases
from fixtures.tiny.decks.synthetic import write_inputs

from pipeline.decks import stage
from pipeline.decks.files import content_hash
from pipeline.games import registry as games
from pipeline.i18n import registry as languages
from pipeline.paths import ROOT
from pipeline.render import accessories, printing
from pipeline.render.accessories import AccessoryOptions
from pipeline.render.printing import PrintOptions

DIGESTS = Path(__file__).parent / "fixtures" / "digests.json"
RECORD = "GEODECK_RECORD_DIGESTS"
FIXTURES = Path(__file__).parent / "fixtures" / "tiny"
DATA = ("templates/**/*", "pipeline/fields.toml", "sources/*.toml")  # what the outputs are made from, besides code
LANG = "de"  # one language of the catalogues (English is the messages themselves)


def data_key() -> str:
    """The sha256 of the data the outputs are made from: every file of DATA and of the fixtures, by path."""
    files = [p for pattern in DATA for p in ROOT.glob(pattern) if p.is_file()]
    files += [
        *FIXTURES.glob("render/*.deck.json"),
        FIXTURES / "decks" / "synthetic.py",
        FIXTURES / "games" / "decks.py",
    ]
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(f"{path.relative_to(ROOT)}\0".encode() + hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def outputs(store, build: Path) -> dict[str, str]:
    """The sha256 of every output compared: `deck GAME` (its content hash), `cards GAME`, `accessories GAME`."""
    root = write_inputs(build)
    found = {
        f"deck {name}": content_hash(stage.fresh_deck(definition, root)[1])
        for name, definition in sorted(games.registered().items())
        if definition.in_build and (root / definition.input_table).is_file()
    }
    for param in cases("cards"):
        case = param.values[0]
        if getattr(case._own, "PRINT_DECK", None) is None:  # a published deck's cards: republishing changes them
            continue
        deck, definition = case.print_deck, case.definition
        found[f"cards {case.name}"] = _sha(
            printing.render(definition, deck, PrintOptions(lang=languages.language(LANG)), store)
        )
        data, _pages = accessories.render(definition, deck, AccessoryOptions(lang=languages.language(LANG)), store)
        found[f"accessories {case.name}"] = _sha(data)
    return found


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_decks_and_pdfs_are_byte_identical_to_the_recorded_digests(store, tmp_path):
    key, now = data_key(), outputs(store, tmp_path / "build")
    if os.environ.get(RECORD):
        DIGESTS.write_text(json.dumps({"data": key, "outputs": now}, indent=1, sort_keys=True) + "\n", "utf-8")
    recorded = json.loads(DIGESTS.read_text(encoding="utf-8"))
    if recorded["data"] != key:
        pytest.skip(f"the data changed since the digests were recorded: record them with {RECORD}=1")
    changed = sorted(
        name for name in recorded["outputs"].keys() | now.keys() if recorded["outputs"].get(name) != now.get(name)
    )
    assert changed == [], f"these outputs are no longer byte-identical: {changed}"
    assert {name.split()[0] for name in now} == {"deck", "cards", "accessories"}  # each kind compared


def test_the_data_key_follows_the_data_and_nothing_else(tmp_path, monkeypatch):
    """A change of a template changes the key (the digests no longer apply); a file outside the data does not."""
    import shutil

    from pipeline import paths

    copy = tmp_path / "root"
    for pattern in DATA:
        for path in ROOT.glob(pattern):
            if path.is_file():
                (copy / path.relative_to(ROOT)).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(path, copy / path.relative_to(ROOT))
    for name in ("render/laender-toppen.deck.json", "decks/synthetic.py", "games/decks.py"):
        (copy / "fixtures" / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(FIXTURES / name, copy / "fixtures" / name)
    monkeypatch.setattr(f"{__name__}.ROOT", copy)
    monkeypatch.setattr(f"{__name__}.FIXTURES", copy / "fixtures")
    before = data_key()
    (copy / "README.md").write_text("code and docs are not data")
    assert data_key() == before
    spec = copy / "templates" / "decks" / "laender-toppen.toml"
    spec.write_text(spec.read_text(encoding="utf-8") + "\n# one more line\n", encoding="utf-8")
    assert data_key() != before
    assert copy != paths.ROOT  # the checkout itself untouched
