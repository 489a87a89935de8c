"""`--scheduler ADDRESS` fails fast: before a Dask client connects (which waits without end on a server that
accepts and never answers, and reads an HTTP or a trickling server's bytes as frame lengths), `check` opens a
plain TCP connection with a deadline and reads the handshake a Dask scheduler sends first, unasked: its
length, one msgpack frame naming its compression, Python and pickle protocol. Anything else is one line
naming the address, what it did and the fix."""

import socket
import struct
import time

import msgpack

from pipeline.errors import GeodeckError

DEADLINE_S = 10.0  # connect and the whole handshake, however the server trickles it
MAX_HANDSHAKE = 64 * 1024  # a scheduler's handshake is ~60 bytes
KEYS = {"compression", "python", "pickle-protocol"}  # what a Dask handshake names (distributed.comm.core)
FIX = "give the address `dask scheduler` prints (tcp://HOST:8786, not its dashboard's :8787), or drop --scheduler"


def check(address: str, deadline_s: float | None = None) -> None:
    """Refuse `address` unless a Dask scheduler answers there within `deadline_s` (default DEADLINE_S);
    a scheme other than tcp:// (tls://, ws://, inproc://) is left to Dask's own connect."""
    scheme, _, rest = address.rpartition("://")
    if scheme not in ("", "tcp"):
        return
    host, _, port = rest.rpartition(":") if ":" in rest.rsplit("]", 1)[-1] else (rest, "", "8786")  # Dask's port
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise GeodeckError(f"--scheduler {address[:200]}: not an address like tcp://HOST:PORT; {FIX}")
    wait = DEADLINE_S if deadline_s is None else deadline_s
    end = time.monotonic() + wait
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=wait) as connection:
            size = struct.unpack("Q", _read(connection, 8, end, address, wait))[0]
            if not 16 <= size <= MAX_HANDSHAKE:
                raise _not_dask(address, "its first bytes are no Dask handshake", wait)
            message = _message(_read(connection, size, end, address, wait))
    except (OSError, UnicodeError) as exc:  # refused, unreachable, timed out; a host name IDNA refuses
        reason = getattr(exc, "strerror", None) or exc
        raise GeodeckError(
            f"cannot reach the Dask scheduler at {address[:200]} ({reason}); start one with `dask scheduler` and "
            "workers with `dask worker ADDRESS`, or drop --scheduler"
        ) from exc
    if not (isinstance(message, dict) and set(message) >= KEYS):
        raise _not_dask(address, "it answered, but not with a Dask handshake", wait)


def _read(connection: socket.socket, count: int, end: float, address: str, wait: float) -> bytes:
    """`count` bytes before the monotonic time `end`, however slowly they come."""
    data = b""
    while len(data) < count:
        left = end - time.monotonic()
        if left <= 0:
            raise _not_dask(address, f"it sent {'nothing' if not data else 'too little'} in time", wait)
        connection.settimeout(left)
        try:
            chunk = connection.recv(count - len(data))
        except TimeoutError:
            continue
        if not chunk:
            raise _not_dask(address, "it closed the connection", wait)
        data += chunk
    return data


def _message(body: bytes) -> object:
    """The first frame of a Dask message `body` (a frame count, the frames' lengths, the frames), unpacked;
    None when `body` is no such message."""
    try:
        (count,) = struct.unpack_from("Q", body)
        if not 1 <= count <= 16:
            return None
        lengths = struct.unpack_from(f"{count}Q", body, 8)
        start = 8 * (1 + count)
        if start + sum(lengths) != len(body):
            return None
        return msgpack.unpackb(body[start : start + lengths[0]])
    except (struct.error, ValueError, TypeError, msgpack.UnpackException):
        return None


def _not_dask(address: str, what: str, wait: float) -> GeodeckError:
    return GeodeckError(f"no Dask scheduler answers at {address[:200]}: {what} (waited at most {wait:g} s); {FIX}")
