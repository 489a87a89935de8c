"""The make-a-deck form's previews under load (pipeline/studio/previews.py): a draft's first card drawn once
per content, whoever asks; a session's changes superseded before their turn cost nothing and answer with the
newest. The real task (`tasks.draft`) runs in a thread here, not in the studio's worker processes."""

import asyncio

from pipeline.studio import drafts, previews, tasks
from studio.pages import STATES, table_bytes


class Counted:
    """`tasks.draft` run in a thread, the cards it was asked to draw counted."""

    def __init__(self) -> None:
        self.drawn = 0

    async def __call__(self, task, folder, draw: bool, lang: str):
        self.drawn += draw
        return await asyncio.to_thread(task, tasks.Where.here(), folder, draw, lang)


def test_a_draft_is_drawn_once_whoever_asks_and_only_the_newest_change_is_checked(workshop):
    run = Counted()
    own, other = workshop / "output" / "studio" / "own", workshop / "output" / "studio" / "other"

    def saved(folder, title: str, upload: bytes | None = None):
        return lambda: drafts.save(folder, {**STATES, "recipe.title": title}, upload)

    async def changes():
        shown = previews.Previews(run, slots=2)
        first = await shown.change("own", own, saved(own, "A", table_bytes()), "en")
        same = await shown.change("other", other, saved(other, "A", table_bytes()), "en")  # another session, same draft
        burst = await asyncio.gather(*(shown.change("own", own, saved(own, title), "en") for title in ("B", "C", "D")))
        return shown, first, same, burst

    shown, first, same, burst = asyncio.run(changes())
    assert first.checked.ok and first.faces is not None and same.faces == first.faces
    assert drafts.digest(own) != drafts.digest(other)  # the title differs now
    # B starts at once; C is superseded by D before its turn: D's outcome answers all three, C costs nothing
    assert [b.faces for b in burst[1:]] == [burst[2].faces] * 2 and burst[2].faces != first.faces
    assert run.drawn == 3  # A, B and D: A once for both sessions, C never
    assert drafts.values(own)["recipe.title"] == "D" and shown.shown["own"] == burst[2].faces
    assert shown.shown["other"] == first.faces  # the other session's own preview, untouched
