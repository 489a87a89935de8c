"""`geodeck play` in a real terminal (tmux): a hot-seat hand-over leaves nothing of the last player's table on
the screen or in the terminal's scrollback (issue 35: the screen was cleared, the scrollback was not)."""

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

TMUX = shutil.which("tmux")
pytestmark = pytest.mark.skipif(
    TMUX is None, reason="tmux is not installed (apt-get install tmux): the scrollback is read from a tmux pane"
)
CHECKOUT = Path(__file__).resolve().parent.parent


class Pane:
    """A tmux server of its own (its socket in tmp_path) running one command in a 160 × 40 pane."""

    def __init__(self, socket: Path, command: list[str]):
        self.base = [str(TMUX), "-S", str(socket)]
        shell = " ".join(f"'{part}'" for part in command)
        self.tmux("new-session", "-d", "-x", "160", "-y", "40", f"cd '{CHECKOUT}' && {shell}; sleep 30")
        self.tmux("set-option", "-g", "history-limit", "10000")

    def tmux(self, *args: str) -> str:
        return subprocess.run([*self.base, *args], capture_output=True, text=True, check=True).stdout

    def everything(self) -> str:
        """The pane's scrollback and screen, as a player scrolling up would read them."""
        return self.tmux("capture-pane", "-p", "-J", "-S", "-", "-E", "-")

    def wait_for(self, text: str, seconds: float = 15) -> str:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            shown = self.tmux("capture-pane", "-p", "-J")
            if text in shown:
                return shown
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never appeared; the pane shows:\n{self.everything()}")

    def type(self, keys: str) -> None:
        self.tmux("send-keys", "-t", "0", "-l", keys)
        self.tmux("send-keys", "-t", "0", "Enter")

    def close(self) -> None:
        subprocess.run([*self.base, "kill-server"], capture_output=True)


def test_a_hot_seat_hand_over_leaves_nothing_in_the_scrollback(tmp_path):
    command = [sys.executable, "-c", "from pipeline.cli import cli; cli()", "play", "deutschland", "--seats"]
    command += ["human,human,human", "--variant", "face-down", "--seed", "1", "--lang", "en"]
    pane = Pane(tmp_path / "tmux.sock", [*command, "--record", str(tmp_path / "r.json")])
    try:
        pane.wait_for("Red's turn: take the screen")
        pane.type("")
        red = pane.wait_for("Move (1-")
        assert "Red's guess cards:" in red  # Red's hand is on the screen while Red moves
        pane.type("1")
        pane.wait_for("Blue's turn: take the screen")
        assert "guess cards:" not in pane.everything()  # nothing of it to scroll back to
        pane.type("")
        assert "Blue's guess cards:" in pane.wait_for("Move (1-")
        assert "Red's guess cards:" not in pane.everything()
    finally:
        pane.close()
