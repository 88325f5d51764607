"""The ASGI middleware in front of `kallisti serve`: local Host names only, no request from another site's page, and
every answer, errors included, marked against sniffing, framing, referrers and scripts from elsewhere.

A page on another site can still make a browser send a request to 127.0.0.1 (a form posted as text/plain, a
fetch in `no-cors` mode); it cannot read the answer, but the request would act. So a request that changes
anything (every method but GET, HEAD and OPTIONS) and every request of the API is refused, 403 `cross-origin`,
when the browser says it comes from another origin: an `Origin` other than this server's own (`http://` and the
request's Host), or a `Sec-Fetch-Site` other than `same-origin` or `none` (typed in the address bar). A request
saying neither is a program's (curl, the tests): browsers send `Origin` with every cross-origin POST, PUT, PATCH
and DELETE, and the API grants no cross-origin access, so such a request cannot come from another site's page.
"""

from __future__ import annotations

import json
import logging

log = logging.getLogger("kallisti.web")

MAX_HEADER_BYTES = 16_384  # bytes of a request's line and headers (also h11's limit on them while they arrive)
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
SAME_SITE = frozenset({"same-origin", "none"})  # Sec-Fetch-Site values of the page's own requests, and of typing
# Content-Security-Policy of every answer: the page's scripts and styles are its own files (no inline script or
# style attribute), it talks only to its own origin, and no page may frame it. `data:` images: its empty favicon.
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
HEADERS = (
    (b"content-security-policy", CSP.encode("ascii")),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
)


def error_body(code: str, message: str) -> bytes:
    """The JSON of an error answer, `{"error": {"code", "message", "findings"}}` (docs/web.md)."""
    return json.dumps({"error": {"code": code, "message": message, "findings": []}}).encode("utf-8")


def host_name(host: str) -> str:
    """The name of a Host header without its port: `127.0.0.1:8000` -> `127.0.0.1`, `[::1]:8000` -> `::1`."""
    return host.rsplit("]", 1)[0].lstrip("[") if host.startswith("[") else host.split(":", 1)[0]


def _origin(url: str) -> str:
    """An origin or `http://` Host as compared: lower case, without the default port 80."""
    url = url.strip().lower()
    return url[:-3] if url.endswith(":80") else url


def cross_origin(headers: dict[bytes, str], host: str) -> str | None:
    """Why a request comes from another origin's page (None: it does not, or says nothing of where it comes from)."""
    site = headers.get(b"sec-fetch-site")
    if site is not None and site.strip().lower() not in SAME_SITE:
        return f"Sec-Fetch-Site is {site[:40]!r}"
    origin = headers.get(b"origin")
    if origin is not None and _origin(origin) != _origin("http://" + host):
        return f"its Origin {origin[:80]!r} is not this server's, http://{host[:80]}"
    return None


class Guard:
    """ASGI middleware: answer only requests whose Host is one of `hosts`, refuse cross-origin ones that act or ask
    the API, mark every answer with HEADERS, and answer a JSON 500 if anything behind it fails before answering."""

    def __init__(self, app, hosts: tuple[str, ...]):
        self.app, self.hosts = app, {h.lower() for h in hosts}
        self.state = app.state

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            if scope["type"] == "websocket":  # the server has none
                return await send({"type": "websocket.close", "code": 1008})
            return await self.app(scope, receive, send)
        started = False

        async def marked(message):
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                names = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in HEADERS if k not in names]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        headers: dict[bytes, str] = {}
        size = len(scope.get("raw_path") or b"") + len(scope.get("query_string") or b"") + 16
        for key, value in scope.get("headers", []):
            headers.setdefault(key.lower(), value.decode("latin-1"))
            size += len(key) + len(value) + 4
        host = headers.get(b"host", "")
        try:
            if size > MAX_HEADER_BYTES:
                return await refuse(marked, 431, "headers-too-large",
                                    f"a request's line and headers are at most {MAX_HEADER_BYTES:,} bytes")
            if host_name(host).lower() not in self.hosts:
                return await refuse(marked, 400, "bad-host",
                                    f"this server answers only on {', '.join(sorted(self.hosts))}")
            if scope["method"] not in SAFE_METHODS or scope["path"] == "/api" or scope["path"].startswith("/api/"):
                why = cross_origin(headers, host)
                if why is not None:
                    return await refuse(marked, 403, "cross-origin",
                                        f"refused: a request from another site's page ({why})")
            await self.app(scope, receive, marked)
        except Exception:
            log.exception("error in %s %s", scope.get("method"), scope.get("path"))
            if not started:
                await refuse(marked, 500, "server-error",
                             "the server failed to handle this request (a bug in kallisti)")


async def refuse(send, status: int, code: str, message: str) -> None:
    """Send a JSON error answer (not to be stored) through `send`."""
    body = error_body(code, message)
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"cache-control", b"no-store")]})
    await send({"type": "http.response.body", "body": body})
