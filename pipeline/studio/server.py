"""`geodeck studio`: serve the studio with uvicorn, on loopback by default (only this computer reaches it);
on another address (a classroom network) every browser gives the access token printed at start once."""

import ipaddress
import secrets
import threading
import webbrowser
from collections.abc import Callable


def loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def address(host: str, port: int, token: str | None) -> str:
    """The address to open: with the access token where one is needed."""
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/" + (f"?token={token}" if token else "")


def run(host: str, port: int, open_browser: bool, say: Callable[[str], None]) -> None:
    """Serve until Ctrl-C; say the address (and token) first, and open it in the browser if asked."""
    import uvicorn

    from pipeline.studio import app

    token = None if loopback(host) else secrets.token_urlsafe(24)
    url = address("127.0.0.1" if host in ("0.0.0.0", "::") else host, port, token)
    if token:
        say(f"access token: {token} (each browser gives it once: open the address below)")
    say(f"geodeck studio at {url} (Ctrl-C ends it)")
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    uvicorn.run(app.create(token, warm=True), host=host, port=port, log_level="warning")
