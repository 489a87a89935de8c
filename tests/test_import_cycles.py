"""No import cycle among pipeline's modules (issue 29): the graph is read with `ast` by the build's own import
finder (pipeline.build.runner.imported_modules), imports under `if TYPE_CHECKING:` left out (never run).

Two graphs are checked, each must have no cycle: the imports run when a module is imported (a cycle there
can break an import, depending on which module comes first), and every import, those inside functions
included (a cycle there is a circle of dependencies, like the build's runner and workers had). Importing
`a.b.c` runs the __init__ of `a` and `a.b` as well, so those count too, except a module's own packages
(Python runs them first). Modules loaded by name at run time (the registry's slices, a slice's module kinds,
the transform's parsers) are not imports and are not seen here.
"""

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


def import_graph(root: Path, in_functions: bool) -> dict[str, set[str]]:
    """Each module of root/pipeline -> the modules of root/pipeline its import statements run."""
    known = modules(root)
    graph = {}
    for module, path in known.items():
        own = {module.rsplit(".", i)[0] for i in range(module.count(".") + 1)}
        named = imported_modules(path.read_bytes(), module, path.name == "__init__.py", in_functions)
        ran = {".".join(name.split(".")[:i]) for name in named for i in range(1, name.count(".") + 2)}
        graph[module] = (ran & known.keys()) - own
    return graph


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
