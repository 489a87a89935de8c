"""The rules engines compiled with mypyc: the same source, built as C extensions beside it.

`make install` runs `compiled.build(LOG)` to compile SOURCES in place (about 2 minutes; without a C
compiler the engines stay plain Python, only slower; `make pure` removes the extensions). Python imports
an extension before the source beside it, so an extension older than its source would run old code:
`use_fresh()`, called when `pipeline` is imported, loads such a module from its source instead and says
that `make install` compiles it again. `GEODECK_PURE=1` runs every engine from its source.
"""

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path

PACKAGE = Path(__file__).parent
SOURCES = (
    "framework/core.py",
    "games/*/engine.py",
)  # compiled: the shared engine API, every game's and family's engine
BUILD = PACKAGE.parent / ".venv" / "mypyc"  # mypyc's C files and objects (build products)
PURE = "GEODECK_PURE"  # set to 1: run the engines from their sources
SUFFIXES = importlib.machinery.EXTENSION_SUFFIXES


def sources(package: Path = PACKAGE) -> list[Path]:
    return sorted(path for pattern in SOURCES for path in package.glob(pattern))


def orphans(package: Path = PACKAGE) -> list[Path]:
    """Extensions in the package whose source is gone (an engine moved, e.g. into a family, or the core into
    pipeline/framework/): left in place, Python would import them ahead of the moved module."""
    found = (package.rglob("*" + suffix) for suffix in SUFFIXES)
    return sorted({path for paths in found for path in paths if not _stem(path).with_suffix(".py").is_file()})


def _stem(extension: Path) -> Path:
    """The source path (without .py) an extension was compiled from: engine.cpython-311-….so, engine__mypyc…"""
    return extension.with_name(extension.name.split(".")[0].removesuffix("__mypyc"))


def module_name(source: Path, package: Path = PACKAGE) -> str:
    return ".".join((package.name, *source.relative_to(package).with_suffix("").parts))


def extensions(source: Path) -> list[Path]:
    """The compiled extensions of `source` present beside it (the module, and mypyc's library of its code)."""
    stems = (source.stem, source.stem + "__mypyc")
    names = (stem + suffix for stem in stems for suffix in SUFFIXES)
    return [path for path in map(source.with_name, names) if path.exists()]


def stale(package: Path = PACKAGE, pure: bool = False) -> dict[str, Path]:
    """The compiled modules, name -> source, when any of them has an extension older than its source (or
    `pure`): all of them, since compiled modules call each other's native code and cannot be mixed with
    source modules of the others."""
    built = {module_name(source, package): source for source in sources(package) if extensions(source)}
    old = any(ext.stat().st_mtime < source.stat().st_mtime for source in built.values() for ext in extensions(source))
    return built if pure or old else {}


def running_compiled() -> list[str]:
    """The modules of SOURCES that run compiled in this process."""
    loaded = (sys.modules.get(module_name(source)) for source in sources())
    return [m.__name__ for m in loaded if m is not None and not (m.__file__ or "").endswith(".py")]


class FromSource(importlib.abc.MetaPathFinder):
    """Finds the given modules' sources ahead of the extensions beside them; the `gone` modules (orphaned
    extensions, `orphans`) are not found at all."""

    def __init__(self, modules: dict[str, Path], gone: frozenset[str] = frozenset()):
        self.modules, self.gone = modules, gone

    def find_spec(self, name: str, path: Sequence[str] | None, target: object = None):
        if name in self.gone:
            raise ModuleNotFoundError(f"No module named {name!r} (only an old compiled copy)", name=name)
        source = self.modules.get(name)
        return importlib.util.spec_from_file_location(name, source) if source else None


def use_fresh() -> None:
    """Run the compiled modules from their sources when one is stale or an engine moved (orphaned extensions,
    never imported), always with GEODECK_PURE=1."""
    pure = os.environ.get(PURE) == "1"
    lost = frozenset(module_name(_stem(path).with_suffix(".py")) for path in orphans())
    found = stale(pure=pure or bool(lost))
    if not (found or lost) or any(isinstance(finder, FromSource) for finder in sys.meta_path):
        return
    sys.meta_path.insert(0, FromSource(found, lost))
    if not pure:
        message = (
            "the rules engines changed since they were compiled: they run from source (slower) until `make install`"
        )
        print(f"geodeck: {message}", file=sys.stderr)


def build(log: Path) -> None:
    """Compile SOURCES with mypyc into extensions beside them (the C files and objects go to BUILD), after
    removing the orphaned extensions of moved engines. One line per step goes to the terminal (mypyc's
    translation, then each extension's C compile); what mypyc and the compiler say goes to `log`."""
    from mypyc.build import mypycify
    from setuptools import setup
    from setuptools.command.build_ext import build_ext

    terminal = os.fdopen(os.dup(sys.stdout.fileno()), "w", buffering=1)
    saved = [os.dup(1), os.dup(2)]
    with open(log, "w") as written:
        os.dup2(written.fileno(), 1)
        os.dup2(written.fileno(), 2)

    class Progress(build_ext):
        def build_extension(self, ext) -> None:
            position = self.extensions.index(ext) + 1
            terminal.write(f"  compiling {ext.name} ({position}/{len(self.extensions)})\n")
            super().build_extension(ext)

    try:
        for orphan in orphans():
            orphan.unlink()
        paths = [str(path.relative_to(PACKAGE.parent)) for path in sources()]
        terminal.write(f"  mypyc: type-checking {len(paths)} engines and translating them to C\n")
        temp = ["--build-temp", str(BUILD / "temp"), "--build-lib", str(BUILD / "lib")]
        setup(
            ext_modules=mypycify(paths, opt_level="3", separate=True, target_dir=str(BUILD / "c")),
            script_args=["--quiet", "build_ext", "--inplace", *temp],
            cmdclass={"build_ext": Progress},
        )
        for source in sources():  # setuptools keeps an unchanged extension's old time: mark all as built now
            for extension in extensions(source):
                extension.touch()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        for fd, copy in zip((1, 2), saved):
            os.dup2(copy, fd)
        terminal.close()


def print_sources() -> None:
    """SOURCES as paths from the project folder (make's list of what the compiled engines depend on)."""
    print(" ".join(str(path.relative_to(PACKAGE.parent)) for path in sources()))
