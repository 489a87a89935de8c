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
