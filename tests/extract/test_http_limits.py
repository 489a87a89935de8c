"""Downloads within their limits, against a local HTTP server on 127.0.0.1 (limits shrunk so each test takes
about a second): Retry-After capped (seconds and HTTP dates), deadlines per file and per run, a minimum
rate, a size cap, streaming without holding the body in memory, timeouts reported as timeouts."""

import hashlib
import io
import socket
import threading
import time
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import suppress
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from pipeline.errors import SnapshotError
from pipeline.extract import SourceFile, http, open_store

FAST = http.Limits(connect_s=1, read_s=0.5, file_s=5, run_s=10, wait_s=0.3, min_rate=1000, rate_window_s=0.4)

Handler = Callable[[BaseHTTPRequestHandler, int], None]  # (request handler, how many requests came before)


@pytest.fixture
def serve() -> Iterator[Callable[[Handler], str]]:
    """serve(handler) -> the URL of a local server answering every GET with `handler`."""
    servers = []

    def start(handler: Handler) -> str:
        hits = [0]

        class Answer(BaseHTTPRequestHandler):
            def do_GET(self):
                hits[0] += 1
                with suppress(BrokenPipeError, ConnectionResetError):  # the client gave up, as it should
                    handler(self, hits[0] - 1)

            def log_message(self, *args):
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Answer)
        server.daemon_threads = True
        threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        ).start()  # a quick shutdown
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}/file"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def ok(request: BaseHTTPRequestHandler, body: bytes = b"finally\n", length: bool = True) -> None:
    request.send_response(200)
    request.send_header("Content-Type", "text/plain")
    if length:
        request.send_header("Content-Length", str(len(body)))
    request.end_headers()
    request.wfile.write(body)


def busy(retry_after: str) -> Handler:
    """429 with `retry_after` on the first request, then the file."""

    def handler(request, before):
        if before:
            return ok(request)
        request.send_response(429)
        request.send_header("Retry-After", retry_after)
        request.send_header("Content-Length", "0")
        request.end_headers()

    return handler


def get(url: str, limits: http.Limits = FAST, **options) -> bytes:
    return http.download(http.session(None, http.HostRateLimit(0), limits), url, "demo", **options)


@pytest.mark.parametrize("years", [None, 80], ids=["seconds", "a date in 80 years"])
def test_a_retry_after_beyond_the_budget_fails_at_once_saying_so(serve, years):
    """`Retry-After: 99999999`, or a date in 80 years: more than a file may wait (it waited 374 s before);
    the date is made when the test runs, so the test's id stays the same on every xdist worker."""
    retry_after = "99999999" if years is None else formatdate(time.time() + years * 365 * 86400, usegmt=True)
    started = time.monotonic()
    with pytest.raises(SnapshotError, match=r"asks to wait \d+ s before retrying, more than the 0.3 s a file may"):
        get(serve(busy(retry_after)))
    assert time.monotonic() - started < 1


def test_the_waits_of_one_file_share_one_budget(serve):
    """Answers asking 1 s each, 1.5 s to wait in all: the first wait is honoured, the second is refused."""
    url = serve(lambda request, before: busy("1")(request, 0))
    started = time.monotonic()
    with pytest.raises(SnapshotError, match="asks to wait 1 s before retrying, more than the 1.5 s a file may"):
        get(url, http.Limits(wait_s=1.5, read_s=1))
    assert 1 <= time.monotonic() - started < 1.5


def test_no_wait_past_the_files_deadline(serve):
    url = serve(busy("2"))
    limits = http.Limits(wait_s=120, file_s=1, read_s=1)
    started = time.monotonic()
    with pytest.raises(SnapshotError, match="asks to wait 2 s before retrying, past the download's deadline"):
        get(url, limits)
    assert time.monotonic() - started < 1


def trickle(request, before):
    """A 100 kB body, 10 bytes every 50 ms (200 bytes/s)."""
    request.send_response(200)
    request.send_header("Content-Length", "100000")
    request.end_headers()
    for _ in range(10000):
        request.wfile.write(b"x" * 10)
        request.wfile.flush()
        time.sleep(0.05)


def test_a_trickle_is_aborted(serve):
    url = serve(trickle)
    started = time.monotonic()
    with pytest.raises(SnapshotError, match=r"too slow: \d+ bytes/s, below the minimum of 1,000 bytes/s"):
        get(url)
    assert time.monotonic() - started < 2


def test_a_trickle_fast_enough_meets_the_files_deadline(serve):
    url = serve(trickle)
    limits = http.Limits(min_rate=1, rate_window_s=0.2, file_s=0.8, read_s=1)
    with pytest.raises(SnapshotError, match="not complete within the deadline"):
        get(url, limits)


