"""The build's runner, like OWID's etl DAG at geodeck's size: `build` runs the step graph
(pipeline.build.graph), `run` any list of steps (pipeline.build.step).

A step's code is its module plus every module of the repo it imports, transitively (found with `ast`,
imports inside functions included), plus the modules it loads by name (`Step.code`); a module's sidecar data
file (`fields.toml` beside `fields.py`) counts as its code. `run` executes steps in dependency order and skips
a step whose fingerprint (the sha256 of its inputs and code) equals its stamp's and whose outputs are the ones
the stamp recorded. The stamp `build/steps/<step>.json` is removed before a step runs and written after it, so
a failed run leaves none. With `Context.jobs` > 1, steps that do not depend on each other run side by side in
worker processes (pipeline.build.parallel); this process still fingerprints and stamps them. A no-op run
imports nothing heavy and starts no worker: it hashes files and reads stamps.
"""

import ast
import glob
import importlib.util
import json
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline import atomic, paths, readers
from pipeline.build import graph
from pipeline.build.step import Context, StepResult, call, resolve
from pipeline.errors import GeodeckError
from pipeline.framework.step import Step
from pipeline.hashing import file_sha256, sha256

if TYPE_CHECKING:  # annotations only: the process pool is for the steps that run
    from pipeline.build.parallel import Pool


def build(ctx: Context, names: Iterable[str] | None = None) -> list[StepResult]:
    """`geodeck build`: run the named stages or steps of the graph (default: all) in dependency order; each
    step is skipped when its inputs and code are unchanged, so a second run does no work; a deck step whose
    published folder needs a repair runs even when its inputs are unchanged (integrity.needs_build)."""
    from pipeline.decks import integrity

    names = None if names is None else list(names)
    chosen = None if names is None else set(names)
    for definition, step in graph.decks():
        wanted = chosen is None or bool(chosen & {step.name, step.stage})
        if wanted and integrity.needs_build(definition):
            stamp_path(step.name).unlink(missing_ok=True)
    return run(graph.steps(), ctx, names)


def module_file(module: str, base: Path) -> Path | None:
    """The source file of `module` under the folder `base` holding its top-level package (a package's
    __init__.py), None when there is none."""
    path = base.joinpath(*module.split("."))
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def package_base(top: str) -> Path | None:
    """The folder holding the top-level package `top` (found without importing it), if it has one."""
    spec = importlib.util.find_spec(top)
    locations = list(spec.submodule_search_locations or []) if spec else []
    return Path(locations[0]).parent if locations else None


def imported_modules(source: bytes, module: str, is_package: bool, in_functions: bool = True) -> set[str]:
    """Every module an import statement of `source` names (with `from a import b`: a, and a.b in case b
    is a module), relative imports resolved against `module`; without `in_functions`, only the imports run
    when the module is imported."""
    package = module if is_package else module.rpartition(".")[0]
    found = set()
    for node in _runtime_nodes(ast.parse(source), in_functions):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            parts = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            base = ".".join(parts + ([node.module] if node.module else []))
            found |= {base} | {f"{base}.{alias.name}" for alias in node.names}
    return found


