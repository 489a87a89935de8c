"""A game's name becomes its definition once, at the door (issue 29): no stage imports the game registry,
and the CLI's resolver is the one lookup by name."""

import ast
import re
from pathlib import Path

PIPELINE = Path(__file__).resolve().parents[2] / "pipeline"
REGISTRY = "pipeline.games.registry"
DOORS = {"cli", "studio", "build/graph.py", "games/registry.py"}  # and a slice's own commands (`door`)


def imported(path: Path) -> set[str]:
    """The modules `path` imports, `from pipeline.games import registry` counted as pipeline.games.registry."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names |= {node.module, *(f"{node.module}.{alias.name}" for alias in node.names)}
    return names


def door(module: str) -> bool:
    """Whether the module (a path under pipeline/) is a door: the CLI, the build graph, the registry, or a slice's
    command module (a CLI command: `deck new` looks its recipe's game up, `region build` the game a region's
    settings take the grid of); a slice that publishes a game it makes does not register it (the registry asks)."""
    parts = module.split("/")
    return (
        module in DOORS or parts[0] in DOORS or (len(parts) == 3 and parts[0] == "games" and parts[2] == "commands.py")
    )


def test_only_the_doors_import_the_registry():
    readers = {str(path.relative_to(PIPELINE)) for path in PIPELINE.rglob("*.py") if REGISTRY in imported(path)}
    assert "cli/common.py" in readers and {r for r in readers if not door(r)} == set()
    assert [door(m) for m in ("games/custom/commands.py", "games/custom/build.py", "render/kit.py")] == [
        True,
        False,
        False,
    ]


def test_the_cli_resolver_is_the_one_lookup_by_name():
    lookups = [
        str(path.relative_to(PIPELINE))
        for path in PIPELINE.rglob("*.py")
        for _ in re.finditer(r"games.get\(", path.read_text())
    ]
    assert lookups == ["cli/common.py"]
