"""The JSON API of `kallisti serve` (docs/web.md) as a Starlette app, and the page's static files.

Routes read JSON, call a `Session` (kallisti.web.session) and answer JSON; every error is
`{"error": {"code", "message", "findings"}}`, never a traceback. Sessions are kept by `kallisti.web.store`: at
most MAX_SESSIONS in memory, each played by one request at a time; one closed to make room is saved first and
comes back when next asked for. The engine's work is done in worker threads, so a long hint or rule check of one
session holds up neither the page's files nor any other session. `kallisti.web.guard` stands in front of it all.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from pathlib import Path
from urllib.parse import quote

import anyio
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from kallisti.errors import KallistiError
from kallisti.web.guard import CSP, Guard
from kallisti.web.session import BadRequest, Refused, Session, finding_dict, game_kind, game_players
from kallisti.web.store import Sessions, StoreError

MAX_SESSIONS = 64  # sessions kept in memory; making one more closes (saved) the one used least recently
MAX_SAVED_SESSIONS = 1_000  # sessions closed to make room kept in the save folder (a save is some 6 kB and up)
MAX_BODY_BYTES = 65_536  # bytes of a request body
BODY_SECONDS = 10  # a request's body arrives whole within this, or the request is refused (408)
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")  # the Host a request may name (no DNS rebinding onto the server)
STATIC = Path(__file__).parent / "static"

log = logging.getLogger("kallisti.web")

# A refusal (an illegal move, nothing to undo, a rule change refused, not this seat's turn) is an ordinary answer,
# HTTP 200 with `ok: false`: the request was understood and answered, and a browser logs no failed request for it.
REFUSAL_STATUS = 200
BAD_STATUS = {"bad-request": 400, "not-playable": 422}
STATUS_CODE = {400: "bad-request", 401: "not-found", 403: "not-found", 404: "not-found", 405: "method-not-allowed",
               408: "too-slow", 413: "too-large", 415: "not-json"}


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, findings: list[dict] | None = None):
        super().__init__(message)
        self.status, self.code, self.message, self.findings = status, code, message, findings or []


def error_response(status: int, code: str, message: str, found: list[dict] | None = None, **extra) -> JSONResponse:
    """`{"error": {"code", "message", "findings"}}`, after the fields of `extra` (those of a refusal). A message may
    quote what was sent (a game's name, a pile's tag): its control characters are shown by name (kallisti.unsafe)."""
    from kallisti.unsafe import visible

    message = visible(message)
    extra = {key: visible(value) if isinstance(value, str) else value for key, value in extra.items()}
    return JSONResponse({**extra, "error": {"code": code, "message": message, "findings": found or []}},
                        status_code=status, headers={"Cache-Control": "no-store"})


def ok(data: dict, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers={"Cache-Control": "no-store"})


# The shipped games' compiled rulesets and their entries in the list, shared by every app of the process (they
# never change while it runs, and loading all of them takes seconds). Each is loaded once, under its own lock: a
# request for one game waits only while that game is loaded.
_shipped_rules: dict[str, object] = {}
_shipped_entries: dict[str, dict] = {}
_loading: dict[str, threading.Lock] = {}
_loading_lock = threading.Lock()


def _entry(name: str, rules) -> dict:
    kind = game_kind(rules)
    return {"name": name, "title": rules.name, "kind": kind, "players": game_players(rules), "playable": kind != "table",
            "description": " ".join(rules.description.split())}


class Games:
    """The games a session may open: the shipped ones, and the GAME or FILE given to `serve` (never a file a request names)."""

    def __init__(self, extra: tuple[str, object] | None = None):
        from kallisti.model.loader import shipped_games

        self.shipped = shipped_games()
        self.extra = extra  # (name, Ruleset)
        self.default = extra[0] if extra is not None else None

    def names(self) -> list[str]:
        names = list(self.shipped)
        if self.extra is not None and self.extra[0] not in self.shipped:
            names.append(self.extra[0])
        return names

    def rules(self, name: str):
        from kallisti.model.ruleset import load_ruleset

        if self.extra is not None and name == self.extra[0]:
            return self.extra[1]
        if name not in self.shipped:
            raise ApiError(404, "unknown-game", f"no game '{name}'; GET /api/games lists them")
        rules = _shipped_rules.get(name)
        if rules is None:
            with _loading_lock:
                lock = _loading.setdefault(name, threading.Lock())
            with lock:
                if name not in _shipped_rules:
                    _shipped_rules[name] = load_ruleset(self.shipped[name])
                rules = _shipped_rules[name]
        return rules

    def listing(self) -> list[dict]:
        """Every game's entry in `GET /api/games`."""
        out = []
        for name in self.names():
            if self.extra is not None and name == self.extra[0]:
                out.append(_entry(name, self.extra[1]))
                continue
            if name not in _shipped_entries:
                _shipped_entries[name] = _entry(name, self.rules(name))
            out.append(_shipped_entries[name])
        return out


