"""The Makefile's install as a newcomer sees it: one line per phase, pip's own output on a terminal and
--quiet in a log (run with stand-ins for python and pip, so no network and no real install)."""

import os
import pty
import shutil
import subprocess

import pytest

from pipeline.paths import ROOT


@pytest.fixture
def fake_venv(tmp_path):
    """A bin folder whose `pip` and `python` only say how they were called."""
    if shutil.which("make") is None:
        pytest.skip("make not found")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in ("pip", "python"):
        (bin_dir / name).write_text(f'#!/bin/sh\necho "{name} $*"\necho "{name} warnings: $PYTHONWARNINGS"\n')
        (bin_dir / name).chmod(0o755)
    return bin_dir


def install(bin_dir, terminal: bool) -> list[str]:
    """`make` of the install's first target (the venv, pip, geodeck), its output lines."""
    command = ["make", "--no-print-directory", "-C", str(ROOT), f"{bin_dir}/geodeck", f"BIN={bin_dir}"]
    command += [f"PYTHON={bin_dir}/python", f"VENV={bin_dir.parent}/venv"]
    if not terminal:
        return subprocess.run(command, capture_output=True, text=True, check=True).stdout.splitlines()
    main, child = pty.openpty()
    subprocess.run(command, stdout=child, stderr=child, check=True)
    os.close(child)
    output = b""
    while True:
        try:
            chunk = os.read(main, 4096)
        except OSError:  # the terminal closed
            break
        if not chunk:
            break
        output += chunk
    os.close(main)
    return output.decode().splitlines()


def test_install_says_each_phase_and_is_quiet_in_a_log(fake_venv):
    lines = install(fake_venv, terminal=False)
    assert [line.split(":")[0] for line in lines if line.startswith("install ")] == [
        "install 1/4",
        "install 2/4",
        "install 3/4",
    ]
    assert "pip install --quiet --upgrade pip setuptools" in lines
    assert "pip install --quiet -e .[test,bench]" in lines
    assert "pip warnings: ignore:Editable installation" in lines  # setuptools' 10-line notice, not shown
    assert (fake_venv / "geodeck").is_file()


def test_install_on_a_terminal_shows_pips_own_output(fake_venv):
    lines = [line.rstrip("\r") for line in install(fake_venv, terminal=True)]
    assert "pip install -e .[test,bench]" in lines and not any("--quiet" in line for line in lines)


def test_readme_reaches_geodeck_before_its_first_command():
    """After `make deck`, "Using geodeck" first puts .venv's geodeck on the PATH, where the Makefile installs it."""
    using = (ROOT / "README.md").read_text(encoding="utf-8").split("## Using geodeck", 1)[1]
    commands = [line.strip() for line in using.splitlines() if line.startswith("    ")]
    venv = next(
        line.split(":=")[1].strip() for line in (ROOT / "Makefile").read_text().splitlines() if line.startswith("VENV")
    )
    assert commands[0].startswith(f". {venv}/bin/activate") and commands[1] == "geodeck --help"


def test_make_print_writes_every_games_kit_and_names_the_kits_last(tmp_path):
    """`make print` (the last step of `make deck`) writes each game's cards, accessories and kit, and its
    last lines name the kits, one a line (run with a stand-in geodeck that says how it was called)."""
    if shutil.which("make") is None:
        pytest.skip("make not found")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    scripts = {
        "python": "#!/bin/sh\n",
        "geodeck": '#!/bin/sh\n[ "$1" = games ] && { echo "alpha beta"; exit 0; }\n'
        'echo "wrote $*:" >&2\necho "out/$2$3.pdf"\n',  # as geodeck: what on stderr, the path alone on stdout
    }
    for name, script in scripts.items():
        (bin_dir / name).write_text(script)
        (bin_dir / name).chmod(0o755)
    command = ["make", "--no-print-directory", "-C", str(ROOT), "print", f"BIN={bin_dir}", f"PYTHON={bin_dir}/python"]
    done = subprocess.run([*command, f"VENV={tmp_path}/venv"], capture_output=True, text=True, check=True)
    lines = (done.stderr + done.stdout).splitlines()
    assert "wrote print alpha --what all:" in lines and "wrote print beta --kit:" in lines
    assert lines[-3:] == ["PDFs in output/print/; the kits to print:", "out/alpha--kit.pdf", "out/beta--kit.pdf"]


