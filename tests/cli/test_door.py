"""A game's name becomes its definition once, at the door (issue 29): no stage imports the game registry,
and the CLI's resolver is the one lookup by name."""

import ast
import re
from pathlib import Path

PIPELINE = Path(__file__).resolve().parents[2] / "pipeline"
REGISTRY = "pipeline.games.registry"
DOORS = {  # the CLI, the studio, the build graph, the registry, and the slices that publish the games they make
    "cli",
    "studio",
    "build/graph.py",
    "games/registry.py",
    "games/region/search.py",
    "games/custom/build.py",
    "games/custom/commands.py",
}


def imported(path: Path) -> set[str]:
    """The modules `path` imports, `from pipeline.games import registry` counted as pipeline.games.registry."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names |= {node.module, *(f"{node.module}.{alias.name}" for alias in node.names)}
    return names


def test_only_the_doors_import_the_registry():
    readers = {str(path.relative_to(PIPELINE)) for path in PIPELINE.rglob("*.py") if REGISTRY in imported(path)}
    outside = {r for r in readers if r not in DOORS and r.split("/")[0] not in DOORS}
    assert "cli/common.py" in readers and outside == set()


def test_the_cli_resolver_is_the_one_lookup_by_name():
    lookups = [
        str(path.relative_to(PIPELINE))
        for path in PIPELINE.rglob("*.py")
        for _ in re.finditer(r"games.get\(", path.read_text())
    ]
    assert lookups == ["cli/common.py"]
