"""`--scheduler` fails fast (issue 49): a server that accepts and never answers, an HTTP server, a trickling
one and one that speaks another protocol are one line naming the address and the fix, within the deadline,
no traceback; a real Dask scheduler passes. The servers listen on 127.0.0.1, in threads that stop with the
test (and after 20 s whatever happens)."""

import http.server
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator

import pytest

from pipeline import scheduler
from pipeline.errors import GeodeckError

WAIT = 0.5  # the tests' deadline (the user's is scheduler.DEADLINE_S)


@pytest.fixture
def server() -> Iterator[Callable[[Callable[[socket.socket, threading.Event], None]], str]]:
    """`server(answer)`: a TCP server on 127.0.0.1 calling `answer(connection, stop)` for each connection;
    its address. Stopped when the test ends."""
    stop = threading.Event()
    sockets: list[socket.socket] = []
    servers: list[threading.Thread] = []

    def start(answer) -> str:
        listener = socket.create_server(("127.0.0.1", 0))
        listener.settimeout(0.1)
        sockets.append(listener)

        def serve() -> None:
            end = time.monotonic() + 20
            while not stop.is_set() and time.monotonic() < end:
                try:
                    connection, _ = listener.accept()
                except TimeoutError:
                    continue
                sockets.append(connection)
                threading.Thread(target=answer, args=(connection, stop), daemon=True).start()

        servers.append(threading.Thread(target=serve, daemon=True))
        servers[-1].start()
        return f"tcp://127.0.0.1:{listener.getsockname()[1]}"

    yield start
    stop.set()
    for thread in servers:
        thread.join()
    for each in sockets:
        each.close()


def silent(connection: socket.socket, stop: threading.Event) -> None:
    stop.wait(20)


def trickling(connection: socket.socket, stop: threading.Event) -> None:
    """A plausible handshake length, then a byte every 0.1 s."""
    connection.sendall(struct.pack("Q", 58))
    while not stop.wait(0.1):
        try:
            connection.sendall(b"\x01")
        except OSError:
            return


def ssh(connection: socket.socket, stop: threading.Event) -> None:
    connection.sendall(b"SSH-2.0-OpenSSH_9.6\r\n")
    stop.wait(20)


def refused(message: str, address: str) -> None:
    started = time.monotonic()
    with pytest.raises(GeodeckError) as caught:
        scheduler.check(address, WAIT)
    line = str(caught.value)
    assert time.monotonic() - started < WAIT + 1.5
    assert "\n" not in line and address in line and message in line and "tcp://HOST:8786" in line, line


@pytest.mark.parametrize(
    ("answer", "message"),
    [(silent, "it sent nothing in time"), (trickling, "it sent too little in time"), (ssh, "no Dask handshake")],
)
def test_a_server_that_is_no_dask_scheduler_is_one_line_within_the_deadline(server, answer, message):
    refused(message, server(answer))


def test_an_http_server_is_one_line_within_the_deadline():
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        refused("it sent nothing in time", f"tcp://127.0.0.1:{httpd.server_address[1]}")
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_a_silent_scheduler_is_one_line_from_play_check(geodeck, server, monkeypatch):
    monkeypatch.setattr(scheduler, "DEADLINE_S", WAIT)
    address = server(silent)
    code, output = geodeck(["play-check", "deutschland", "--games", "20", "--scheduler", address])
    assert (
        code == 2 and len(output.strip().splitlines()) == 1 and f"no Dask scheduler answers at {address}" in output
    ), output


def test_a_dask_scheduler_passes():
    from distributed import LocalCluster

    with LocalCluster(n_workers=0, processes=False, dashboard_address=None, protocol="tcp") as cluster:
        scheduler.check(cluster.scheduler_address, 5)
