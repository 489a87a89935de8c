"""The step runner and the build's step graph: reruns from checksums of inputs and imported code, dependency
order, stamps only after success, and a graph whose every read is some step's output."""

import importlib
import json
import os
import sys
import textwrap

import pytest
from fixtures.tiny.decks.synthetic import places_table, write_inputs

from pipeline import paths
from pipeline.build import graph, runner
from pipeline.build.runner import build
from pipeline.build.step import Context, StepIO
from pipeline.errors import GeodeckError, ParseError
from pipeline.framework.step import Step


@pytest.fixture
def repo(tmp_path, monkeypatch):
    """A scratch repo holding the package `stepdemo`, with the build folder inside it; yields a writer of
    its modules. Its `work.step` logs each run to calls.log and writes what its imported helper says."""
    monkeypatch.setattr(paths, "ROOT", tmp_path)
    monkeypatch.setenv("GEODECK_BUILD", str(tmp_path / "build"))
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "build").mkdir()

    def write(module: str, text: str) -> None:
        path = tmp_path / "stepdemo" / f"{module}.py"
        path.parent.mkdir(exist_ok=True)
        path.write_text(textwrap.dedent(text))
        importlib.invalidate_caches()

    write("__init__", "")
    write("helper", "VALUE = 'one'\n")
    write("unrelated", "VALUE = 'never imported by the step'\n")
    write(
        "work",
        """
        from pathlib import Path


        def step(io, fail: str = ""):
            from stepdemo import helper  # a lazy import counts like any other

            if fail:
                raise RuntimeError("interrupted")
            with (Path(__file__).parent.parent / "calls.log").open("a") as log:
                log.write(io.step.name + "\\n")
            for written in io.step.writes:
                io.path(written).write_text(helper.VALUE + "".join(io.path(r).read_text() for r in io.step.reads))
        """,
    )
    yield write
    for name in [m for m in sys.modules if m.split(".")[0] == "stepdemo"]:
        del sys.modules[name]


def calls(tmp_path) -> list[str]:
    log = tmp_path / "calls.log"
    return log.read_text().split() if log.exists() else []


def demo(name: str, reads=(), writes=(), **kwargs) -> Step:
    return Step(name, "demo", "stepdemo.work", reads=tuple(reads), writes=tuple(writes), **kwargs)


def test_a_step_reruns_when_a_module_it_imports_or_its_sidecar_changes_and_not_for_an_unrelated_one(repo, tmp_path):
    graph_ = [demo("a", writes=["a.txt"])]
    assert [r.ran for r in runner.run(graph_, Context(None))] == [True]
    assert [r.ran for r in runner.run(graph_, Context(None))] == [False]
    repo("unrelated", "VALUE = 'changed'\n")
    assert [r.ran for r in runner.run(graph_, Context(None))] == [False]
    repo("helper", "VALUE = 'two'\n")
    assert [r.ran for r in runner.run(graph_, Context(None))] == [True]
    (tmp_path / "stepdemo" / "helper.toml").write_text("table = 1\n")  # a sidecar of a module it imports
    assert [r.ran for r in runner.run(graph_, Context(None))] == [True]
    (tmp_path / "stepdemo" / "unrelated.toml").write_text("table = 1\n")
    assert [r.ran for r in runner.run(graph_, Context(None))] == [False]
    assert calls(tmp_path) == ["a", "a", "a"]


def test_a_moved_module_reruns_its_step_once_and_leaves_the_import_cache(repo, tmp_path):
    graph_ = [demo("a", writes=["a.txt"])]
    runner.run(graph_, Context(None))
    work = (tmp_path / "stepdemo" / "work.py").read_text()
    (tmp_path / "stepdemo" / "helper.py").rename(tmp_path / "stepdemo" / "moved.py")
    repo("work", work.replace("from stepdemo import helper", "from stepdemo import moved as helper"))
    assert [r.ran for r in runner.run(graph_, Context(None))] == [True]
    cached = json.loads((tmp_path / "build" / "steps" / "imports.json").read_text())
    assert "stepdemo.moved" in {key.split()[0] for key in cached}
    assert "stepdemo.helper" not in {key.split()[0] for key in cached}  # gone, not kept for ever
    assert [r.ran for r in runner.run(graph_, Context(None))] == [False]


