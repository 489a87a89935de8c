"""No import cycle among pipeline's modules (issues 29 and 44), and no import running up the layers: the graph is
read with `ast` by the build's own import finder (pipeline.build.runner.imported_modules).

Three graphs are checked, each must have no cycle: the imports run when a module is imported (a cycle there
can break an import, depending on which module comes first), every import run, those inside functions
included (a cycle there is a circle of dependencies, like the build's runner and workers had), and every
import written, those under `if TYPE_CHECKING:` included (a circle of types: issue 44's nine files). In the
last, every import goes down the layers of docs/architecture.md (`LAYERS`) or stays in its own (only a door imports
the game registry, though, tests/cli/test_door.py). Importing
`a.b.c` runs the __init__ of `a` and `a.b` as well, so those count too, except a module's own packages
(Python runs them first). Modules loaded by name at run time (the registry's slices, a slice's module kinds,
the transform's parsers) are not imports and are not seen here.
"""

import ast
from functools import cache
from pathlib import Path

import pytest

from pipeline import paths
from pipeline.build.runner import imported_modules


def modules(root: Path) -> dict[str, Path]:
    """Every module under root/pipeline, by name, with its file."""
    found = {}
    for path in sorted((root / "pipeline").rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


@cache  # the checkout's graph with TYPE_CHECKING imports is read by two tests, parsed (and unparsed) once
def import_graph(root: Path, in_functions: bool, type_checking: bool = False) -> dict[str, set[str]]:
    """Each module of root/pipeline -> the modules of root/pipeline its import statements run (with
    `type_checking`: name, run or not); read only."""
    known = modules(root)
    graph = {}
    for module, path in known.items():
        own = {module.rsplit(".", i)[0] for i in range(module.count(".") + 1)}
        finder = written if type_checking else imported_modules
        named = finder(path.read_bytes(), module, path.name == "__init__.py", in_functions)
        ran = {".".join(name.split(".")[:i]) for name in named for i in range(1, name.count(".") + 2)}
        graph[module] = (ran & known.keys()) - own
    return graph


def written(source: bytes, module: str, is_package: bool, in_functions: bool = True) -> set[str]:
    """Every module an import statement of `source` names, those under `if TYPE_CHECKING:` included."""
    tree = ast.parse(source)
    for node in ast.walk(tree):  # the imports mypy reads as if they ran
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            node.test = ast.Constant(True)
    return imported_modules(ast.unparse(tree).encode(), module, is_package, in_functions)


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = stack[stack.index(node) :]
            del stack[stack.index(node) :]
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


@pytest.mark.parametrize("in_functions", [False, True], ids=["at-import", "with-function-imports"])
def test_pipeline_has_no_import_cycle(in_functions):
    assert cycles(import_graph(paths.ROOT, in_functions)) == []


def test_pipeline_has_no_import_cycle_counting_type_checking_imports():
    assert cycles(import_graph(paths.ROOT, in_functions=True, type_checking=True)) == []


# The layers, lowest first (docs/architecture.md): a module may import its own layer's and lower ones'. The
# shared utilities are the modules at the top of `pipeline` (any module of no package below) and i18n; the
# framework; the stages in data-flow order; what reads published decks; the slices and the registry (which
# imports nothing of theirs: it loads them by name); and the doors, the build, the CLI and the studio.
LAYERS = (
    ("pipeline", "pipeline.i18n"),
    ("pipeline.framework",),
    *((f"pipeline.{stage}",) for stage in ("extract", "transform", "validate", "geo", "decks", "render", "playcheck")),
    ("pipeline.play", "pipeline.records", "pipeline.review"),
    ("pipeline.games",),
    ("pipeline.build", "pipeline.cli", "pipeline.studio"),
)


def layer(module: str) -> int:
    """The index in LAYERS of `module`'s layer: that of the longest package (or module) it is in."""
    return max(
        (len(package), index)
        for index, packages in enumerate(LAYERS)
        for package in packages
        if module == package or module.startswith(package + ".")
    )[1]


def upward(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    """The imports from a module to one of a higher layer."""
    return {
        (module, target) for module, targets in graph.items() for target in targets if layer(target) > layer(module)
    }


def test_no_import_runs_up_the_layers():
    assert upward(import_graph(paths.ROOT, in_functions=True, type_checking=True)) == set()


def test_a_cycle_is_found_and_listed(tmp_path):
    package = tmp_path / "pipeline"
    (package / "build").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "build" / "__init__.py").write_text("")
    (package / "build" / "steps.py").write_text("from pipeline.build.parallel import Pool\n")
    (package / "build" / "parallel.py").write_text("def run():\n    from pipeline.build import steps\n")
    (package / "paths.py").write_text("import pipeline.build.steps\n")
    assert cycles(import_graph(tmp_path, in_functions=False)) == []
    assert cycles(import_graph(tmp_path, in_functions=True)) == [["pipeline.build.parallel", "pipeline.build.steps"]]


def test_an_import_up_the_layers_is_found(tmp_path):
    package = tmp_path / "pipeline"
    for folder in ("decks", "render", "framework"):
        (package / folder).mkdir(parents=True)
        (package / folder / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "decks" / "stage.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pipeline.render.kit\n"
    )
    (package / "render" / "kit.py").write_text("from pipeline.decks import stage\n")
    (package / "framework" / "core.py").write_text("def f():\n    from pipeline.render import kit\n")
    graph = import_graph(tmp_path, in_functions=True, type_checking=True)
    assert cycles(graph) == [["pipeline.decks.stage", "pipeline.render.kit"]]
    assert cycles(import_graph(tmp_path, in_functions=True)) == []  # a type's import is not run
    assert upward(graph) == {
        ("pipeline.decks.stage", "pipeline.render"),
        ("pipeline.decks.stage", "pipeline.render.kit"),
        ("pipeline.framework.core", "pipeline.render"),
        ("pipeline.framework.core", "pipeline.render.kit"),
    }
