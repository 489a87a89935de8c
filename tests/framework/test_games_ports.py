"""Every module a stage reads of a registered game, and every optional member it has, is checked by mypy against
its stage's port (pipeline/framework/contracts.py): its package's `__init__.py` assigns it under
`TYPE_CHECKING` to the port's Protocol (`_cards: render_ports.CardsModule = cards`) or the member's type
(`_cards_art: render_ports.Art = cards.art`); a module or member without its line is unchecked, named here.
And no module outside the slices and the ports probes a game with `getattr`/`hasattr` (`NOT_A_GAME`: the probes
of other things), so a member a stage reads is in its port, typed."""

import ast
import importlib
import sys
from pathlib import Path
from types import ModuleType

import pytest
from fixtures import toygame

from pipeline import paths
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


# The `getattr`/`hasattr` calls outside the slices and the ports, each on something that is no game's module:
# (module, what it probes, the attribute) -> whose attribute it is. Any other is a stage probing a game around its
# port: take the member through the port's accessor (`render.ports.art(cards)`), adding it to the port if new.
NOT_A_GAME = {
    ("pipeline.atomic", "self._handle", "name"): "the open file's",
    ("pipeline.cli_output", "command", "commands"): "a click group's",
    ("pipeline.extract.http", "cause", "reason"): "an exception's",
    ("pipeline.framework.core", "policy", "oracle"): "a bot's flag (framework/core.py)",
    ("pipeline.framework.core", "policy", "searches"): "a bot's flag (framework/search.py)",
    ("pipeline.geo.grid", "country", "geoms"): "a shapely geometry's",
    ("pipeline.i18n.extract", "fileobj", "name"): "babel's file object's",
    ("pipeline.i18n.po", "exc", "fix"): "an exception's",
    ("pipeline.jsonfile", "exc", "strerror"): "an OSError's",
    ("pipeline.playcheck.tally", "self", "field.name"): "the tally's own fields",
    ("pipeline.playcheck.tally", "other", "field.name"): "the tally's own fields",
    ("pipeline.playcheck.tally", "fresh", "key"): "the tally's own fields",
    ("pipeline.render.drawings", "cls", "_attrMap"): "a reportlab shape class's",
    ("pipeline.render.rules", "para", "spaceAfter"): "a reportlab paragraph's",
    ("pipeline.scheduler", "exc", "strerror"): "an OSError's",
    ("pipeline.studio.app", "request.state", "session"): "a Starlette request's",
    ("pipeline.studio.app", "exc", "problems"): "an exception's",
    ("pipeline.transform.parsers.common", "parser", "MALFORMED"): "a transform parser's (no game)",
    ("pipeline.transform.parsers.natural_earth", "geometry", "geoms"): "a shapely geometry's",
    ("pipeline.transform.reference", "country", "common_name"): "a pycountry country's",
    ("pipeline.transform.refreshed", "m", "COMPLETE"): "a transform parser's (no game)",
    ("pipeline.transform.refreshed", "m", "SOURCE"): "a transform parser's (no game)",
    ("pipeline.validate.choose", "c", "part"): "a chosen value's provenance",
    ("pipeline.workers", "os", "sched_getaffinity"): "the os module's",
}


def probes(root: Path) -> set[tuple[str, str, str]]:
    """(module, what, attribute) of each `getattr(what, attribute…)` and `hasattr(what, attribute)` in the modules
    of root/pipeline that are neither a slice (pipeline/games/: a slice reads its own modules, the registry its
    slices' `GAME`) nor a port (PORT_MODULES, where `contracts.member` is the one probe)."""
    found = set()
    for path in sorted((root / "pipeline").rglob("*.py")):
        module = ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")
        if module.startswith("pipeline.games.") or module in PORT_MODULES:
            continue
        for node in ast.walk(ast.parse(path.read_bytes())):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if node.func.id in ("getattr", "hasattr") and len(node.args) >= 2:
                what, attribute = node.args[0], node.args[1]
                name = attribute.value if isinstance(attribute, ast.Constant) else ast.unparse(attribute)
                found.add((module, ast.unparse(what), str(name)))
    return found


def test_no_stage_probes_a_game_around_its_port():
    assert probes(paths.ROOT) - NOT_A_GAME.keys() == set()


def test_a_probe_of_a_game_in_a_stage_is_found(tmp_path):
    for folder in ("render", "games/toy"):
        (tmp_path / "pipeline" / folder).mkdir(parents=True)
    (tmp_path / "pipeline" / "render" / "kit.py").write_text('art = getattr(ports.cards(game), "art", None)\n')
    (tmp_path / "pipeline" / "render" / "ports.py").write_text('def art(m):\n    return getattr(m, "art", None)\n')
    (tmp_path / "pipeline" / "games" / "toy" / "cards.py").write_text('x = hasattr(engine, "rounds")\n')
    assert probes(tmp_path) == {("pipeline.render.kit", "ports.cards(game)", "art")}
