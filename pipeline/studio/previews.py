"""The make-a-deck form's live preview under load (issue 46: 30 users previewing at once on 2 cores, no request
over 2 s). A change of the form is checked and its first card drawn in a warm worker process (`tasks.draft`);
around it:

- one at a time per session, in order, so that a session's draft folder is never written by two workers;
- a change superseded by a newer one of the same session before its turn costs nothing: it answers with the
  newest change's outcome (the page only shows the newest; the browser has abandoned the older request);
- at most `slots` changes in the worker pool at once, the others waiting in turn (first come, first served),
  so that a burst is served fairly rather than every request slowing down behind the pool's queue;
- the faces drawn are kept by the content that determines them (`drafts.digest`: the form's values and the
  table's bytes, the same for every session), so that a draft seen before, by anyone, is only checked again.
  A session's own folder never enters the key, and only images are shared: its problems are its own.
"""

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.studio import drafts

Faces = tuple[bytes, bytes]
KEPT = 256  # drafts' faces kept (about 30 kB each)


@dataclass
class Outcome:
    checked: drafts.Checked
    faces: Faces | None = None


@dataclass
class _Turn:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one change at a time, in order
    ended: asyncio.Condition = field(default_factory=asyncio.Condition)  # a change was checked
    newest: int = 0  # the number of the session's newest change
    done: int = 0  # the number of the change last checked
    last: "Outcome | BaseException | None" = None  # its outcome


class Previews:
    def __init__(self, run: Callable[..., Awaitable], slots: int):
        """`run(task, *args)`: a task in the worker pool; `slots`: changes in the pool at once (its workers)."""
        self.run = run
        self.slots = asyncio.Semaphore(slots)
        self.kept: OrderedDict[str, Faces] = OrderedDict()  # digest -> faces
        self.turns: dict[str, _Turn] = {}  # session -> its turn
        self.shown: dict[str, Faces] = {}  # session -> the faces of its draft as last checked

    async def change(self, session: str, folder: Path, save: Callable[[], None], lang: str) -> Outcome:
        """Save a session's change (`save`), check it and draw its first card; a change superseded before its
        turn answers with the outcome of a newer one."""
        turn = self.turns.setdefault(session, _Turn())
        turn.newest += 1
        mine = turn.newest
        async with turn.lock:
            save()  # every change saved, in order (a superseded one's upload is kept: the newer may carry none)
            if mine == turn.newest:
                result: Outcome | BaseException
                try:
                    result = await self._checked(session, folder, lang)
                except BaseException as exc:  # said to the superseded too; a cancelled check ends them
                    result = exc
                turn.done, turn.last = mine, result
                async with turn.ended:
                    turn.ended.notify_all()
        async with turn.ended:
            await turn.ended.wait_for(lambda: turn.done >= mine)
        if isinstance(turn.last, BaseException):
            raise turn.last
        assert turn.last is not None
        return turn.last

    async def _checked(self, session: str, folder: Path, lang: str) -> Outcome:
        from pipeline.studio import tasks

        digest = drafts.digest(folder)
        known = self.kept.get(digest)
        async with self.slots:
            checked, faces = await self.run(tasks.draft, folder, known is None, lang)
        faces = faces or (known if checked.ok else None)
        self.shown.pop(session, None)
        if faces is not None:
            self.shown[session] = faces
            self.kept[digest] = faces
            self.kept.move_to_end(digest)
            while len(self.kept) > KEPT:
                self.kept.popitem(last=False)
        return Outcome(checked, faces)
