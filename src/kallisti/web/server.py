"""Run the app of `kallisti serve` with uvicorn on a local address, and say where it is.

uvicorn closes a connection idle after an answer (KEEP_ALIVE_SECONDS), but waits for ever for the first bytes of a
request, and for the rest of its headers once one byte came. Its h11 protocol is given here a deadline of its own:
a connection has HEADER_SECONDS, from its opening or from the end of the answer before, to send a request's line
and headers whole, or it is closed. h11 holds at most MAX_HEADER_BYTES of them while they arrive (more is answered
400 `bad-http`), and the app refuses more than that once they are whole (431, kallisti.web.guard). The body then has
BODY_SECONDS (kallisti.web.api).
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable
from urllib.parse import quote

HOST = "127.0.0.1"  # only this computer can reach the server
KEEP_ALIVE_SECONDS = 5  # a connection idle after an answer is closed after this
HEADER_SECONDS = 10  # a request's line and headers arrive whole within this, or the connection is closed


def bind(port: int, host: str = HOST) -> socket.socket:
    """A listening socket on host:port (port 0: a free one); OSError when the port is taken."""
    # IPPROTO_TCP said outright: asyncio sets TCP_NODELAY only on the connections of a socket whose protocol is
    # TCP, and without it every answer waits ~40 ms for the browser's delayed ACK.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def address(sock: socket.socket, game: str | None = None) -> str:
    """`http://127.0.0.1:8000/`, with `?game=NAME` when a game is to be opened first."""
    host, port = sock.getsockname()[:2]
    return f"http://{host}:{port}/" + (f"?game={quote(game, safe='')}" if game else "")


def make_server(app, sock: socket.socket):
    """A uvicorn Server for `app` (its `run(sockets=[sock])` serves until Ctrl-C or `should_exit`)."""
    import uvicorn

    from kallisti.web.guard import MAX_HEADER_BYTES

    config = uvicorn.Config(app, http=protocol(), ws="none", timeout_keep_alive=KEEP_ALIVE_SECONDS,
                            h11_max_incomplete_event_size=MAX_HEADER_BYTES, log_level="warning", access_log=False,
                            lifespan="off", server_header=False)
    return uvicorn.Server(config)


def protocol():
    """uvicorn's h11 protocol, with the HEADER_SECONDS deadline, and its own 400 answer in JSON, marked as every
    answer of the app is (kallisti.web.guard)."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    from kallisti.web.guard import HEADERS, MAX_HEADER_BYTES, error_body

    class Protocol(H11Protocol):
        _deadline = None

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            self._await_request()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.cycle is not None and not self.cycle.response_complete:
                self._stop()  # a request is being answered: its body has BODY_SECONDS, read by the app

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and (self.cycle is None or self.cycle.response_complete):
                self._await_request()

        def connection_lost(self, exc) -> None:
            self._stop()
            super().connection_lost(exc)

        def _await_request(self) -> None:
            self._stop()
            self._deadline = self.loop.call_later(HEADER_SECONDS, self._too_slow)

        def _stop(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            if not self.transport.is_closing() and (self.cycle is None or self.cycle.response_complete):
                self.transport.close()

        def send_400_response(self, msg: str) -> None:
            body = error_body("bad-http", f"the request is not HTTP this server reads ({msg.rstrip('.')}); its "
                              f"line and headers are at most {MAX_HEADER_BYTES:,} bytes")
            headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                       (b"connection", b"close"), (b"cache-control", b"no-store"), *HEADERS]
            for event in (h11.Response(status_code=400, headers=headers, reason=b"Bad Request"), h11.Data(data=body),
                          h11.EndOfMessage()):
                self.transport.write(self.conn.send(event))
            self.transport.close()

    return Protocol


def serve(app, port: int, game: str | None = None, echo: Callable[[str], None] = print) -> None:
    """Serve `app` on 127.0.0.1:port until Ctrl-C, after printing the address (OSError if the port is taken)."""
    sock = bind(port)
    state = getattr(app, "state", None)
    games = getattr(state, "games", None)
    if games is not None:  # list the games while the address is read: the first page then opens at once
        threading.Thread(target=games.listing, name="kallisti-warm-up", daemon=True).start()
    echo(f"kallisti: serving on {address(sock, game)}  (Ctrl-C stops)")
    sessions = getattr(state, "sessions", None)
    if sessions is not None and sessions.folder is None:
        from kallisti.web.api import default_saves

        sessions.folder = default_saves()
        echo(f"kallisti: a game closed to make room for others is saved in {sessions.folder}, "
             "and comes back when played")
    server = make_server(app, sock)
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
