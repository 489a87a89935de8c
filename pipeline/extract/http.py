"""The one HTTP session for downloads: a user agent naming the project, timeouts, urllib3 retries with
backoff that honour Retry-After up to a cap (429, 5xx), a per-host rate limit, and conditional requests
(ETag / Last-Modified) whose 304 answers are served from the snapshot store.

Every download streams to a file handle while hashing, within `Limits`: a size cap, a minimum rate, and
deadlines per file and per run (the session's life); any failure is one SnapshotError line.
"""

import contextvars
import hashlib
import io
import json
import threading
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import BinaryIO
from urllib.parse import urlsplit

import requests
import urllib3
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

from pipeline import __version__, atomic, hashing, readers
from pipeline.errors import SnapshotError
from pipeline.paths import MIRROR_HINT

USER_AGENT = f"geodeck/{__version__} (print-and-play geography card games)"
MAX_REDIRECTS = 5
MIN_INTERVAL_S = 0.25  # per host: at most four requests a second
CHUNK = 1 << 16


@dataclass(frozen=True)
class Limits:
    """What one download and one run may take."""

    connect_s: float = 10  # to open a connection
    read_s: float = 60  # of silence from the server
    file_s: float = 900  # per file, retries and waits included
    run_s: float = 3600  # per run (one session), all files together
    wait_s: float = 120  # per file: the waits before retries (Retry-After and backoff) together
    min_rate: int = 10_000  # bytes per second, over every window of
    rate_window_s: float = 30
    max_bytes: int = 1 << 30  # a file without a pinned size (a refresh): the stated maximum, 1 GiB
    retries: int = 3
    backoff_s: float = 1.5


LIMITS = Limits()


@dataclass
class _Budget:
    """The current download's deadline, the seconds it may still wait before retries, and the hosts a
    redirect may lead to."""

    deadline: float
    wait_left: float
    hosts: frozenset[str]


_BUDGET: contextvars.ContextVar[_Budget | None] = contextvars.ContextVar("budget", default=None)


class _Failure(Exception):
    """Why a download failed, in a few words."""


class BudgetedRetry(Retry):
    """urllib3's retry, waiting (Retry-After or backoff) only within the current download's budget: a wait
    longer than what is left of `Limits.wait_s`, or past the file's deadline, fails at once, saying so.
    A silent server is not asked again (read=0): the silence limit holds for the whole download."""

    def __init__(self, *args, budget_s: float = LIMITS.wait_s, **kwargs):
        super().__init__(*args, **kwargs)
        self.budget_s = budget_s

    def new(self, **kwargs):
        return super().new(budget_s=self.budget_s, **kwargs)

    def sleep(self, response=None):
        wait = (self.get_retry_after(response) if response and self.respect_retry_after_header else None) or 0
        pause, budget = max(wait, self.get_backoff_time()), _BUDGET.get()
        asked = f"the server asks to wait {wait:g} s" if wait else f"the next retry is due in {pause:g} s"
        if budget is not None and pause > budget.wait_left:
            raise _Failure(f"{asked} before retrying, more than the {self.budget_s:g} s a file may wait for retries")
        if budget is not None and time.monotonic() + pause > budget.deadline:
            raise _Failure(f"{asked} before retrying, past the download's deadline")
        if budget is not None:
            budget.wait_left -= pause
        time.sleep(pause)


class HostRateLimit:
    """Waits so that two requests to one host start at least `interval` seconds apart."""

    def __init__(self, interval: float = MIN_INTERVAL_S, clock=time.monotonic, sleep=time.sleep):
        self.interval, self.clock, self.sleep = interval, clock, sleep
        self.last: dict[str, float] = {}
        self.lock = threading.Lock()

    def wait(self, url: str) -> None:
        host = urlsplit(url).hostname or ""
        with self.lock:
            now = self.clock()
            due = self.last.get(host, now - self.interval) + self.interval
            if due > now:
                self.sleep(due - now)
            self.last[host] = max(now, due)