def _runtime_nodes(tree: ast.AST, in_functions: bool) -> Iterable[ast.AST]:
    """Every node except those under `if TYPE_CHECKING:` (imports for annotations only, never run) and,
    without `in_functions`, those in a function's body."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            yield from (n for child in node.orelse for n in [child, *_runtime_nodes(child, in_functions)])
            continue
        yield node
        if in_functions or not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield from _runtime_nodes(node, in_functions)


class Checksums:
    """File hashes and module import lists for one build, each computed once; a step's outputs are
    forgotten when it runs. Import lists are cached in build/steps/imports.json by file hash, so an
    unchanged module is not parsed again."""

    def __init__(self) -> None:
        self.hashes: dict[Path, str] = {}
        self.files: dict[str, Path | None] = {}  # module -> its source file
        self.listings: dict[Path, list[Path]] = {}  # folder -> its files that are not Python
        self.bases: dict[str, Path | None] = {"pipeline": paths.CODE}  # top-level package -> the folder holding it
        self.cache_path = paths.build_dir() / "steps" / "imports.json"
        self.imports: dict[str, list[str]] = readers.read_cache("imports", self.cache_path) or {}
        self._loaded = set(self.imports)
        self.used: set[str] = set()

    def file(self, path: Path) -> str:
        if path not in self.hashes:
            self.hashes[path] = file_sha256(path)
        return self.hashes[path]

    def forget(self, path: Path) -> None:
        self.hashes.pop(path, None)

    def modules(self, path: Path, module: str) -> list[str]:
        """The modules `path` (the source of `module`) imports."""
        key = f"{module} {self.file(path)}"
        self.used.add(key)
        if key not in self.imports:
            self.imports[key] = sorted(imported_modules(path.read_bytes(), module, path.name == "__init__.py"))
        return self.imports[key]

    def source_file(self, module: str) -> Path | None:
        """The source file of a module of `pipeline` or of a package a step names (a game kept in the tests)."""
        top = module.split(".")[0]
        if top not in self.bases:
            self.bases[top] = package_base(top)
        base = self.bases[top]
        if module not in self.files:
            self.files[module] = module_file(module, base) if base is not None else None
        return self.files[module]

    def sidecars(self, path: Path) -> list[Path]:
        """A module's data files beside it with its name (`fields.toml` beside `fields.py`), read as its code."""
        if path.parent not in self.listings:
            self.listings[path.parent] = sorted(p for p in path.parent.iterdir() if p.suffix not in (".py", ".pyc"))
        return [p for p in self.listings[path.parent] if p.stem == path.stem and p.is_file()]

    def code(self, roots: Iterable[str]) -> dict[str, str]:
        """sha256 of every file of the modules `roots` import, transitively, within `pipeline` and the roots'
        own packages, with their packages' __init__ files (run on import) and each module's sidecars, by
        path relative to the repo."""
        roots = list(roots)
        tops = {"pipeline"} | {root.split(".")[0] for root in roots}
        todo, seen, files = roots, set(), {}
        while todo:
            module = todo.pop()
            if module in seen or module.split(".")[0] not in tops:
                continue
            seen.add(module)
            path = self.source_file(module)
            if path is None:
                continue
            for part in [path, *self.sidecars(path)]:
                files[label(part)] = self.file(part)
            parents = [".".join(module.split(".")[:i]) for i in range(1, module.count(".") + 1)]
            todo += parents + self.modules(path, module)
        return dict(sorted(files.items()))

    def save(self) -> None:
        """Write the import cache if it learnt something, without older versions of the modules read now nor
        modules that are gone (moved or deleted)."""
        modules = {key.split()[0] for key in self.used}
        kept = {
            k: v
            for k, v in self.imports.items()
            if k in self.used or (k.split()[0] not in modules and self.source_file(k.split()[0]) is not None)
        }
        if set(kept) != set(self._loaded):
            atomic.write_text(self.cache_path, json.dumps(kept, indent=0, sort_keys=True) + "\n")


def label(path: Path) -> str:
    """A path as stamps name it: relative to the repo when inside it."""
    return path.relative_to(paths.ROOT).as_posix() if path.is_relative_to(paths.ROOT) else str(path)


def repo_files(patterns: Iterable[str]) -> list[Path]:
    """The files matching `patterns` (glob patterns relative to the repo, or absolute); a missing literal path
    matches nothing."""
    return sorted({Path(p) for pattern in patterns for p in glob.glob(str(paths.ROOT / pattern))})


def fingerprint(step: Step, sums: Checksums) -> str:
    inputs = {f"build/{r}": sums.file(resolve(r)) for r in step.reads}
    inputs |= {label(p): sums.file(p) for p in repo_files(step.files)}
    inputs |= {f"sources/{s}.toml": sums.file(paths.SOURCES_DIR / f"{s}.toml") for s in step.sources}
    code = sums.code([step.module, *step.code])
    payload = {"inputs": dict(sorted(inputs.items())), "code": code, "options": dict(step.options)}
    return sha256(json.dumps(payload, sort_keys=True))


def stamp_path(name: str) -> Path:
    return paths.build_dir() / "steps" / f"{name}.json"


def is_fresh(step: Step, current: str, sums: Checksums) -> bool:
    """Whether the stamp says this fingerprint made the outputs that are there now."""
    stamp = readers.read_cache("stamp", stamp_path(step.name))
    if stamp is None or stamp.get("fingerprint") != current or set(stamp.get("outputs", {})) != set(step.writes):
        return False
    return all(resolve(w).is_file() and sums.file(resolve(w)) == h for w, h in stamp["outputs"].items())


def ordered(steps: list[Step]) -> list[Step]:
    """The steps in dependency order (a step after every step that writes what it reads), otherwise in the
    order given; an unknown read or a cycle is an error (see `check`)."""
    writer = {w: s.name for s in steps for w in s.writes}
    needs = {s.name: {writer[r] for r in s.reads if r in writer} - {s.name} for s in steps}
    done: list[Step] = []
    while len(done) < len(steps):
        names = {s.name for s in done}
        ready = [s for s in steps if s.name not in names and needs[s.name] <= names]
        if not ready:
            raise ValueError(f"the step graph has a cycle among {sorted(set(needs) - names)}")
        done.append(ready[0])
    return done


