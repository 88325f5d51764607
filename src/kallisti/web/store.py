"""The sessions `kallisti serve` keeps: in memory, each played by one request at a time, and saved when closed.

At most `cap` sessions are kept in memory. Making room for one more closes the session used least recently that
no request is using, after saving it atomically to `folder/ID.json` (an ordinary save, docs/saves.md); the next
request naming its id brings it back from that file, exactly as it was, and the file is removed. When every session
in memory is in use, a request that needs room waits until one is free. A session is never closed unsaved: when it
cannot be saved (the folder holds `saved_cap` saves already, or the file cannot be written), the new session is
refused instead (`too-many-sessions`).

Everything here runs on the server's event loop, so the bookkeeping needs no lock; the engine's work and the files
are handled in worker threads. Each session has its own lock, held by the request playing it: a request on one
session waits only for the requests on that session.
"""

from __future__ import annotations

import asyncio
import os
import re
import secrets
import tempfile
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from starlette.concurrency import run_in_threadpool

from kallisti.errors import KallistiError
from kallisti.web.session import Session

SESSION_ID = re.compile(r"[A-Za-z0-9_-]{16}")  # secrets.token_urlsafe(12): the only names read from the folder


class StoreError(Exception):
    """A session the store cannot give or make: `status` and `code` of the JSON error (docs/web.md)."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


class Unsaved(StoreError):
    """Session `sid` could not be saved to make room (it stays in memory)."""

    def __init__(self, sid: str, message: str):
        super().__init__(503, "too-many-sessions", message)
        self.sid = sid


class Entry:
    """A session in memory: its lock, how many requests hold or wait for it, and whether it is gone (closed)."""

    def __init__(self, session: Session, users: int = 0):
        self.session = session
        self.lock = asyncio.Lock()
        self.users = users
        self.gone = False


class Sessions:
    """Sessions by id, least recently used first: at most `cap` in memory, the ones closed to make room saved in
    `folder` (None: a temporary folder made when first needed, gone with the process), at most `saved_cap` of them."""

    def __init__(self, cap: int, saved_cap: int, folder: Path | None = None):
        self.cap, self.saved_cap = cap, saved_cap
        self.folder = folder
        self._temporary: tempfile.TemporaryDirectory | None = None
        self._items: OrderedDict[str, Entry] = OrderedDict()
        self._leaving: dict[str, Entry] = {}  # being saved to make room
        self._reserved = 0  # room taken for sessions being made
        self._room = asyncio.Lock()  # one request at a time makes room
        self._slots: dict[str, list] = {}  # per id being restored or deleted: [its lock, requests holding it]
        self._saved: set[str] | None = None  # ids saved in the folder, listed when first needed
        self._listing = asyncio.Lock()
        self._freed = asyncio.Event()  # set when a session in memory is no longer in use
        self.waiting_for_room = 0  # requests waiting until a session in memory is free to be closed

    def __len__(self) -> int:
        return len(self._items)

    def waiting(self, sid: str) -> int:
        """How many requests hold or wait for session `sid` (0 when it is not in memory)."""
        entry = self._items.get(sid) or self._leaving.get(sid)
        return 0 if entry is None else entry.users

    # -- playing --------------------------------------------------------------------------------------------
    @asynccontextmanager
    async def using(self, sid: str) -> AsyncIterator[Session]:
        """The session `sid`, held by this request alone until the block ends (brought back from its save if it
        was closed to make room); StoreError 404 when there is none."""
        entry = await self._enter(sid)
        try:
            yield entry.session
        finally:
            entry.lock.release()
            self._leave(entry)

    async def _enter(self, sid: str) -> Entry:
        while True:
            entry = self._items.get(sid) or self._leaving.get(sid)
            if entry is None:
                entry = await self._restore(sid)  # counted as used already
            else:
                entry.users += 1
            try:
                await entry.lock.acquire()
            except BaseException:
                self._leave(entry)
                raise
            if not entry.gone:
                if sid in self._items:
                    self._items.move_to_end(sid)
                return entry
            # Saved while this request waited (or deleted): bring it back from the file, if there is one.
            entry.lock.release()
            self._leave(entry)

    def _leave(self, entry: Entry) -> None:
        """A request is done with `entry`: when none is left, a request waiting for room may close it."""
        entry.users -= 1
        if not entry.users:
            self._freed.set()

    async def add(self, make: Callable[[str], tuple[Session, object]]) -> object:
        """Make a session with `make(sid)` in a worker thread, after making room for it; what `make` answers."""
        async with self._room:
            await self._make_room()
            self._reserved += 1
        try:
            sid = secrets.token_urlsafe(12)
            while sid in self._items or sid in self._leaving or sid in await self._saved_ids():
                sid = secrets.token_urlsafe(12)
            session, answer = await run_in_threadpool(make, sid)
            self._items[sid] = Entry(session)
            return answer
        finally:
            self._reserved -= 1

    async def remove(self, sid: str) -> None:
        """Delete session `sid`, in memory and its save; StoreError 404 when there is none."""
        async with self._slot(sid):
            found = False
            entry = self._items.get(sid) or self._leaving.get(sid)
            if entry is not None:
                entry.users += 1  # never closed meanwhile: it waits for the requests playing it
                try:
                    async with entry.lock:
                        if not entry.gone:
                            entry.gone, found = True, True
                            self._items.pop(sid, None)
                finally:
                    self._leave(entry)
            if SESSION_ID.fullmatch(sid) and sid in await self._saved_ids():
                await run_in_threadpool(self._unlink, sid)
                self._saved.discard(sid)
                found = True
        if not found:
            raise StoreError(404, "unknown-session", f"no session '{sid[:40]}'")

    # -- closing and bringing back -------------------------------------------------------------------------
    async def _make_room(self, freeing: str | None = None) -> None:
        """Close sessions (saved) until one more fits in memory, holding `_room`; `freeing`: the id of a save about
        to be removed (the session brought back), whose place in the folder counts as free."""
        unsaved: dict[str, Unsaved] = {}  # sessions that could not be saved (a full disk): each stays in memory
        while len(self._items) + self._reserved >= self.cap:
            victim = next((sid for sid, e in self._items.items() if e.users == 0 and sid not in unsaved), None)
            if victim is None and unsaved:
                raise unsaved[next(reversed(unsaved))]
            if victim is None:  # every one is being played: the first to be free is closed (its work is bounded)
                self._freed.clear()
                self.waiting_for_room += 1
                try:
                    await self._freed.wait()
                finally:
                    self.waiting_for_room -= 1
                continue
            try:
                await self._close(victim, freeing)
            except Unsaved as exc:
                unsaved[exc.sid] = exc

    async def _close(self, sid: str, freeing: str | None = None) -> None:
        entry = self._items[sid]
        saved = await self._saved_ids()
        if len(saved - {freeing}) >= self.saved_cap:
            raise StoreError(503, "too-many-sessions", f"{self.cap} games are open and the save folder {self.folder} "
                             f"holds {len(saved):,} closed ones, its limit; delete games you are done with (DELETE "
                             "/api/sessions/ID), or move saves out of that folder")
        await entry.lock.acquire()  # free: no request uses it
        self._items.pop(sid)
        self._leaving[sid] = entry
        try:
            await run_in_threadpool(self._write, entry.session)
        except Exception as exc:  # the disk is full, the folder is gone: the game stays in memory
            self._items[sid] = entry
            self._items.move_to_end(sid, last=False)
            why = getattr(exc, "strerror", None) or exc
            raise Unsaved(sid, f"no room for another game: no game in memory could be saved to {self.folder} to "
                          f"make room ({why})") from None
        else:
            entry.gone = True
            saved.add(sid)
        finally:
            del self._leaving[sid]
            entry.lock.release()

    async def _restore(self, sid: str) -> Entry:
        """Bring back session `sid` from its save, counted as used by the request that asked for it."""
        async with self._slot(sid):
            entry = self._items.get(sid) or self._leaving.get(sid)
            if entry is not None:  # brought back by a request before this one
                entry.users += 1
                return entry
            if not SESSION_ID.fullmatch(sid) or sid not in await self._saved_ids():
                raise StoreError(404, "unknown-session", f"no session '{sid[:40]}'")
            session = await run_in_threadpool(self._read, sid)
            async with self._room:
                await self._make_room(freeing=sid)
                entry = self._items[sid] = Entry(session, users=1)
            try:
                await run_in_threadpool(self._unlink, sid)  # it lives in memory again, like any session
                self._saved.discard(sid)
            except OSError:
                pass  # a save left behind is overwritten when the session is next closed, or deleted with it
            return entry

    @asynccontextmanager
    async def _slot(self, sid: str) -> AsyncIterator[None]:
        """Hold the lock of id `sid` for bringing it back or deleting it: one of the two at a time."""
        slot = self._slots.setdefault(sid, [asyncio.Lock(), 0])
        slot[1] += 1
        try:
            async with slot[0]:
                yield
        finally:
            slot[1] -= 1
            if not slot[1]:
                del self._slots[sid]

    # -- the folder (in worker threads) ---------------------------------------------------------------------
    async def _saved_ids(self) -> set[str]:
        """The ids saved in the folder: listed once (by one request), then kept up to date here."""
        if self._saved is None:
            async with self._listing:
                if self._saved is None:
                    self._saved = await run_in_threadpool(self._list)
        return self._saved

    def _list(self) -> set[str]:
        if self.folder is None or not self.folder.is_dir():
            return set()
        with os.scandir(self.folder) as found:
            return {e.name[:-5] for e in found if e.name.endswith(".json") and SESSION_ID.fullmatch(e.name[:-5])}

    def _path(self, sid: str) -> Path:
        return self.folder / f"{sid}.json"

    def _write(self, session: Session) -> None:
        """Save `session` as `save` does (atomically); OSError or KallistiError (a log longer than a save holds)."""
        from kallisti.interpreter.save import write_save

        if self.folder is None:  # removed with everything in it when the process ends, as the games in memory are
            self._temporary = tempfile.TemporaryDirectory(prefix="kallisti-sessions-")
            self.folder = Path(self._temporary.name)
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        write_save(self._path(session.id), session.saved())

    def _read(self, sid: str) -> Session:
        from kallisti.interpreter.save import read_save

        path = self._path(sid)
        try:
            return Session.from_saved(sid, read_save(path), str(path))
        except KallistiError as exc:
            raise StoreError(404, "unknown-session", f"session '{sid}' was closed to make room, and its save {path} "
                             f"cannot be brought back: {exc.findings[0].message}") from None

    def _unlink(self, sid: str) -> None:
        try:
            self._path(sid).unlink()
        except FileNotFoundError:
            pass
