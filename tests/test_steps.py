from pipeline import steps


def test_step_runs_once_for_same_inputs_and_again_when_they_change(tmp_path, monkeypatch):
    monkeypatch.setenv("GEODECK_BUILD", str(tmp_path))
    out = tmp_path / "out.txt"
    calls = []

    def make():
        calls.append(1)
        out.write_text("x")

    assert steps.run_step("demo", {"a": "1"}, ["extract"], [out], make)
    assert not steps.run_step("demo", {"a": "1"}, ["extract"], [out], make)
    assert steps.run_step("demo", {"a": "2"}, ["extract"], [out], make)
    out.unlink()
    assert steps.run_step("demo", {"a": "2"}, ["extract"], [out], make)
    assert steps.run_step("demo", {"a": "2"}, ["extract"], [out], make, force=True)
    assert len(calls) == 4


def test_code_hash_changes_with_package_choice():
    assert steps.code_hash(["extract"]) != steps.code_hash(["transform", "extract"])


def test_step_reruns_when_its_code_changes_or_its_last_run_failed(tmp_path, monkeypatch):
    import pytest

    monkeypatch.setenv("GEODECK_BUILD", str(tmp_path / "build"))
    monkeypatch.setattr(steps, "ROOT", tmp_path)
    code = tmp_path / "pipeline" / "demo" / "step.py"
    code.parent.mkdir(parents=True)
    code.write_text("VALUE = 1\n")
    out = tmp_path / "out.txt"

    def make():
        out.write_text("x")

    def broken():
        raise RuntimeError("interrupted")

    assert steps.run_step("demo", {"a": "1"}, ["demo"], [out], make)
    code.write_text("VALUE = 2\n")
    assert steps.run_step("demo", {"a": "1"}, ["demo"], [out], make)  # same inputs, new code
    with pytest.raises(RuntimeError):
        steps.run_step("demo", {"a": "2"}, ["demo"], [out], broken)
    assert steps.run_step("demo", {"a": "2"}, ["demo"], [out], make)  # the failed run left no stamp
    assert not steps.run_step("demo", {"a": "2"}, ["demo"], [out], make)