def test_a_step_reruns_when_an_input_or_its_output_changed(repo, tmp_path):
    (tmp_path / "table.csv").write_text("x\n")
    graph_ = [demo("a", writes=["a.txt"], files=("table.csv",))]
    runner.run(graph_, Context(None))
    (tmp_path / "table.csv").write_text("y\n")
    assert [r.ran for r in runner.run(graph_, Context(None))] == [True]
    (tmp_path / "build" / "a.txt").write_text("edited by hand")
    assert [r.ran for r in runner.run(graph_, Context(None))] == [True]
    assert [r.ran for r in runner.run(graph_, Context(None, force=True))] == [True]
    assert calls(tmp_path) == ["a"] * 4


def test_steps_run_in_dependency_order_and_rerun_downstream_of_a_change(repo, tmp_path):
    graph_ = [demo("c", reads=["b.txt"], writes=["c.txt"]), demo("b", reads=["a.txt"], writes=["b.txt"])]
    graph_.append(demo("a", writes=["a.txt"]))
    assert [s.name for s in runner.ordered(graph_)] == ["a", "b", "c"]
    runner.run(graph_, Context(None))
    assert calls(tmp_path) == ["a", "b", "c"]
    assert (tmp_path / "build" / "c.txt").read_text() == "oneoneone"
    repo("helper", "VALUE = 'two'\n")
    runner.run(graph_, Context(None), ["c"])  # only c is selected: it reruns for its code, not its stale input
    assert calls(tmp_path)[3:] == ["c"]
    with pytest.raises(ValueError, match="cycle"):
        runner.ordered([demo("x", reads=["y.txt"], writes=["x.txt"]), demo("y", reads=["x.txt"], writes=["y.txt"])])


def test_a_failed_run_leaves_no_stamp_and_is_redone(repo, tmp_path):
    good = [demo("a", writes=["a.txt"])]
    runner.run(good, Context(None))
    assert runner.stamp_path("a").is_file()
    with pytest.raises(RuntimeError, match="interrupted"):
        runner.run([demo("a", writes=["a.txt"], options=(("fail", "yes"),))], Context(None))
    assert not runner.stamp_path("a").exists()  # the old stamp went before the run
    assert [r.ran for r in runner.run(good, Context(None))] == [True]


def test_a_missing_input_names_the_stage_that_makes_it(repo):
    graph_ = [demo("a", writes=["a.txt"]), Step("b", "later", "stepdemo.work", reads=("a.txt",))]
    with pytest.raises(GeodeckError, match=r"a\.txt is missing; run `geodeck build --stage demo` first"):
        runner.run(graph_, Context(None), ["later"])
    with pytest.raises(GeodeckError, match="unknown stage or step nope"):
        runner.run(graph_, Context(None), ["nope"])


# A step that waits (up to 10 s) until its `partner` step has started too: run one after the other, it fails.
SIDE_BY_SIDE = """
import os
import time
from pathlib import Path


def step(io, partner: str = ""):
    folder = Path(__file__).parent.parent
    (folder / f"{io.step.name}.started").write_text(str(os.getpid()))
    deadline = time.monotonic() + 10
    while partner and not (folder / f"{partner}.started").exists():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{partner} did not start while {io.step.name} ran")
        time.sleep(0.01)
    start = time.process_time()
    while time.process_time() - start < 0.05:  # CPU seconds the build reports
        pass
    io.progress("half")
    for written in io.step.writes:
        io.path(written).write_text(io.step.name + "".join(io.path(r).read_text() for r in io.step.reads))
"""