class RateLimitedAdapter(HTTPAdapter):
    """The retrying adapter, waiting for the host's rate limit before each request goes out."""

    def __init__(self, rate_limit: HostRateLimit, limits: Limits):
        retry = BudgetedRetry(
            total=limits.retries,
            read=0,
            backoff_factor=limits.backoff_s,
            status_forcelist=(429, 500, 502, 503, 504),
            allowed_methods=("GET", "HEAD"),
            respect_retry_after_header=True,
            raise_on_status=False,
            budget_s=limits.wait_s,
        )
        super().__init__(max_retries=retry)
        self.rate_limit = rate_limit

    def send(self, request, stream=False, timeout=None, verify=True, cert=None, proxies=None):
        self.rate_limit.wait(request.url or "")
        return super().send(request, stream=stream, timeout=timeout, verify=verify, cert=cert, proxies=proxies)


class Session(requests.Session):
    """A requests session with the adapter above, its `limits`, the run's deadline (from its creation),
    and optionally the validators of earlier downloads (`cache`: a JSON file) with `stored(sha256)`, the
    path of a body kept in the store, for conditional requests."""

    def __init__(
        self,
        cache: Path | None = None,
        rate_limit: HostRateLimit | None = None,
        limits: Limits = LIMITS,
        stored: Callable[[str], Path | None] = lambda _digest: None,
    ):
        super().__init__()
        self.max_redirects = MAX_REDIRECTS
        self.headers["User-Agent"] = USER_AGENT
        adapter = RateLimitedAdapter(rate_limit or HostRateLimit(), limits)
        self.mount("https://", adapter)
        self.mount("http://", adapter)
        self.limits, self.run_deadline = limits, time.monotonic() + limits.run_s
        self.cache, self.stored = cache, stored
        self.validators: dict[str, dict] = _read_validators(cache)

    def get_redirect_target(self, resp):
        """Where a redirect leads, if it stays on the hosts the current download may use (its URL's host and
        those its source declares)."""
        target = super().get_redirect_target(resp)
        budget = _BUDGET.get()
        if target is not None and budget is not None:
            host = urlsplit(requests.compat.urljoin(resp.url, target)).hostname or ""
            if host not in budget.hosts:
                raise _Failure(f"redirected to another host, {host[:80]} (allowed: {', '.join(sorted(budget.hosts))})")
        return target

    def save_validators(self) -> None:
        """Keep the validators of this run's downloads for the next one's conditional requests."""
        if self.cache is not None:
            with suppress(OSError, atomic.OutputError):  # optional: the next refresh asks unconditionally
                atomic.write_text(self.cache, json.dumps(self.validators, indent=1, sort_keys=True))


def _read_validators(cache: Path | None) -> dict[str, dict]:
    """The validators kept by the last refresh; none when the cache is absent or damaged (one warning)."""
    return (readers.read_cache("http-cache", cache) if cache is not None else None) or {}


def session(
    cache: Path | None = None,
    rate_limit: HostRateLimit | None = None,
    limits: Limits = LIMITS,
    stored: Callable[[str], Path | None] = lambda _digest: None,
) -> Session:
    """The download session (see `Session`)."""
    return Session(cache, rate_limit, limits, stored)


MIRROR_FIX = f"try again later, or {MIRROR_HINT}"
REFRESH_FIX = "a refresh needs the upstream server: try again when online, or later"


@dataclass(frozen=True)
class Downloaded:
    sha256: str
    bytes: int


