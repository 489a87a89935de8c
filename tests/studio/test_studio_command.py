"""`geodeck studio` serves on loopback without a token, and on another address prints the token it asks for."""

import os
import re
import socket
import subprocess
import sys
import time

import httpx

from pipeline import paths


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def started(*options: str) -> tuple[subprocess.Popen, list[str]]:
    """`geodeck studio --no-browser OPTIONS` and the lines it printed up to its address."""
    command = [sys.executable, "-m", "pipeline.cli", "studio", "--no-browser", *options]
    env = {**os.environ, "PYTHONPATH": str(paths.CODE)}
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    lines: list[str] = []
    while process.stdout and (line := process.stdout.readline()):
        lines.append(line.strip())
        if "geodeck studio at" in line:
            break
    return process, lines


def answer(url: str) -> int:
    end = time.monotonic() + 30
    while True:
        try:
            return httpx.get(url, timeout=5).status_code
        except httpx.ConnectError:
            if time.monotonic() > end:
                raise
            time.sleep(0.2)


def test_on_loopback_no_token_off_it_the_printed_one():
    port = free_port()
    process, lines = started("--port", str(port))
    try:
        assert lines[-1] == f"geodeck studio at http://127.0.0.1:{port}/ (Ctrl-C ends it)"
        assert answer(f"http://127.0.0.1:{port}/") == 200
    finally:
        process.terminate()
        process.wait(30)
    port = free_port()
    process, lines = started("--host", "0.0.0.0", "--port", str(port))
    try:
        found = re.fullmatch(r"access token: (\S+) \(.*\)", lines[0])
        assert found, lines
        token = found.group(1)
        assert lines[-1].startswith(f"geodeck studio at http://127.0.0.1:{port}/?token={token} ")
        assert answer(f"http://127.0.0.1:{port}/") == 403
        assert answer(f"http://127.0.0.1:{port}/?token={token}") == 200
    finally:
        process.terminate()
        process.wait(30)