async def read_body(request: Request) -> dict:
    """The request's JSON object ({} for an empty body), read no further than MAX_BODY_BYTES bytes."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isascii() or not length.isdigit() or int(length) > MAX_BODY_BYTES):
        raise ApiError(413, "too-large", f"a request body is at most {MAX_BODY_BYTES:,} bytes")
    body = bytearray()
    try:
        with anyio.fail_after(BODY_SECONDS):
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_BODY_BYTES:
                    raise ApiError(413, "too-large", f"a request body is at most {MAX_BODY_BYTES:,} bytes")
    except TimeoutError:
        raise ApiError(408, "too-slow", f"the request's body did not arrive within {BODY_SECONDS} seconds") from None
    if not body.strip():
        return {}
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise ApiError(415, "not-json", "send the body as JSON, with Content-Type: application/json")
    try:
        data = json.loads(bytes(body).decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise ApiError(400, "bad-json", f"the body is not JSON: {str(exc)[:200]}") from None
    if not isinstance(data, dict):
        raise ApiError(400, "bad-json", "the body is a JSON object, e.g. {\"text\": \"t3 f1\"}")
    return data


def create_app(extra: tuple[str, object] | None = None, *, static: Path | None = STATIC,
               hosts: tuple[str, ...] = LOCAL_HOSTS, cap: int = MAX_SESSIONS, saves: Path | None = None,
               saved_cap: int = MAX_SAVED_SESSIONS) -> Guard:
    """The app. `extra`: (name, Ruleset) of the GAME or FILE given to `serve`; `hosts`: the Host names answered;
    `saves`: the folder of the sessions closed to make room (None: a temporary folder, made when first needed;
    `kallisti serve` gives `default_saves()`)."""
    games = Games(extra)
    sessions = Sessions(cap, saved_cap, saves)
    summaries: dict[str, dict] = {}  # the games' goals and rule summaries (kallisti.web.summary), made once each

    def endpoint(fn):
        """Run `fn(request, body)` and turn every exception into the JSON error it means."""
        async def handle(request: Request):
            try:
                body = await read_body(request) if request.method in ("POST", "PUT", "PATCH") else {}
                return await fn(request, body)
            except (ApiError, StoreError) as exc:
                return error_response(exc.status, exc.code, exc.message, getattr(exc, "findings", None))
            except BadRequest as exc:
                return error_response(BAD_STATUS.get(exc.code, 400), exc.code, exc.message)
            except Exception:  # a bug: said so, without a traceback to the page (it goes to the server's log)
                log.exception("error in %s %s", request.method, request.url.path)
                return error_response(500, "server-error", "the server failed to handle this request (a bug in kallisti)")
        return handle

    def on_session(action, data: bool = False):
        """An endpoint acting on one session: `action(session, body)` in a worker thread, holding that session alone.
        Its answer is an action's (`ok`, the state, `said`, `bot`, and what the action adds), or with `data`, only
        what `action` returns."""
        async def run(request: Request, body: dict):
            async with sessions.using(request.path_params["sid"]) as session:
                return await run_in_threadpool(act, session, body, action, data)
        return endpoint(run)

    def act(session: Session, body: dict, action, data: bool) -> JSONResponse:
        from kallisti.interpreter.compiler import RuleRuntimeError

        try:
            result = action(session, body)
        except Refused as exc:
            return error_response(REFUSAL_STATUS, exc.code, exc.message, exc.findings, ok=False,
                                  refused=exc.message, findings=exc.findings, state=session.state())
        except RuleRuntimeError as exc:
            message = f"a rule failed while the game was played: {exc}"
            return error_response(REFUSAL_STATUS, "rule-runtime", message, ok=False, refused=message,
                                  state=session.state())
        if data:
            return ok(result)
        state = session.state()
        session.record_end(state["status"])
        return ok({"ok": True, "state": state, "said": [], "bot": [], **result})

    # -- routes ---------------------------------------------------------------------------------------------
    async def list_games(request, body):
        listing = await run_in_threadpool(games.listing)
        return ok({"games": listing, "default": games.default})

    async def new_session(request, body):
        name = body.get("game")
        if not isinstance(name, str) or not name:
            raise BadRequest("`game` names a game of GET /api/games, e.g. \"forty-thieves\"")
        if name not in games.names():
            raise ApiError(404, "unknown-game", f"no game '{name[:80]}'; GET /api/games lists them")

        def make(sid: str):
            from kallisti.interpreter.compiler import RuleRuntimeError

            rules = games.rules(name)
            try:
                session = Session(sid, name, rules, body.get("seed"), body.get("players"))
            except (KallistiError, RuleRuntimeError) as exc:
                findings = [finding_dict(f) for f in exc.findings] if isinstance(exc, KallistiError) else []
                raise ApiError(422, "not-playable", f"the game cannot be dealt: {exc}", findings) from None
            return session, ok({"id": session.id, "state": session.state(), **session.opening}, 201)
        return await sessions.add(make)

    async def delete_session(request, body):
        sid = request.path_params["sid"]
        async with sessions.using(sid) as session:  # a game left unwon is recorded in the statistics
            await run_in_threadpool(session.record_left)
        await sessions.remove(sid)
        return ok({"ok": True})

    async def statistics(request, body):
        """The statistics `kallisti stats --format json` prints (`?game=`: one game's)."""
        from kallisti.stats import StatsError, as_json, query

        name = request.query_params.get("game") or None
        if name is not None and name in games.names():
            name = (await run_in_threadpool(games.rules, name)).name  # a game of the list stands for its title
        try:
            summaries = await run_in_threadpool(query, name)
        except StatsError as exc:
            raise ApiError(500, "stats-unreadable", str(exc)) from None
        return ok(as_json(summaries))

    async def about_game(request, body):
        """A game's goal, a summary of its rules and its whole description (kallisti.web.summary)."""
        from kallisti.web.summary import game_summary

        name = request.path_params["name"]
        rules = await run_in_threadpool(games.rules, name)
        if name not in summaries:
            summaries[name] = await run_in_threadpool(game_summary, rules)
        return ok({"name": name, "title": rules.name, **summaries[name],
                   "rule_book": f"/api/games/{quote(name, safe='')}/rules.html"})

    async def rule_book(request, body):
        """The game's rule book, the page `kallisti show --format html` writes; its style alone is allowed inline."""
        from kallisti.web.summary import rule_book_html, style_hashes

        rules = await run_in_threadpool(games.rules, request.path_params["name"])
        page = await run_in_threadpool(rule_book_html, rules)
        policy = CSP.replace("style-src 'self'", "style-src " + " ".join(style_hashes(page) or ["'none'"]))
        return HTMLResponse(page, headers={"Content-Security-Policy": policy, "Cache-Control": "no-store"})

    def seat(body):
        return body.get("seat")

    actions = {
        "move": lambda s, b: s.move(b.get("text"), b.get("from"), b.get("to"), b.get("count"), seat(b)),
        "undo": lambda s, b: s.undo(seat(b)),
        "redo": lambda s, b: s.redo(seat(b)),
        "auto": lambda s, b: s.auto(seat(b)),
        "deal": lambda s, b: s.deal(seat(b)),
        "acknowledge": lambda s, b: s.acknowledge(seat(b)),
        "shuffle": lambda s, b: s.shuffle(b.get("shuffle"), seat(b)),
        "revoke": lambda s, b: s.revoke(b.get("id"), seat(b)),
        "pass": lambda s, b: s.pass_turn(seat(b)),
        "rule": lambda s, b: s.rule(b.get("text"), seat(b)),
    }
    answers = {  # endpoints that answer their own data, not an action's
        "rule/check": lambda s, b: s.check_rule(b.get("text"), seat(b)),
        "explain": lambda s, b: s.explain(b.get("from"), b.get("to"), b.get("count")),
    }
    routes = [
        Route("/api/games", endpoint(list_games), methods=["GET"]),
        Route("/api/stats", endpoint(statistics), methods=["GET"]),
        Route("/api/games/{name}", endpoint(about_game), methods=["GET"]),
        Route("/api/games/{name}/rules.html", endpoint(rule_book), methods=["GET"]),
        Route("/api/sessions", endpoint(new_session), methods=["POST"]),
        Route("/api/sessions/{sid}", on_session(lambda s, b: s.state(), data=True), methods=["GET"]),
        Route("/api/sessions/{sid}", endpoint(delete_session), methods=["DELETE"]),
        Route("/api/sessions/{sid}/hint", on_session(lambda s, b: s.hint(), data=True), methods=["GET"]),
    ]
    routes += [Route(f"/api/sessions/{{sid}}/{name}", on_session(fn), methods=["POST"]) for name, fn in actions.items()]
    routes += [Route(f"/api/sessions/{{sid}}/{name}", on_session(fn, data=True), methods=["POST"])
               for name, fn in answers.items()]
    api_routes = list(routes)

    async def no_such_path(request, body):
        """404, or 405 naming the methods allowed when the path is an endpoint's."""
        path = request.url.path
        allowed = sorted({m for r in api_routes if r.path_regex.fullmatch(path) for m in (r.methods or ()) if m != "HEAD"})
        if allowed:
            raise ApiError(405, "method-not-allowed", f"{path[:100]} takes {', '.join(allowed)}, not {request.method}")
        raise ApiError(404, "not-found", f"no endpoint {request.method} {path[:100]}; docs/web.md lists them")
    routes.append(Route("/api/{rest:path}", endpoint(no_such_path), methods=["GET", "POST", "PUT", "PATCH", "DELETE"]))
    if static is not None and static.is_dir():
        routes.append(Mount("/", StaticFiles(directory=static, html=True), name="static"))

    async def http_error(request, exc: HTTPException):
        code = STATUS_CODE.get(exc.status_code, "not-found")
        return error_response(exc.status_code, code, exc.detail or code)

    async def server_error(request, exc: Exception):  # logged by the Guard, which the exception reaches too
        return error_response(500, "server-error", "the server failed to handle this request (a bug in kallisti)")

    app = Starlette(routes=routes, exception_handlers={HTTPException: http_error, Exception: server_error})
    app.state.sessions = sessions
    app.state.games = games
    return Guard(app, hosts)


def default_saves() -> Path:
    """The folder where `kallisti serve` saves the sessions it closes to make room: `kallisti/sessions` in the
    user's state folder ($XDG_STATE_HOME, else ~/.local/state; %LOCALAPPDATA% on Windows)."""
    if os.name == "nt" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "kallisti" / "sessions"
    state = os.environ.get("XDG_STATE_HOME")
    base = Path(state) if state and Path(state).is_absolute() else Path.home() / ".local" / "state"
    return base / "kallisti" / "sessions"