def download_to(
    session: Session,
    sink: BinaryIO,
    url: str,
    where: str,
    max_bytes: int | None = None,
    allowed: tuple[str, ...] = (),
    refused: tuple[str, ...] = (),
    fix: str = MIRROR_FIX,
    hosts: tuple[str, ...] = (),
) -> Downloaded:
    """Stream the body of a GET of `url` into `sink`, hashing it: status 200 (or 304 with the stored body of
    the earlier answer), complete (its Content-Length), at most `max_bytes` (default: the stated maximum),
    of an `allowed` Content-Type (any when empty) and not a `refused` one, within the limits, redirected only
    to the URL's host or `hosts`; any failure is a SnapshotError naming `where`, the URL, the reason and `fix`."""
    limits = session.limits
    deadline = min(time.monotonic() + limits.file_s, session.run_deadline)
    token = _BUDGET.set(_Budget(deadline, limits.wait_s, frozenset({urlsplit(url).hostname or "", *hosts})))
    try:
        cap = limits.max_bytes if max_bytes is None else max_bytes
        return _get(session, sink, url, cap, allowed, refused, deadline)
    except _Failure as failure:
        raise SnapshotError(f"{where}: cannot download {url}: {failure}; nothing was changed ({fix})") from failure
    finally:
        _BUDGET.reset(token)


def download(session: Session, url: str, where: str, max_bytes: int = 1 << 24, **options) -> bytes:
    """A small body (an API answer) as bytes: `download_to` into memory, at most `max_bytes` (16 MiB)."""
    buffer = io.BytesIO()
    download_to(session, buffer, url, where, max_bytes, **options)
    return buffer.getvalue()


def _get(session, sink, url, max_bytes, allowed, refused, deadline) -> Downloaded:
    limits = session.limits
    if time.monotonic() >= deadline:
        raise _Failure(f"the run's deadline of {limits.run_s:g} s has passed")
    known = session.validators.get(url, {})
    body = session.stored(known["sha256"]) if isinstance(known.get("sha256"), str) else None
    conditions = (("If-None-Match", known.get("etag")), ("If-Modified-Since", known.get("modified")))
    headers = {k: v for k, v in conditions if isinstance(v, str)} if body is not None else {}
    try:
        response = session.get(url, timeout=(limits.connect_s, limits.read_s), stream=True, headers=headers)
    except requests.TooManyRedirects as exc:
        raise _Failure(f"more than {MAX_REDIRECTS} redirects (a redirect loop?)") from exc
    except requests.ConnectTimeout as exc:
        raise _Failure(f"timed out connecting ({limits.retries + 1} tries of {limits.connect_s:g} s)") from exc
    except requests.ReadTimeout as exc:
        raise _Failure(f"timed out waiting for the server (silent for {limits.read_s:g} s)") from exc
    except requests.ConnectionError as exc:
        if _timed_out(exc):
            raise _Failure(f"timed out waiting for the server (silent for {limits.read_s:g} s)") from exc
        if _caused_by(exc, ConnectionRefusedError):
            host = urlsplit(str(exc.request.url if exc.request else url)).netloc
            raise _Failure(f"the connection to {host[:80]} was refused") from exc
        raise _Failure(f"{type(exc).__name__}; you may be offline") from exc
    except requests.RequestException as exc:
        raise _Failure(f"{type(exc).__name__}: {exc}") from exc
    with response:
        if response.status_code == 304 and body is not None:
            return _copy_stored(body, sink, known["sha256"])
        if response.status_code != 200:
            retry_after = response.headers.get("Retry-After")
            hint = f", the server asks to retry after {retry_after[:40]} s" if retry_after else ""
            raise _Failure(f"HTTP {response.status_code} {response.reason}{hint}")
        kind = response.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if (allowed and kind not in allowed) or kind in refused:
            wanted = " or ".join(allowed) if allowed else f"not {' or '.join(refused)}"
            raise _Failure(f"content type {kind or 'none'}, expected {wanted}")
        expected = response.headers.get("Content-Length", "")
        encoded = "Content-Encoding" in response.headers
        if expected.isdigit() and not encoded and int(expected) > max_bytes:
            raise _Failure(f"more than the {max_bytes:,} bytes allowed ({int(expected):,} announced)")
        result = _stream(response, sink, max_bytes, deadline, limits)
        if expected.isdigit() and not encoded and int(expected) != result.bytes:
            raise _Failure(f"truncated body: {result.bytes} of {expected} bytes")
        validators = {"etag": response.headers.get("ETag"), "modified": response.headers.get("Last-Modified")}
        if any(validators.values()):
            session.validators[url] = {**validators, **asdict(result)}
        return result