def test_independent_steps_run_side_by_side_in_workers_and_are_stamped_by_the_build(repo, tmp_path):
    repo("side", SIDE_BY_SIDE)
    graph_ = [
        Step("c", "demo", "stepdemo.side", reads=("a.txt", "b.txt"), writes=("c.txt",)),
        Step("a", "demo", "stepdemo.side", writes=("a.txt",), options=(("partner", "b"),)),
        Step("b", "demo", "stepdemo.side", writes=("b.txt",), options=(("partner", "a"),)),
    ]
    events: list[tuple[str, str]] = []
    ctx = Context(
        None,
        jobs=2,
        on_step=lambda name, units: events.append(("start", name)),
        on_progress=lambda name, unit: events.append((unit, name)),
        on_done=lambda name: events.append(("done", name)),
    )
    results = runner.run(graph_, ctx)
    assert [(r.step, r.ran) for r in results] == [("a", True), ("b", True), ("c", True)]
    assert all(r.cpu >= 0.05 for r in results)  # measured in the worker that ran the step
    assert (tmp_path / "build" / "c.txt").read_text() == "cab"
    workers = {(tmp_path / f"{name}.started").read_text() for name in "abc"}
    assert len(workers) == 2 and str(os.getpid()) not in workers  # two worker processes, not this one
    for name in "abc":  # each step's progress is told under its name, between its start and its end
        assert events.index(("start", name)) < events.index(("half", name)) < events.index(("done", name))
    assert events.index(("start", "c")) > max(events.index(("done", "a")), events.index(("done", "b")))
    assert not any(r.ran for r in runner.run(graph_, ctx))  # the stamps written from the workers' outputs


def test_a_step_failing_in_a_worker_raises_its_own_error_and_leaves_no_stamp(repo):
    repo(
        "broken",
        "from pipeline.errors import ParseError\n\n\ndef step(io):\n    raise ParseError('src', 'col', 'bad')\n",
    )
    graph_ = [demo("a", writes=["a.txt"]), Step("b", "demo", "stepdemo.broken", writes=("b.txt",))]
    with pytest.raises(ParseError, match="src: col: bad") as raised:
        runner.run(graph_, Context(None, jobs=2))
    assert (raised.value.source, raised.value.field) == ("src", "col")  # the error whole, for the CLI's one line
    assert not runner.stamp_path("b").exists()


def test_a_run_with_nothing_to_do_starts_no_workers(repo, monkeypatch):
    graph_ = [demo("a", writes=["a.txt"]), demo("b", writes=["b.txt"])]
    assert all(r.ran for r in runner.run(graph_, Context(None, jobs=2)))
    monkeypatch.setattr(runner, "parallel", lambda: pytest.fail("a no-op run imported the process pool"))
    assert not any(r.ran for r in runner.run(graph_, Context(None, jobs=2)))


def test_the_critical_path_is_the_chain_of_dependent_steps_that_takes_longest():
    graph_ = [
        demo("a", writes=["a.txt"]),
        demo("b", writes=["b.txt"]),
        demo("c", reads=["a.txt", "b.txt"], writes=["c.txt"]),
        demo("d", reads=["b.txt"], writes=["d.txt"]),
    ]
    assert runner.critical_path(graph_, {"a": 1.0, "b": 2.0, "c": 0.5, "d": 0.25}) == 2.5  # b, then c
    assert runner.critical_path(graph_, {"a": 3.0, "b": 2.0, "c": 0.5, "d": 2.0}) == 4.0  # b, then d
    assert runner.critical_path(graph_, {}) == 0.0


def test_a_step_touches_only_what_it_declares(repo):
    io = StepIO(demo("a", reads=["in.txt"], writes=["a.txt"]), Context(None))
    assert io.path("a.txt").name == "a.txt"
    with pytest.raises(ValueError, match="does not declare 'b.txt'"):
        io.path("b.txt")
    with pytest.raises(ValueError, match="does not declare source 'factbook'"):
        io.source("factbook")


def test_check_refuses_a_read_no_step_writes_and_an_output_written_twice():
    with pytest.raises(ValueError, match="no step writes what these read"):
        runner.check([demo("a", reads=["nowhere.txt"], writes=["a.txt"])])
    with pytest.raises(ValueError, match="declared twice"):
        runner.check([demo("a", writes=["a.txt"]), demo("b", writes=["a.txt"])])


