"""Who is asking: a session per browser (a random cookie), each with its own CSRF token, language and draft
folder under output/studio/ (named by a hash of the session, never by a request value), and the access token a
studio on a network asks for once (then kept in the session's cookie)."""

import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path

from pipeline import paths
from pipeline.i18n import registry

COOKIE = "geodeck_studio"
IDLE_S = 8 * 3600  # a session unused this long is forgotten (its draft folder stays until the studio ends)
MAX_SESSIONS = 1_000  # the oldest session is forgotten beyond this


@dataclass
class Session:
    key: str
    csrf: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    lang: str = field(default_factory=registry.source)
    admitted: bool = False  # gave the access token (or none is needed)
    seen: float = field(default_factory=time.monotonic)

    @property
    def folder(self) -> Path:
        """This session's drafts: output/studio/<hash of the session key>/ (read at call time)."""
        return paths.OUTPUT_DIR / "studio" / hashlib.sha256(self.key.encode()).hexdigest()[:24]

    def valid(self, token: str | None) -> bool:
        """Whether a form's CSRF token is this session's."""
        return token is not None and hmac.compare_digest(token.encode(), self.csrf.encode())


class Sessions:
    def __init__(self, access_token: str | None):
        self.access_token = access_token
        self.known: dict[str, Session] = {}

    def get(self, key: str | None) -> Session:
        """The session of the cookie `key`, or a new one (an unknown or expired key is never reused)."""
        now = time.monotonic()
        for old in [k for k, s in self.known.items() if now - s.seen > IDLE_S]:
            del self.known[old]
        session = self.known.get(key or "")
        if session is None:
            if len(self.known) >= MAX_SESSIONS:
                del self.known[min(self.known, key=lambda k: self.known[k].seen)]
            session = Session(secrets.token_urlsafe(32), admitted=self.access_token is None)
            self.known[session.key] = session
        session.seen = now
        return session

    def admit(self, session: Session, token: str | None) -> bool:
        """Whether the session may use the studio: admitted before, or `token` is the access token now."""
        if not session.admitted and token is not None and self.access_token is not None:
            session.admitted = hmac.compare_digest(token.encode(), self.access_token.encode())
        return session.admitted
