"""Read untrusted text files (rulesets, deals, saves) within a size limit, each problem a finding."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from kallisti.errors import Finding, KallistiError, Pos

MAX_FILE_BYTES = 1_000_000  # bytes of a ruleset file (YAML or .rules), read before parsing


def line_column(text: str, index: int) -> tuple[int, int]:
    """The 1-based line and column of `text[index]`."""
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def read_text(path: Path, limit: int, what: str, code: str) -> str:
    """The UTF-8 text of `path`; `what` names the file in messages ("the save"), `code` prefixes finding codes.

    Only a regular file is read (a symbolic link to one is followed): a device such as /dev/zero never ends and a
    FIFO may never answer, so both are refused before a byte is read. At most `limit` + 1 bytes are read, so a
    file that grows while it is read still costs no more than its limit.
    """
    path = Path(path)
    try:
        # O_NONBLOCK: opening a FIFO would otherwise wait for a writer before fstat could refuse it.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise KallistiError(Finding(f"{code}-unreadable", f"cannot read {what}: it is not a regular file", Pos(str(path))))
            raw = fh.read(limit + 1)
    except (OSError, ValueError) as exc:  # ValueError: a name holding NUL, which no file has
        raise KallistiError(Finding(f"{code}-unreadable", f"cannot read {what}: {getattr(exc, 'strerror', None) or exc}",
                                    Pos(str(path)))) from None
    if len(raw) > limit:
        raise KallistiError(Finding(f"{code}-too-large", f"{what} is larger than {limit} bytes", Pos(str(path))))
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        good = raw[: exc.start].decode("utf-8", errors="replace")
        line = good.count("\n") + 1
        column = len(good) - (good.rfind("\n") + 1) + 1
        raise KallistiError(Finding(f"{code}-syntax", f"{what} is not valid UTF-8 text here", Pos(str(path), line, column))) from None
