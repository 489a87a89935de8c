"""The game contracts (pipeline/framework/contracts.py, the stages' ports): mypy checks a slice's modules against them,
so a game missing a function fails `make lint` naming it; every game lists the templates it reads."""

import ast
import shutil
from pathlib import Path

import pytest
from fixtures import toygame
from mypy import api

from pipeline import paths
from pipeline.games import registry as games

TOY = Path(toygame.__file__).parent


@pytest.fixture(scope="module")
def config(tmp_path_factory) -> Path:
    """mypy following only the contracts and the stages' ports into `pipeline` (a second, not the whole tree)."""
    folder = tmp_path_factory.mktemp("mypy")
    path = folder / "mypy.ini"
    path.write_text(
        f"[mypy]\nmypy_path = {paths.ROOT}\nfollow_imports = skip\nignore_missing_imports = True\n"
        f"cache_dir = {folder / 'cache'}\n"
        "[mypy-pipeline.framework.contracts,pipeline.*.ports]\nfollow_imports = normal\n"
    )
    return path


def mypy(package: Path, config: Path) -> tuple[str, int]:
    out, err, status = api.run(["--config-file", str(config), str(package)])
    return out + err, status


def without(path: Path, function: str) -> None:
    """Remove the module-level function `function` from the module at `path`."""
    source = path.read_text(encoding="utf-8")
    [node] = [n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef) and n.name == function]
    lines = source.splitlines(keepends=True)
    path.write_text("".join(lines[: node.lineno - 1] + lines[node.end_lineno :]), encoding="utf-8")


@pytest.fixture
def toy_copy(tmp_path) -> Path:
    return Path(shutil.copytree(TOY, tmp_path / "toygame", ignore=shutil.ignore_patterns("__pycache__")))


def test_mypy_passes_the_toy_game(toy_copy, config):
    output, status = mypy(toy_copy, config)
    assert status == 0, output


@pytest.mark.parametrize(
    ("module", "function", "contract"), [("playcheck", "collect", "PlaycheckModule"), ("cards", "back", "CardsModule")]
)
def test_mypy_names_a_function_the_toy_game_lacks(toy_copy, config, module, function, contract):
    without(toy_copy / f"{module}.py", function)
    output, status = mypy(toy_copy, config)
    assert status == 1, output
    assert f'variable has type "{contract}"' in output and f"protocol member:\n{toy_copy / '__init__.py'}" in output
    assert output.splitlines()[2].endswith(f"note:     {function}"), output


@pytest.mark.parametrize("definition", [*games.registered().values(), toygame.GAME], ids=lambda d: d.name)
def test_every_game_lists_the_templates_it_reads(definition):
    files = definition.template_files
    assert set(files) == {"deck spec", "card layout", "play-check"}
    assert all(path.is_file() for path in files.values()), files