def test_the_build_graph_is_consistent_and_names_real_files_sources_and_modules():
    declared = graph.steps()
    runner.check(declared)  # every read is written by an earlier step, no output twice, no cycle
    assert {s.stage for s in declared} == set(graph.STAGES)
    sums = runner.Checksums()
    for step in declared:
        assert sums.source_file(step.module) is not None, step.name
        assert all(sums.source_file(m) is not None for m in step.code), step.name
        assert all(runner.repo_files([pattern]) for pattern in step.files), step.name
        assert all((paths.SOURCES_DIR / f"{s}.toml").is_file() for s in step.sources), step.name
        source = sums.source_file(step.module)
        assert source is not None and "def step(io" in source.read_text(), step.name
    built = {f"deck-{name}" for name, game in graph.games.registered().items() if game.in_build}
    assert {s.name for s in declared if s.stage == "decks"} == built


def test_code_is_found_from_imports_not_listed_by_hand():
    sums = runner.Checksums()
    towns = sums.code(["pipeline.transform.towns"])
    countries = sums.code(["pipeline.transform.countries"])
    assert (
        "pipeline/transform/parsers/destatis.py" in towns and "pipeline/transform/parsers/destatis.py" not in countries
    )
    assert "pipeline/transform/towns.py" not in countries  # an edit to the towns parser leaves the countries alone
    assert "pipeline/build/runner.py" not in towns  # the runner is not a step's code


def test_decks_are_steps_rebuilt_only_when_their_own_inputs_change(tmp_path, monkeypatch):
    monkeypatch.setenv("GEODECK_BUILD", str(tmp_path / "build"))
    monkeypatch.setattr(paths, "OUTPUT_DIR", tmp_path / "output")
    monkeypatch.setattr(paths, "DECKS_DIR", tmp_path / "output" / "decks")
    write_inputs(tmp_path / "build")
    first = build(Context(None), ["decks"])
    assert all(r.ran and r.note.startswith("published") for r in first)
    assert not any(r.ran for r in build(Context(None), ["decks"]))
    places = places_table()
    places.loc[places.index[0], "population"] += 1
    places.to_parquet(tmp_path / "build" / "geo" / "places.parquet")
    assert {r.step for r in build(Context(None), ["decks"]) if r.ran} == {"deck-deutschland"}


def test_declared_repo_files_are_the_ones_the_steps_read():
    from pipeline.games.deutschland import places
    from pipeline.geo import grid
    from pipeline.validate import card_names, countries

    declared = {step.name: set(runner.repo_files(step.files)) for step in graph.steps()}
    reviewed = {card_names.CAPITALS_DE, card_names.PEAK_NAMES, card_names.PEAK_NAMES_DE}
    assert declared["validate-countries"] == {countries.OVERRIDES, *reviewed}
    assert declared["geo-places"] == {grid.CONTROL_POINTS, places.PLACES_CONFIG}


def test_a_game_kept_in_the_tests_builds_through_its_own_step_and_deck_step(tmp_path, monkeypatch):
    from fixtures import toygame

    monkeypatch.setattr(graph.games, "_REGISTRY", dict(graph.games.registered()))
    graph.games.register(toygame.GAME)
    monkeypatch.setenv("GEODECK_BUILD", str(tmp_path / "build"))
    monkeypatch.setattr(paths, "OUTPUT_DIR", tmp_path / "output")
    monkeypatch.setattr(paths, "DECKS_DIR", tmp_path / "output" / "decks")
    declared = graph.steps()
    runner.check(declared)
    toy = {s.name: s for s in declared}["deck-toy-game"]
    assert "tests/fixtures/toygame/deck.py" in runner.Checksums().code([toy.module, *toy.code])
    built = build(Context(None), ["toy-table", "deck-toy-game"])
    assert [(r.step, r.ran) for r in built] == [("toy-table", True), ("deck-toy-game", True)]
    assert built[1].note.startswith("published") and (tmp_path / "output" / "decks" / "toy-game" / "LATEST").is_file()
    assert not any(r.ran for r in build(Context(None), ["toy-table", "deck-toy-game"]))
