"""Loads known to find nothing: a record per ruleset text, so that the same files read again skip their checks.

Loading a ruleset reads it, checks it against the JSON Schema (importing jsonschema costs a fifth of a second) and
runs the semantic checks, then compiles it. When a load finds nothing at all, not even a warning, the texts it read
(the file and every file of its `extends` chain) are recorded by their hash, with kallisti's version and a stamp of
its own files (their names, sizes and times, so an edited checkout checks afresh); the next load of the same texts
reads and compiles them but skips the schema and the checks, which could only find nothing again. A load that finds
anything is never recorded, so every finding is reported every time.

The record is one JSON file of hashes in the cache folder of grammar/cache.py, and is read under the same rules: a
folder only the user may write to, a regular file the user owns, opened without following a link. A hash names texts
and says they were clean; it cannot make a wrong text load, only spare checks that a text already passed. A missing,
unreadable or broken record is passed over, and `KALLISTI_NO_CACHE=1` turns it off with the parser cache.
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path

FILE = "clean-loads.json"
FORMAT = 1  # the record's layout: a new one makes every hash new
MAX_KEPT = 512  # hashes kept, the newest; a ruleset that drops out is checked once more and recorded again
PACKAGE = Path(__file__).resolve().parent.parent

# On unless turned off: the test suite turns it off for the loads of its own process, where a test may patch a check
# and expect a finding from a text an earlier test loaded clean (tests/conftest.py).
enabled = True


def key_of(texts: list[str], despite: frozenset) -> str:
    """The hash of a load: the texts read, in order, the error codes let pass, the version and the code that checks."""
    from kallisti import __version__

    what = [FORMAT, __version__, _code_stamp(), sorted(despite), texts]
    return hashlib.sha256(json.dumps(what, ensure_ascii=False).encode()).hexdigest()


def key_for(ref, text: str | None = None, despite: frozenset = frozenset()) -> str | None:
    """The hash under which a load of `ref` (a shipped game's name or a file path; `text` its text when given) is
    recorded, or None when nothing is recorded (the record turned off, or texts that cannot be read: the checked load
    that follows reports why)."""
    if not enabled:
        return None
    from kallisti.model.loader import chain_texts

    try:
        return key_of(chain_texts(ref, text), despite)
    except Exception:  # noqa: BLE001 - any fault in the texts is reported by the checked load that follows
        return None


def known_clean(ref, text: str | None = None, despite: frozenset = frozenset()) -> bool:
    """Whether a load of `ref` is certain to find nothing, not even a warning: its texts were recorded clean.
    `kallisti validate` answers from this without compiling the ruleset."""
    key = key_for(ref, text, despite)
    return key is not None and known(key)


def known(key: str) -> bool:
    """Whether a load of this hash was recorded clean."""
    folder = _folder()
    return folder is not None and key in _read(folder / FILE)


def remember(key: str) -> None:
    """Record a clean load (written whole to a temporary file and renamed over the record); a record that cannot be
    written is left as it is."""
    folder = _folder()
    if folder is None:
        return
    from kallisti.user_cache import write_owned

    keys = [k for k in _read(folder / FILE) if k != key][-(MAX_KEPT - 1):] + [key]
    try:
        write_owned(folder, FILE, json.dumps({"format": FORMAT, "keys": keys}))
    except OSError:
        pass


def _folder() -> Path | None:
    if not enabled:
        return None
    from kallisti.user_cache import cache_folder

    return cache_folder()


def _read(path: Path) -> list[str]:
    """The hashes recorded at `path`: none unless it is a regular file the user owns that only the user may write."""
    from kallisti.user_cache import read_owned

    text = read_owned(path, 1_000_000)
    try:
        record = json.loads(text) if text is not None else None
    except ValueError:
        return []
    if not isinstance(record, dict) or record.get("format") != FORMAT or not isinstance(record.get("keys"), list):
        return []
    return [k for k in record["keys"] if isinstance(k, str)]


@functools.cache
def _code_stamp() -> str:
    """The names, sizes and modification times of kallisti's own source files (the shipped rulesets aside: a load
    hashes the texts it reads), once a process."""
    seen = []
    for path in sorted(PACKAGE.rglob("*")):
        if path.suffix in (".py", ".json", ".lark") and "__pycache__" not in path.parts:
            info = path.stat()
            seen.append((str(path.relative_to(PACKAGE)), info.st_size, info.st_mtime_ns))
    return hashlib.sha256(json.dumps(seen).encode()).hexdigest()