def _stream(response, sink: BinaryIO, max_bytes: int, deadline: float, limits: Limits) -> Downloaded:
    """Copy the body into `sink` chunk by chunk, hashing; abort over `max_bytes`, past the deadline, or when a
    window of `rate_window_s` brings fewer than `min_rate` bytes a second."""
    digest, size = hashlib.sha256(), 0
    window_start, window_bytes = time.monotonic(), 0
    while chunk := _read(response, limits):
        size += len(chunk)
        if size > max_bytes:
            raise _Failure(f"more than the {max_bytes:,} bytes allowed")
        digest.update(chunk)
        sink.write(chunk)
        now, window_bytes = time.monotonic(), window_bytes + len(chunk)
        if now > deadline:
            raise _Failure(f"not complete within the deadline ({size:,} bytes so far)")
        if now - window_start >= limits.rate_window_s:
            if window_bytes < limits.min_rate * (now - window_start):
                rate = window_bytes / (now - window_start)
                raise _Failure(f"too slow: {rate:,.0f} bytes/s, below the minimum of {limits.min_rate:,} bytes/s")
            window_start, window_bytes = now, 0
    return Downloaded(digest.hexdigest(), size)


def _read(response: requests.Response, limits: Limits) -> bytes:
    """What has arrived of the body, up to CHUNK bytes (b"" at its end); waits at most `read_s`."""
    try:
        return response.raw.read1(CHUNK, decode_content=True) or b""
    except (requests.RequestException, urllib3.exceptions.HTTPError, OSError) as exc:
        if _timed_out(exc):
            raise _Failure(f"timed out reading the body (silent for {limits.read_s:g} s)") from exc
        raise _Failure(f"{type(exc).__name__} while reading the body") from exc


def _copy_stored(body: Path, sink: BinaryIO, expected: str) -> Downloaded:
    """304 Not Modified: the body of the earlier answer, from the store (checked against its sha256)."""
    try:
        handle = body.open("rb")
    except OSError as exc:
        raise _Failure(f"304 Not Modified, but the stored copy {body} cannot be read ({exc.strerror})") from exc
    with handle:
        digest, size = hashing.copy(handle, sink)
    if digest != expected:
        raise _Failure(f"304 Not Modified, but the stored copy {body} is corrupt")
    return Downloaded(expected, size)


def _timed_out(exc: BaseException) -> bool:
    """Whether a requests error was caused by a timeout: requests reports a read timeout after urllib3's
    retries, or one while the body streams, as a ConnectionError wrapping urllib3's error (urllib3 counts a
    refused connection, NewConnectionError, as a connect timeout: it is not one)."""
    timeouts = TimeoutError | urllib3.exceptions.TimeoutError | requests.Timeout
    return _caused_by(exc, timeouts, urllib3.exceptions.NewConnectionError)


def _caused_by(exc: BaseException, kinds, unless=()) -> bool:
    """Whether `exc` or an error it was raised from (cause, context, reason, argument) is one of `kinds`
    (and not one of `unless`)."""
    causes, seen = [exc], 0
    while causes and seen < 32:
        cause, seen = causes.pop(), seen + 1
        if isinstance(cause, kinds) and not isinstance(cause, unless):
            return True
        linked = (cause.__cause__, cause.__context__, getattr(cause, "reason", None), *cause.args)
        causes += [c for c in linked if isinstance(c, BaseException)]
    return False
