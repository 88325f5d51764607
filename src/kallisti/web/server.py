"""Run the app of `kallisti serve` with uvicorn on a local address, and say where it is."""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable
from urllib.parse import quote

HOST = "127.0.0.1"  # only this computer can reach the server


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

    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off", server_header=False)
    return uvicorn.Server(config)


def serve(app, port: int, game: str | None = None, echo: Callable[[str], None] = print) -> None:
    """Serve `app` on 127.0.0.1:port until Ctrl-C, after printing the address (OSError if the port is taken)."""
    sock = bind(port)
    games = getattr(getattr(app, "state", None), "games", None)
    if games is not None:  # list the games while the address is read: the first page then opens at once
        threading.Thread(target=games.listing, name="kallisti-warm-up", daemon=True).start()
    echo(f"kallisti: serving on {address(sock, game)}  (Ctrl-C stops)")
    server = make_server(app, sock)
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