def test_the_runs_deadline_covers_every_download(serve):
    url = serve(lambda request, before: ok(request))
    session = http.session(None, http.HostRateLimit(0), http.Limits(run_s=0.5))
    assert http.download(session, url, "demo") == b"finally\n"
    time.sleep(0.6)
    with pytest.raises(SnapshotError, match="the run's deadline of 0.5 s has passed"):
        http.download(session, url, "demo")


@pytest.mark.parametrize("length", [True, False])
def test_a_body_over_the_cap_is_refused(serve, length):
    """Announced (Content-Length) or not (read until the cap), a body over `max_bytes` is refused."""
    url = serve(lambda request, before: ok(request, b"y" * 5000, length))
    with pytest.raises(SnapshotError, match="more than the 4,000 bytes allowed"):
        get(url, max_bytes=4000)


def test_a_large_download_streams_without_holding_the_body(serve):
    """20 MB go through a 64 kB buffer: Python's peak allocation stays far below the body's size."""
    body = bytes(range(256)) * (20 * 4096)
    url = serve(lambda request, before: ok(request, body))
    session = http.session(None, http.HostRateLimit(0), FAST)
    sink = io.BufferedWriter(io.FileIO("/dev/null", "w"))
    tracemalloc.start()
    try:
        got = http.download_to(session, sink, url, "demo")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert (got.sha256, got.bytes) == (hashlib.sha256(body).hexdigest(), len(body))
    assert peak < 2_000_000, peak


def silent(request, before):
    time.sleep(2)


def test_the_silence_limit_holds_across_retries(serve):
    """A server that accepts and never answers: one silence of read_s, not one per retry (251 s for 60 s)."""
    started = time.monotonic()
    with pytest.raises(SnapshotError, match=r"silent for 0.3 s"):
        get(serve(silent), http.Limits(read_s=0.3, retries=3, backoff_s=0.2))
    assert time.monotonic() - started < 0.6


def redirect(to: str) -> Handler:
    def handler(request, before):
        request.send_response(302)
        request.send_header("Location", to)
        request.send_header("Content-Length", "0")
        request.end_headers()

    return handler


def test_a_refused_connection_after_a_redirect_is_reported_as_refused(serve):
    with socket.socket() as probe:  # a port on which nothing listens
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(SnapshotError, match=f"the connection to 127.0.0.1:{port} was refused") as error:
        get(serve(redirect(f"http://127.0.0.1:{port}/moved")), http.Limits(backoff_s=0.01))
    assert "timed out" not in str(error.value)


def test_redirects_stay_on_the_pinned_host_unless_declared(serve):
    other = serve(lambda request, before: ok(request)).replace("127.0.0.1", "localhost")
    url = serve(redirect(other))
    with pytest.raises(SnapshotError, match="redirected to another host, localhost .allowed: 127.0.0.1."):
        get(url)
    assert get(url, hosts=("localhost",)) == b"finally\n"


def test_a_read_timeout_is_reported_as_a_timeout(serve):
    url = serve(silent)
    with pytest.raises(SnapshotError, match=r"timed out waiting for the server \(silent for 0.3 s\)") as error:
        get(url, http.Limits(read_s=0.3, retries=0))
    assert "offline" not in str(error.value)


def test_a_stall_in_the_body_is_reported_as_a_timeout(serve):
    def stall(request, before):
        request.send_response(200)
        request.send_header("Content-Length", "1000")
        request.end_headers()
        request.wfile.write(b"z" * 100)
        request.wfile.flush()
        time.sleep(2)

    with pytest.raises(SnapshotError, match="timed out reading the body"):
        get(serve(stall), http.Limits(read_s=0.3, retries=0))


def test_a_pinned_download_is_capped_at_the_pins_size(serve, tmp_path):
    """`fetch` downloads at most the pinned bytes: a larger answer is cut off and nothing is stored."""
    url = serve(lambda request, before: ok(request, b"w" * 10_000, length=False))
    entry = SourceFile("demo", "f.txt", "0" * 64, 100, url)
    store = open_store(mirror=None, online=True, root=tmp_path / "store")
    with pytest.raises(SnapshotError, match="more than the 100 bytes allowed"):
        store.read(entry)
    assert not any(p.is_file() for p in (tmp_path / "store").rglob("*"))


def test_no_backoff_past_the_files_deadline(serve):
    """A 503 without Retry-After: the backoff before the next retry would pass the deadline, so none. The
    deadline (10 s) leaves a loaded machine time for the first answers; the backoff (40 s, within the 120 s
    a file may wait) passes it however fast they come."""

    def unavailable(request, before):
        request.send_response(503)
        request.send_header("Content-Length", "0")
        request.end_headers()

    limits = http.Limits(backoff_s=20, file_s=10, read_s=10)
    with pytest.raises(SnapshotError, match=r"the next retry is due in 40 s before retrying, past the"):
        get(serve(unavailable), limits)
