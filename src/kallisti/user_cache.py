"""The user's cache folder for kallisti and its files: a folder only the user may write to, files read only when the
user owns them and no one else may write them, written whole (a temporary file renamed over the old one).

What is kept there only spares work (the parsers' tables, grammar/cache.py; the loads found clean,
model/clean_loads.py; the games' headings, cli/games.py): a file missing, untrusted or broken is passed over and the
work done again. `KALLISTI_NO_CACHE=1` turns all of it off, and it is off where the system has no user ids (POSIX
only).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

NO_CACHE = "KALLISTI_NO_CACHE"  # set to anything but "" or "0" to keep nothing and read nothing kept


def cache_folder() -> Path | None:
    """The user's cache folder for kallisti, made when missing; None when the cache is off, or the folder is not a
    folder of the user's own that only the user may write to."""
    if os.environ.get(NO_CACHE, "") not in ("", "0") or not hasattr(os, "getuid"):
        return None
    try:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
        if not base.is_absolute():  # the XDG rule: a relative path is ignored
            base = Path.home() / ".cache"
        folder = base / "kallisti"
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = os.lstat(folder)
    except (OSError, RuntimeError, ValueError):  # RuntimeError: no home folder to be found
        return None
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o022:
        return None
    return folder


def read_owned(path: Path, most: int = -1) -> bytes | None:
    """The bytes of the file at `path` (at most `most` of them, when given) when it is a regular file the user owns
    that only the user may write, opened without following a link; None otherwise, or when it cannot be read."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as fh:
            info = os.fstat(fh.fileno())
            if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o022:
                return None
            return fh.read(most)
    except OSError:
        return None


def write_owned(folder: Path, name: str, text: str) -> None:
    """Write `text` as the file `name` of `folder` whole: to a temporary file only the user may read or write, renamed
    over the old one, so that a reader finds the old file or the new one, never half of one (OSError when it cannot)."""
    import tempfile  # only a run that writes the cache pays for it

    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".tmp")  # mode 0600
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, folder / name)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
