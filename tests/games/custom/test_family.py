"""A custom deck's game is a plain GameDefinition of a family (issue 32): its own deck module (and a grouped
deck's card renderer), every other module its recipe game's, declared as `family`; no module of the custom
slice imports another game's slice."""

import ast
import dataclasses
import pkgutil
from pathlib import Path

import pandas as pd
import pytest

import pipeline.games
from pipeline.decks.spec import load_spec
from pipeline.errors import GeodeckError
from pipeline.framework.definition import GameDefinition
from pipeline.games import custom, registry

SLICE = Path(custom.__file__).parent


@pytest.mark.parametrize(
    ("base", "items", "package", "cards"),
    [
        ("laender-toppen", False, "pipeline.games.custom", "pipeline.games.laender_toppen.cards"),
        ("laender-toppen", True, "pipeline.games.custom.grouped", "pipeline.games.custom.grouped.cards"),
        ("world-game", False, "pipeline.games.custom", "pipeline.games.world_game.cards"),
    ],
)
def test_a_custom_game_names_its_own_modules_and_its_family_s(base, items, package, cards):
    game = custom.definition("x", registry.get(base), items)
    family = f"pipeline.games.{base.replace('-', '_')}"
    assert type(game) is GameDefinition and (game.package, game.family) == (package, family)
    assert (game.module("cards").__name__, game.module("engine").__name__) == (cards, f"{family}.engine")
    assert (
        game.module("deck").cards is custom.deck.cards
        and game.module("accessories").__name__ == f"{family}.accessories"
    )


def test_no_module_of_the_custom_slice_imports_another_game_s_slice():
    others = {m.name for m in pkgutil.iter_modules(pipeline.games.__path__) if m.ispkg} - {"custom"}
    found = []
    for path in sorted(SLICE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            found += [
                (path.name, n) for n in names if n.split(".")[:3][-1] in others and n.startswith("pipeline.games")
            ]
    assert found == []


def test_a_spec_written_before_it_named_its_family_is_one_line_naming_the_fix():
    spec = dataclasses.replace(load_spec(registry.get("world-game")), game="custom-old", options={"base": "world-game"})
    items = pd.DataFrame({"card": ["fra"], "label": ["France"], "in_deck": [True], "reason": ["in"]})
    with pytest.raises(GeodeckError, match=r"custom-old: its deck spec names no family; .*`geodeck deck new RECIPE`"):
        custom.deck.cards(items, spec)
