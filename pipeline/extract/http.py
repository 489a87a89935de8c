"""The one HTTP session for downloads: a user agent naming the project, timeouts, urllib3 retries with
backoff that honour Retry-After (429, 5xx), a per-host rate limit, and conditional requests through
requests-cache (ETag / Last-Modified revalidation, cache kept in the store)."""

import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import requests
import requests_cache
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

from pipeline import __version__
from pipeline.errors import SnapshotError
from pipeline.paths import MIRROR_HINT

USER_AGENT = f"geodeck/{__version__} (print-and-play geography card games)"
TIMEOUT_S = (10, 60)
RETRY = Retry(
    total=3,
    backoff_factor=1.5,
    status_forcelist=(429, 500, 502, 503, 504),
    allowed_methods=("GET", "HEAD"),
    respect_retry_after_header=True,
    raise_on_status=False,
)
MAX_REDIRECTS = 5
MIN_INTERVAL_S = 0.25  # per host: at most four requests a second


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

    def __init__(self, rate_limit: HostRateLimit):
        super().__init__(max_retries=RETRY)
        self.rate_limit = rate_limit

    def send(self, request, stream=False, timeout=None, verify=True, cert=None, proxies=None):
        self.rate_limit.wait(request.url or "")
        return super().send(request, stream=stream, timeout=timeout, verify=verify, cert=cert, proxies=proxies)


class Session(requests_cache.CachedSession):
    """requests-cache session: a response with a validator (ETag, Last-Modified) is kept but expires at once,
    so the next GET of that URL is a conditional request (304: the cached body); a response without one is
    not kept. Requests go through the rate-limited, retrying adapter."""

    def __init__(self, cache: Path | None, rate_limit: HostRateLimit | None = None):
        super().__init__(
            str(cache) if cache is not None else "geodeck",
            backend="sqlite" if cache is not None else "memory",
            expire_after=requests_cache.EXPIRE_IMMEDIATELY,
            allowable_codes=(200,),
        )
        self.max_redirects = MAX_REDIRECTS
        self.headers["User-Agent"] = USER_AGENT
        adapter = RateLimitedAdapter(rate_limit or HostRateLimit())
        self.mount("https://", adapter)
        self.mount("http://", adapter)


def session(cache: Path | None = None, rate_limit: HostRateLimit | None = None) -> requests.Session:
    """The download session; `cache`: the SQLite file that keeps validators for conditional requests."""
    return Session(cache, rate_limit)


MIRROR_FIX = f"try again later, or {MIRROR_HINT}"
REFRESH_FIX = "a refresh needs the upstream server: try again when online, or later"


class _Failure(Exception):
    """Why a download failed, in a few words."""


def download(
    session: requests.Session,
    url: str,
    where: str,
    allowed: tuple[str, ...] = (),
    refused: tuple[str, ...] = (),
    fix: str = MIRROR_FIX,
) -> bytes:
    """The body of a GET of `url`: status 200, complete (its Content-Length), of an `allowed` Content-Type
    (any when empty) and not a `refused` one; any failure is a SnapshotError naming `where`, the URL, the
    reason and `fix`."""
    try:
        return _get(session, url, allowed, refused)
    except _Failure as failure:
        raise SnapshotError(f"{where}: cannot download {url}: {failure}; nothing was changed ({fix})") from failure


def _get(session: requests.Session, url: str, allowed: tuple[str, ...], refused: tuple[str, ...]) -> bytes:
    try:
        response = session.get(url, timeout=TIMEOUT_S)
    except requests.TooManyRedirects as exc:
        raise _Failure(f"more than {MAX_REDIRECTS} redirects (a redirect loop?)") from exc
    except requests.Timeout as exc:
        raise _Failure(f"timed out after {TIMEOUT_S[1]} s") from exc
    except requests.RequestException as exc:
        raise _Failure(f"{type(exc).__name__}; you may be offline") from exc
    if response.status_code != 200:
        retry_after = response.headers.get("Retry-After")
        hint = f", the server asks to retry after {retry_after} s" if retry_after else ""
        raise _Failure(f"HTTP {response.status_code} {response.reason}{hint}")
    try:
        data = response.content
    except requests.RequestException as exc:
        raise _Failure(f"{type(exc).__name__} while reading the body") from exc
    expected = response.headers.get("Content-Length")
    if expected and expected.isdigit() and int(expected) != len(data) and "Content-Encoding" not in response.headers:
        raise _Failure(f"truncated body: {len(data)} of {expected} bytes")
    kind = response.headers.get("Content-Type", "").split(";")[0].strip().lower()
    if (allowed and kind not in allowed) or kind in refused:
        wanted = " or ".join(allowed) if allowed else f"not {' or '.join(refused)}"
        raise _Failure(f"content type {kind or 'none'}, expected {wanted}")
    return data
