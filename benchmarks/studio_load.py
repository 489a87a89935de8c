"""The studio under load (issue 46's speed): a page, one card preview after a change, and STUDIO_USERS
sessions previewing at once on loopback, against a studio served in this process (uvicorn in a thread) with
the bench's scratch folder as its output (the published decks read where they are)."""

import os
import statistics
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

STUDIO_USERS = 30
TABLE = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "recipes" / "german-states.csv"
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from studio.pages import STATES as FORM  # noqa: E402  # the make-a-deck form of the German states, written once


def served(scratch: Path) -> tuple[str, object, object]:
    """The studio on a free loopback port, its output in `scratch`, its worker processes started; (address,
    server, the studio)."""
    import socket

    import uvicorn

    from pipeline import paths
    from pipeline.studio import app

    paths.OUTPUT_DIR, paths.PRINT_DIR = scratch / "output", scratch / "output" / "print"
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    application = app.create(warm=True)
    server = uvicorn.Server(uvicorn.Config(application, host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return f"http://127.0.0.1:{port}", server, application.app.state.studio  # type: ignore[attr-defined]


def drafted(address: str) -> tuple[httpx.Client, str]:
    """A session with the German states' draft, previewed once; (its client, its CSRF token)."""
    session = httpx.Client(base_url=address, timeout=120)
    page = session.get("/make").text
    token = page.split('name="csrf" value="', 1)[1].split('"', 1)[0]
    answer = session.post("/make", data={**FORM, "csrf": token}, files={"items.table": ("t.csv", TABLE.read_bytes())})
    if "data:image/png" not in answer.text:
        sys.exit("studio: the German states' draft shows no preview")
    return session, token


def changed(session: httpx.Client, token: str, n: int) -> float:
    """Seconds until a changed draft's preview is back (its title changed to one of its own: `n`, never a draft
    seen before, so that no preview is drawn once for several)."""
    start = time.perf_counter()
    answer = session.post("/make", data={**FORM, "csrf": token, "recipe.title": f"Bundesländer toppen! {n}"})
    if "data:image/png" not in answer.text:
        sys.exit("studio: a changed draft shows no preview")
    return time.perf_counter() - start


def workers_cpu(studio) -> float:
    """CPU seconds the studio's worker processes have used (/proc/PID/stat: utime, stime)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for process in (studio.pool._processes or {}).values():  # its own pool: no public list of its processes
        fields = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / ticks


def measured(scratch: Path) -> dict[str, tuple[float, float | None]]:
    """{figure: (seconds, CPU seconds or None)}: a page's median; one preview's median, with the workers' CPU
    seconds per preview; the slowest of STUDIO_USERS previewing at once, with the CPU seconds per preview of the
    workers and of this process (the server and the users' clients) together."""
    address, server, studio = served(scratch)
    try:
        one, token = drafted(address)
        pages = []
        for _ in range(5):
            for page in ("/", "/games/laender-toppen", "/make"):
                start = time.perf_counter()
                one.get(page).raise_for_status()
                pages.append(time.perf_counter() - start)
        before = workers_cpu(studio)
        previews = [changed(one, token, n) for n in range(5)]
        alone = (workers_cpu(studio) - before) / len(previews)
        with ThreadPoolExecutor(STUDIO_USERS) as pool:
            users = list(pool.map(lambda _n: drafted(address), range(STUDIO_USERS)))
            before, here = workers_cpu(studio), time.process_time()
            at_once = list(pool.map(lambda n: changed(users[n][0], users[n][1], 100 + n), range(STUDIO_USERS)))
            each = (workers_cpu(studio) - before + time.process_time() - here) / STUDIO_USERS
    finally:
        server.should_exit = True  # type: ignore[attr-defined]
    return {
        "studio_page": (statistics.median(pages), None),
        "studio_preview": (statistics.median(previews), alone),
        f"studio_{STUDIO_USERS}_previews": (max(at_once), each),
    }
