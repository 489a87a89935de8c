"""Every module a stage reads of a registered game, and every optional member it has, is checked by mypy against
its stage's port (pipeline/framework/contracts.py): its package's `__init__.py` assigns it under
`TYPE_CHECKING` to the port's Protocol (`_cards: render_ports.CardsModule = cards`) or the member's type
(`_cards_art: render_ports.Art = cards.art`); a module or member without its line is unchecked, named here."""

import ast
import importlib
import sys
from pathlib import Path
from types import ModuleType

import pytest
from fixtures import toygame

from pipeline.framework import contracts
from pipeline.framework.definition import GameDefinition
from pipeline.games import registry as games

PORT_MODULES = (
    "pipeline.framework.contracts",
    *(f"pipeline.{stage}.ports" for stage in ("decks", "render", "playcheck", "records", "play")),
)


def ports() -> list[tuple[ModuleType, contracts.Port]]:
    """Every port a stage declares, with the module declaring it."""
    found = []
    for name in PORT_MODULES:
        module = importlib.import_module(name)
        found += [(module, port) for port in module.PORTS]
    return found


def type_names(declaring: ModuleType, kind: object) -> set[str]:
    """The names `declaring` binds to `kind` (a Protocol or a member's type)."""
    return {name for name, value in vars(declaring).items() if value is kind}


def checks(package: str) -> set[tuple[str, str]]:
    """(what is checked, the last name of its type) for each annotated assignment under `if TYPE_CHECKING:`
    in the package's `__init__.py`: ("cards", "CardsModule"), ("cards.art", "Art")."""
    tree = ast.parse(Path(sys.modules[package].__file__ or "").read_text(encoding="utf-8"))
    found = set()
    for node in tree.body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for line in node.body:
                if isinstance(line, ast.AnnAssign) and line.value is not None:
                    found.add((ast.unparse(line.value), ast.unparse(line.annotation).rsplit(".", 1)[-1]))
    return found


def unchecked(definition: GameDefinition) -> list[str]:
    """The modules the stages read of `definition` (its own, else its family's), and their optional members,
    that its package has no check line for."""
    missing = []
    for declaring, port in ports():
        if port.module:
            try:
                module = definition.module(port.module)
            except ModuleNotFoundError:
                continue
            package, prefix = module.__name__.rpartition(".")[0], f"{port.module}."
            wanted: list[tuple[str, object]] = [(port.module, port.protocol)]
        else:
            module = importlib.import_module(definition.package)
            package, prefix, wanted = module.__name__, "", []
        wanted += [(prefix + member, kind) for member, kind in port.optional.items() if hasattr(module, member)]
        found = checks(package)
        missing += [
            f"{package}: {what} ({' or '.join(sorted(type_names(declaring, kind)))})"
            for what, kind in wanted
            if not any((what, name) in found for name in type_names(declaring, kind))
        ]
    return missing


@pytest.mark.parametrize("definition", [*games.registered().values(), toygame.GAME], ids=lambda d: d.name)
def test_every_module_a_stage_reads_is_checked_against_its_port(definition):
    assert unchecked(definition) == []


def test_a_deleted_check_line_is_named(tmp_path, monkeypatch):
    source = Path(toygame.__file__).read_text(encoding="utf-8")
    copy = tmp_path / "toycopy"
    for path in Path(toygame.__file__).parent.glob("*.py"):
        (copy / path.name).parent.mkdir(exist_ok=True)
        (copy / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    lines = [line for line in source.splitlines(keepends=True) if "= playcheck\n" not in line]
    (copy / "__init__.py").write_text("".join(lines), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("toycopy")
    definition = GameDefinition(**{**module.GAME.__dict__, "package": "toycopy", "templates": toygame.GAME.templates})
    assert unchecked(definition) == ["toycopy: playcheck (PlaycheckModule)"]
