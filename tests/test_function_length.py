"""No function of the package runs over 60 lines (issue 44's hard spots: a long function is split into named
steps). Run by `make lint`."""

import ast

from pipeline import paths

LONGEST = 60


def long_functions(root) -> list[str]:
    """`path:function lines` of every function in `root`'s .py files over LONGEST lines."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > LONGEST:
                    found.append(f"{path.relative_to(root)}:{node.name} {lines}")
    return found


def test_no_function_runs_over_sixty_lines():
    assert long_functions(paths.ROOT / "pipeline") == []


def test_a_long_function_is_found(tmp_path):
    body = "\n".join(f"    x{n} = {n}" for n in range(LONGEST))
    (tmp_path / "long.py").write_text(f"def long():\n{body}\n", encoding="utf-8")
    assert long_functions(tmp_path) == [f"long.py:long {LONGEST + 1}"]
