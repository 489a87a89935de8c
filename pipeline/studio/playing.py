"""A game played in the browser: `geodeck play`'s own loop (pipeline/play/loop.py: the same engines, bots,
words and record) in a thread of its own, its table written to a screen the page shows and its questions
answered from the page. Clearing the screen (the hot seat's hand-over between two humans) starts it afresh,
so the page never shows the last human's hand to the next."""

import io
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console

from pipeline.errors import GeodeckError
from pipeline.framework.definition import GameDefinition
from pipeline.i18n.language import Language

WIDTH = 110  # the screen's columns
SHOWN_LINES = 120  # the screen's newest lines the page shows (`h` asks the loop for the whole history)
LEAVE = "q"  # the loop's answer for leaving the game
ABANDONED_S = 1800  # a game its page has not shown this long is left when another starts (its record kept)


class Screen(Console):
    """A console writing plain text the page shows, and the cards it draws as pictures; `clear` starts both
    again (the hot seat's hand-over hides them)."""

    def __init__(self) -> None:
        super().__init__(file=io.StringIO(), width=WIDTH, color_system=None, force_terminal=False, highlight=False)
        self.cards: list[tuple[str, list[tuple[str, str]]]] = []  # (heading, [(card id, name)]) as the loop gave

    def clear(self, home: bool = True) -> None:
        self.file = io.StringIO()
        self.cards = []

    def show(self, cards: list[tuple[str, list[tuple[str, str]]]]) -> None:
        self.cards = cards

    @property
    def text(self) -> str:
        """The newest `SHOWN_LINES` lines written since the screen was last cleared."""
        file = self.file
        return "\n".join((file.getvalue() if isinstance(file, io.StringIO) else "").split("\n")[-SHOWN_LINES:])


@dataclass(frozen=True)
class Settings:
    definition: GameDefinition  # at the published version played (its own templates)
    version: str
    deck: dict
    seats: list[str]  # human, bot:<level>
    lang: Language
    seed: int
    record: Path


class Table:
    """One game: started at once, waiting for the page's answer whenever the loop asks a human."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.screen = Screen()
        self.prompt = ""
        self.asked = 0  # questions asked so far
        self.ended = False
        self.finished = False  # played to its end (not left)
        self.error = ""
        self.changed = threading.Condition()
        self._answer: str | None = None
        self.seen = time.monotonic()  # when its page last showed it
        threading.Thread(target=self._run, daemon=True, name=f"play-{settings.seed}").start()

    def answer(self, text: str, wait_s: float = 30.0) -> None:
        """Give the loop the answer to its question, then wait until it asks again or the game ends."""
        with self.changed:
            if self.ended or self._answer is not None:
                return
            asked = self.asked
            self._answer = text
            self.changed.notify_all()
            self.changed.wait_for(lambda: self.ended or self.asked > asked, wait_s)

    def settle(self, wait_s: float = 30.0) -> None:
        """Wait until the loop asks its first question (or the game ends)."""
        with self.changed:
            self.changed.wait_for(lambda: self.ended or self.asked > 0, wait_s)

    @property
    def text(self) -> str:
        """The screen, the record named by its file alone (the page does not show the server's folders)."""
        return self.screen.text.replace(str(self.settings.record), self.settings.record.name)

    @property
    def idle_s(self) -> float:
        return time.monotonic() - self.seen

    def leave(self) -> None:
        self.answer(LEAVE, wait_s=5.0)

    def _ask(self, prompt: str) -> str:
        with self.changed:
            self.prompt, self._answer = prompt, None
            self.asked += 1
            self.changed.notify_all()
            self.changed.wait_for(lambda: self._answer is not None)
            answer, self._answer, self.prompt = self._answer or "", None, ""
            return answer

    def _run(self) -> None:
        from pipeline.play import loop

        chosen = self.settings
        try:
            _record, self.finished = loop.play(
                chosen.definition,
                chosen.deck,
                chosen.seats,
                chosen.lang,
                chosen.seed,
                chosen.record,
                self.screen,
                ask=self._ask,
                cards=self.screen.show,
            )
        except GeodeckError as exc:  # the game refused (a human's game without pictures …): its one line
            self.error = str(exc)
        finally:
            with self.changed:
                self.ended = True
                self.changed.notify_all()
