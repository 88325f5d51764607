"""Writing files so that a crash, a kill or a power cut leaves the old version or the new one, never half of one."""

from __future__ import annotations

import os
import secrets
import stat
import time
from pathlib import Path

# Test hook: a crash test sets it to a marker file's path to stop a write between its fsync and its rename
# (tests/test_crash_safety.py). Never set outside tests.
PAUSE_BEFORE_RENAME = "KALLISTI_TEST_PAUSE_BEFORE_RENAME"
PAUSE_LIMIT_SECONDS = 30  # a forgotten hook slows a write down, it never hangs it
NEW_FILE_MODE = 0o666  # as open() creates a file: the umask takes its bits away


def write_atomic(path: Path, content: str | bytes) -> None:
    """Write `content` (text is written as UTF-8) to `path` so that a crash leaves either the old file or the new one.

    The content goes to a temporary file in the same folder (a rename never crosses file systems), which is
    flushed and fsynced, then renamed over `path`; the folder is fsynced after the rename where the OS allows, so
    the rename itself survives a power cut. A file replaced keeps its permissions. A crash before the rename
    leaves a `.NAME.*.tmp` file beside `path`, which nothing reads: it may be deleted.
    """
    path = Path(path)
    folder = path.absolute().parent  # not resolve(): a link at `path` is replaced, as a plain write would be
    data = content.encode("utf-8") if isinstance(content, str) else content
    fd, tmp = _temporary_file(folder, path.name)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        _keep_mode(path, tmp)
        _pause_before_rename(path)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    fsync_folder(folder)


def fsync_folder(folder: Path) -> None:
    """Make the creation or renaming of a file in `folder` durable: on POSIX the name lives in the folder, which
    has its own fsync. Windows cannot open a folder, and some file systems refuse to sync one: then nothing is done."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _temporary_file(folder: Path, name: str) -> tuple[int, Path]:
    """A new file `.NAME.RANDOM.tmp` in `folder`, open for writing, with the permissions a new file gets here.

    (tempfile.mkstemp would make every save readable by its owner only.) O_EXCL never opens an existing file or
    follows a link; a name taken is simply drawn again.
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    while True:
        tmp = folder / f".{name}.{secrets.token_hex(4)}.tmp"
        try:
            return os.open(tmp, flags, NEW_FILE_MODE), tmp
        except FileExistsError:
            continue


def _keep_mode(path: Path, tmp: Path) -> None:
    """Give the new version the permissions of the file it replaces (a file shared with a group stays shared)."""
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
        os.chmod(tmp, mode)
    except OSError:
        pass  # no file yet (the new one keeps the default permissions), or a file system without them


def _pause_before_rename(target: Path) -> None:
    """Test hook (PAUSE_BEFORE_RENAME=MARKER): announce the rename about to happen by writing `target` to MARKER,
    then wait while MARKER exists, at most PAUSE_LIMIT_SECONDS. A test kills the process at this point, or lets the
    write go on by deleting MARKER."""
    marker = os.environ.get(PAUSE_BEFORE_RENAME)
    if not marker:
        return
    marker = Path(marker)
    partial = marker.with_name(marker.name + ".part")
    partial.write_text(f"{target}\n", encoding="utf-8")
    os.replace(partial, marker)  # the test never reads half a target
    deadline = time.monotonic() + PAUSE_LIMIT_SECONDS
    while marker.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
