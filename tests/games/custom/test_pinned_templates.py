"""A custom deck's templates live in its versions (issue 49): a refused `deck new` (a changed label and unit, a
value beyond the diff threshold) leaves what a published version prints byte-identical and adds no folder;
`verify` names a version's missing or changed templates and never skips a deck; a deck published before its
versions kept their templates has them moved in, printing as before."""

import json
import shutil

from pipeline import paths
from pipeline.decks import versions
from pipeline.games import registry

from .test_recipes import STATES, errors, write

GAME = "custom-german-states"
RECIPE = (paths.TEMPLATES_DIR / "recipes" / "german-states.toml").read_text(encoding="utf-8")
AREA = 'label = "Area", unit = "{n} km²"'


def publish(geodeck, workshop, recipe: str = RECIPE, table: str = STATES.read_text(encoding="utf-8")) -> str:
    """Publish the shipped German states' recipe (`recipe`, its table `table`) from `workshop`; the version."""
    write(workshop, table, "states.csv")
    recipe = recipe.replace("../../tests/fixtures/recipes/german-states.csv", "states.csv")
    code, output = geodeck(["deck", "new", str(write(workshop, recipe)), "--jobs", "1", "--games", "20"])
    assert code == 0, output
    return latest()


def latest() -> str:
    version = versions.latest(paths.DECKS_DIR / GAME)
    assert version is not None
    return version


def printed(geodeck, workshop, name: str, version: str) -> bytes:
    out = workshop / f"{name}.pdf"
    code, output = geodeck(
        ["print", GAME, "--version", version, "--cards", "c-german-states-bayern", "--out", str(out)]
    )
    assert code == 0, output
    return out.read_bytes()


def forget() -> None:
    """The registry as a new process finds it: made from the published folders."""
    registry._REGISTRY.pop(GAME, None)
    registry._DISCOVERED = False


def test_a_refused_deck_new_changes_nothing_a_published_version_prints(geodeck, workshop):
    version = publish(geodeck, workshop)
    folder = paths.DECKS_DIR / GAME
    assert (folder / version / "templates" / "cards" / f"{GAME}.toml").is_file()
    before = printed(geodeck, workshop, "before", version)
    listing = sorted(p.relative_to(folder) for p in folder.rglob("*"))
    table = STATES.read_text(encoding="utf-8").replace("Bayern,Süd,70542,", "Bayern,Süd,90542,")
    changed = RECIPE.replace(AREA, 'label = "Surface", unit = "{n} acres"')
    write(workshop, table, "states.csv")
    recipe = write(workshop, changed.replace("../../tests/fixtures/recipes/german-states.csv", "states.csv"))
    code, output = geodeck(["deck", "new", str(recipe), "--jobs", "1", "--games", "20"])
    assert code == 2 and "--accept" in output, output
    assert sorted(p.relative_to(folder) for p in folder.rglob("*")) == listing  # no folder, no file added
    forget()
    assert printed(geodeck, workshop, "after", version) == before
    code, output = geodeck(["verify", GAME])
    assert code == 0, output
    code, output = geodeck(["deck", "new", str(recipe), "--jobs", "1", "--games", "20", "--accept", "Bayern grew"])
    assert code == 0 and "published" in output, output
    newer = latest()
    assert newer != version and printed(geodeck, workshop, "old", version) == before
    assert printed(geodeck, workshop, "new", newer) != before  # the newer version prints its own words
    assert "acres" in (folder / newer / "templates" / "cards" / f"{GAME}.toml").read_text(encoding="utf-8")


def test_verify_names_a_version_s_changed_or_missing_templates(geodeck, workshop):
    version = publish(geodeck, workshop)
    layout = paths.DECKS_DIR / GAME / version / "templates" / "cards" / f"{GAME}.toml"
    layout.write_text(layout.read_text(encoding="utf-8").replace("km²", "ha"), encoding="utf-8")
    code, output = geodeck(["verify", GAME])
    assert code == 1 and f"error: {layout} was changed after publishing" in output, output
    shutil.rmtree(layout.parent.parent)
    forget()
    code, output = geodeck(["verify"])  # the deck is no game any more: still named, never skipped
    (line,) = [line for line in errors(output) if GAME in line]
    assert code == 1 and f"{layout.parent.parent}/decks/{GAME}.toml is missing" in line, output
    assert f"`rm -r {layout.parent.parent.parent}`" in line  # the advice works:
    shutil.rmtree(layout.parent.parent.parent)
    publish(geodeck, workshop)
    code, output = geodeck(["verify", GAME])
    assert code == 0, output


def test_a_deck_published_before_versions_kept_templates_has_them_moved_in(geodeck, workshop):
    version = publish(geodeck, workshop)
    folder = paths.DECKS_DIR / GAME
    before = printed(geodeck, workshop, "before", version)
    (folder / version / "templates").rename(folder / "templates")  # the layout before issue 49
    manifest = json.loads((folder / version / "manifest.json").read_text(encoding="utf-8"))
    del manifest["templates"]
    (folder / version / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    forget()
    code, output = geodeck(["verify"])
    assert code == 1 and f"{folder / 'templates'} lies beside the versions" in output, output
    code, output = geodeck(["deck", "new", str(workshop / "recipe.toml"), "--jobs", "1", "--games", "20"])
    assert code == 0 and f"{version} unchanged" in output, output
    assert not (folder / "templates").exists() and printed(geodeck, workshop, "after", version) == before
    code, output = geodeck(["verify", GAME])
    assert code == 0, output
