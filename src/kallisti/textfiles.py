"""Read untrusted text files (rulesets, deals, saves) within a size limit, each problem a finding."""

from __future__ import annotations

from pathlib import Path

from kallisti.errors import Finding, KallistiError, Pos


def read_text(path: Path, limit: int, what: str, code: str) -> str:
    """The UTF-8 text of `path`; `what` names the file in messages ("the save"), `code` prefixes finding codes."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise KallistiError(Finding(f"{code}-unreadable", f"cannot read {what}: {exc.strerror or exc}", Pos(str(path)))) from None
    if len(raw) > limit:
        raise KallistiError(Finding(f"{code}-too-large", f"{what} is larger than {limit} bytes", Pos(str(path))))
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        good = raw[: exc.start].decode("utf-8", errors="replace")
        line = good.count("\n") + 1
        column = len(good) - (good.rfind("\n") + 1) + 1
        raise KallistiError(Finding(f"{code}-syntax", f"{what} is not valid UTF-8 text here", Pos(str(path), line, column))) from None
