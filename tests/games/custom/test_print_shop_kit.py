"""A recipe's deck (`custom-<name>`) gets the print shop's kit from the command, every file passing the
preflight and the checkers that did not write it (issue 45)."""

import json

import checkers

from pipeline import paths


def test_a_recipes_deck_gets_its_kit_for_a_print_shop(geodeck, workshop):
    recipe = workshop / "recipe.toml"
    from fixtures.recipes import states

    recipe.write_text(states.recipe(name="states-shop"), encoding="utf-8")
    code, output = geodeck(["deck", "new", recipe, "--games", "20", "--jobs", "1"])
    assert code == 0, output
    folder = workshop / "shop"
    code, output = geodeck(["print", "custom-states-shop", "--kit", "--for", "print-shop", "--out", folder])
    assert code == 0, output
    assert "the tuck box die-line" in output and "the note for the print shop" in output
    version = (paths.DECKS_DIR / "custom-states-shop" / "LATEST").read_text(encoding="utf-8").strip()
    deck = json.loads((paths.DECKS_DIR / "custom-states-shop" / version / "deck.json").read_text(encoding="utf-8"))
    files = {part: next(folder.glob(f"*-{part}-*")) for part in ("booklet", "cards", "accessories", "tuckbox")}
    files["note"] = next(folder.glob("*-print-shop-note-*.txt"))
    assert len(list(folder.iterdir())) == 5
    checkers.shop_kit(files, deck)
