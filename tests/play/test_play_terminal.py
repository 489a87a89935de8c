"""`geodeck play` in a real terminal (tmux): a hot-seat hand-over leaves nothing of the last player's table on
the screen or in the terminal's scrollback (issue 35: the screen was cleared, the scrollback was not)."""

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pipeline.games import registry as games
from pipeline.i18n import registry as languages

TMUX = shutil.which("tmux")
pytestmark = pytest.mark.skipif(
    TMUX is None, reason="tmux is not installed (apt-get install tmux): the scrollback is read from a tmux pane"
)
CHECKOUT = Path(__file__).resolve().parents[2]


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


@pytest.mark.mirror
def test_a_flag_is_drawn_as_a_picture_never_as_letters(store):
    """Issue 35: the flag challenge showed regional-indicator letters ("DE": the answer where a terminal has
    no flag emoji); now the setter's flag is drawn from its SVG as coloured half blocks."""
    import io

    from rich.console import Console

    from pipeline.decks import published
    from pipeline.games.world_game import engine, terminal
    from pipeline.play import pictures
    from pipeline.play.view import View
    from pipeline.render import layouts

    screen = io.StringIO()
    console = Console(force_terminal=True, color_system="truecolor", file=screen, width=120)
    draw = pictures.drawer(console, lambda: store)
    assert draw is not None and pictures.drawer(Console(file=io.StringIO()), lambda: store) is None
    _, deck = published.deck(games.get("world-game"))
    germany = next(i for i, c in enumerate(deck["cards"]) if c["fields"]["iso3"] == "DEU")
    game = engine.Game.from_deck(deck, players=2, challenges=["flag"])
    others = [i for i in range(len(deck["cards"])) if i != germany]
    state = game.initial_state([*others[:20], germany, *others[20:]])  # player 1's top card: Germany
    state.apply_action(engine.CALL)  # player 0 calls, player 1 sets (the flag: the only challenge in play)
    view = View(
        languages.language("en"),
        ("P1", "P2"),
        {c["id"]: c["fields"] for c in deck["cards"]},
        layouts.load(games.get("world-game")),
        draw,
    )
    assert terminal.refused(game, view) is None
    console.print(terminal.board(state, 0, view))
    shown = screen.getvalue()
    assert "Which country has this flag?" in shown and pictures.UPPER_HALF * 32 in shown
    assert not any(0x1F1E6 <= ord(c) <= 0x1F1FF for c in shown)  # no regional-indicator letters
    assert "DE" not in shown.replace("\x1b", " ") and "Germany" not in shown
    black, red, gold = "48;2;0;0;1", "48;2;255;0;0", "48;2;255;204;0"  # flag-icons' de.svg, rasterised
    assert shown.index(black) < shown.index(red) < shown.index(gold)