def critical_path(steps: list[Step], seconds: dict[str, float]) -> float:
    """The most `seconds` (per step name; a step not named counts 0) along one chain of steps, each reading
    what the one before it wrote: with steps side by side on enough cores, what the whole graph takes."""
    writer = {w: s.name for s in steps for w in s.writes}
    longest: dict[str, float] = {}
    for step in ordered(steps):
        before = [longest[writer[r]] for r in step.reads if r in writer and writer[r] != step.name]
        longest[step.name] = seconds.get(step.name, 0.0) + max(before, default=0.0)
    return max(longest.values(), default=0.0)


def check(steps: list[Step]) -> None:
    """The graph is consistent: unique names and outputs, every read made by some step, no cycle."""
    names = [s.name for s in steps]
    writes = [w for s in steps for w in s.writes]
    for kind, items in (("step", names), ("output", writes)):
        if twice := sorted({i for i in items if items.count(i) > 1}):
            raise ValueError(f"{kind}(s) declared twice in the step graph: {twice}")
    if orphans := sorted({f"{s.name} reads {r}" for s in steps for r in s.reads if r not in writes}):
        raise ValueError(f"no step writes what these read: {orphans}")
    ordered(steps)


def select(steps: list[Step], names: Iterable[str] | None) -> list[Step]:
    """The steps named (by step or stage name), in dependency order; all of them without names."""
    wanted = set(names or [])
    known = {s.name for s in steps} | {s.stage for s in steps}
    if unknown := sorted(wanted - known):
        raise GeodeckError(f"unknown stage or step {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    return [s for s in ordered(steps) if not wanted or s.name in wanted or s.stage in wanted]


def run(steps: list[Step], ctx: Context, names: Iterable[str] | None = None) -> list[StepResult]:
    """Run the selected steps (default: all) in dependency order, each only when its inputs or code changed;
    with `ctx.jobs` > 1, steps that do not depend on each other run side by side (pipeline.build.parallel)."""
    check(steps)
    selected = select(steps, names)
    writer = {w: s for s in steps for w in s.writes}
    chosen = {s.name for s in selected}
    needs = {s.name: {writer[r].name for r in s.reads if r in writer} & chosen - {s.name} for s in selected}
    sums = Checksums()
    results: dict[str, StepResult] = {}
    pool: Pool | None = None
    running: set[str] = set()
    try:
        while len(results) < len(selected):
            for step in selected:
                if step.name in results or step.name in running or not needs[step.name] <= results.keys():
                    continue
                current = prepare(step, ctx, sums, writer)
                if current is None:
                    results[step.name] = StepResult(step.name, False)
                elif pool is not None or (ctx.jobs > 1 and len(selected) > 1 and parallel().FORK):
                    pool = pool or parallel().Pool(ctx, min(ctx.jobs, len(selected)))
                    pool.submit(step, current)
                    running.add(step.name)
                else:
                    ctx.on_step(step.name, step.units)
                    results[step.name] = stamp(step, sums, current, call(step, ctx))
                    ctx.on_done(step.name)
            for step, current, ran in pool.finished() if pool is not None and running else []:
                running.discard(step.name)
                results[step.name] = stamp(step, sums, current, ran)
    finally:
        if pool is not None:
            pool.close()
        sums.save()
    return [results[s.name] for s in selected]


def parallel():
    """pipeline.build.parallel, imported when steps are to run (a no-op build needs no process pool)."""
    from pipeline.build import parallel

    return parallel


def prepare(step: Step, ctx: Context, sums: Checksums, writer: dict[str, Step]) -> str | None:
    """The fingerprint of a step to run, its stamp removed; None when it is fresh. Its inputs must exist."""
    if missing := [r for r in step.reads if not resolve(r).is_file()]:
        producer = writer[missing[0]]
        raise GeodeckError(f"{resolve(missing[0])} is missing; run `geodeck build --stage {producer.stage}` first")
    current = fingerprint(step, sums)
    if not ctx.force and is_fresh(step, current, sums):
        return None
    stamp_path(step.name).unlink(missing_ok=True)
    return current


def stamp(step: Step, sums: Checksums, current: str, ran: tuple[str, float]) -> StepResult:
    """Check that the step wrote its outputs and stamp it with their hashes."""
    outputs = {}
    for written in step.writes:
        path = resolve(written)
        if not path.is_file():
            raise GeodeckError(f"step {step.name} did not write {written}; it declares it as an output")
        sums.forget(path)
        outputs[written] = sums.file(path)
    record = {"step": step.name, "fingerprint": current, "outputs": outputs}
    atomic.write_text(stamp_path(step.name), json.dumps(record, indent=1, sort_keys=True) + "\n")
    return StepResult(step.name, True, *ran)