@pytest.mark.parametrize(("built_in_fails", "status"), [(False, 0), (True, 2)])
def test_play_check_fails_for_a_built_in_game_and_lists_local_regions_apart(tmp_path, built_in_fails, status):
    """`make play-check` with a stand-in geodeck: the built-in game `good` (or `bad`, which fails) and the local
    region region-chl, whose deck fails its check."""
    if shutil.which("make") is None:
        pytest.skip("make not found")
    bin_dir, venv = tmp_path / "bin", tmp_path / "venv"
    bin_dir.mkdir()
    built_in = "bad" if built_in_fails else "good"
    (bin_dir / "geodeck").write_text(
        "#!/bin/sh\n"
        f'case "$*" in *"--which built-in"*) echo {built_in};; *"--which local"*) echo region-chl;;\n'
        '  "play-check good"*) exit 0;; "play-check "*) exit 1;; *) exit 9;; esac\n'
    )
    (bin_dir / "geodeck").chmod(0o755)
    (venv / "mypyc").mkdir(parents=True)
    (venv / "mypyc" / "compiled").write_text("")
    command = ["make", "--no-print-directory", "-C", str(ROOT), "play-check", f"BIN={bin_dir}", f"VENV={venv}"]
    result = subprocess.run(command, capture_output=True, text=True)
    assert result.returncode == status, result.stdout + result.stderr
    assert "region-chl (local region): fails (exit 1): not counted" in result.stdout
    assert ("bad: play-check failed (exit 1)" in result.stdout) == built_in_fails


@pytest.mark.parametrize("stray", [False, True])
def test_make_test_fails_when_a_test_leaves_a_file_under_output(tmp_path, stray):
    """`make test` in a checkout (a git work tree with an ignored output/print/ already holding a kit): a test
    run that writes a new file under output/ fails the target and names the file; one that does not passes."""
    if shutil.which("make") is None or shutil.which("git") is None:
        pytest.skip("make or git not found")
    checkout, bin_dir, venv = tmp_path / "checkout", tmp_path / "bin", tmp_path / "venv"
    (checkout / "output" / "print").mkdir(parents=True)
    (checkout / ".gitignore").write_text("output/print/\n")
    (checkout / "output" / "print" / "old-kit.pdf").write_text("built before\n")
    (checkout / "pyproject.toml").write_text("")
    subprocess.run(["git", "init", "-q", str(checkout)], check=True)
    bin_dir.mkdir()
    writes = 'case "$*" in *"-n 2"*) touch output/print/stray.pdf;; esac\n' if stray else ""  # the tests, not lint's
    for name, script in {
        "pytest": f"#!/bin/sh\n{writes}echo '3 passed'\n",
        "ruff": "",
        "mypy": "",
        "python": "",
    }.items():
        (bin_dir / name).write_text(f"#!/bin/sh\n{script}" if not script.startswith("#!") else script)
        (bin_dir / name).chmod(0o755)
    (bin_dir / "geodeck").write_text("#!/bin/sh\n")
    (bin_dir / "geodeck").chmod(0o755)
    (venv / "mypyc").mkdir(parents=True)
    (venv / "mypyc" / "compiled").write_text("")
    command = ["make", "--no-print-directory", "-C", str(checkout), "-f", str(ROOT / "Makefile"), "test"]
    result = subprocess.run(
        [*command, f"BIN={bin_dir}", f"VENV={venv}", f"PYTHON={bin_dir}/python"], capture_output=True, text=True
    )
    assert (result.returncode != 0) == stray, result.stdout + result.stderr
    assert ("!! output/print/stray.pdf" in result.stdout) == stray
    assert "old-kit.pdf" not in result.stdout
