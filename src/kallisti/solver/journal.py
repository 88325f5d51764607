"""The journal of a simulation run: a JSONL file, a header line then one line per finished deal, that a run resumes from."""

from __future__ import annotations

import json
import os
from pathlib import Path

from kallisti.durable import fsync_folder

FORMAT = "kallisti-simulate"


class JournalError(ValueError):
    """A journal that cannot be resumed: written by another run, or damaged before its last line."""


class Journal:
    """Appends each finished deal to a JSONL file as one line, flushed and fsynced at once, so that a run killed, or a
    machine that loses its power, loses only the deals in progress; `deals` holds the deals (seed -> record) the file
    held already. With no path, it records nothing.

    The first line is the header: the run's game, ruleset hash, strategy, seed, deals and budget; a file whose header
    differs is refused, so a resumed run plays the same deals as the run it goes on with. A last line cut short (the
    run was stopped while writing it) is dropped, and that deal played again.
    """

    def __init__(self, path: str | Path | None, header: dict):
        self.path = None if path is None else Path(path)
        self.header = {"format": FORMAT, **header}
        self.deals: dict[int, dict] = {}
        self._file = None

    def __enter__(self) -> Journal:
        if self.path is None:
            return self
        existed = self.path.exists()
        kept = self._read() if existed else 0
        self._file = open(self.path, "ab")
        self._file.truncate(kept)  # drop a line cut short
        if not kept:
            self._write(self.header)
        if not existed:
            fsync_folder(self.path.absolute().parent)  # the new file's name, not only its lines, survives a crash
        return self

    def __exit__(self, *exc) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def append(self, record: dict) -> None:
        """Record one finished deal."""
        if self._file is not None:
            self._write(record)

    def _write(self, record: dict) -> None:
        # One write of the whole line, newline last: a kill mid-write leaves a line without its newline, which the
        # next run drops (_read). fsync: once a deal is recorded it survives a power cut too.
        self._file.write((json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8"))
        self._file.flush()
        os.fsync(self._file.fileno())

    def _read(self) -> int:
        """Read the header and the deals; the bytes of the whole lines to keep (0: start the file afresh)."""
        data = self.path.read_bytes()
        end = data.rfind(b"\n") + 1  # a last line without its newline was cut short
        lines = data[:end].splitlines()
        if not lines:
            return 0
        header = self._parse(lines[0], 1)
        if header.get("format") != FORMAT:
            raise JournalError(f"{self.path} is not a journal of `kallisti simulate` (its first line is no header)")
        for key, ours in self.header.items():
            if header.get(key) != ours:
                raise JournalError(f"{self.path} records another run ({key} {json.dumps(header.get(key))} there, "
                                   f"{json.dumps(ours)} here): resume with the same game, strategy, seed, deals and "
                                   "budget, or give a new file")
        first, count = self.header["seed"], self.header["deals"]
        for number, line in enumerate(lines[1:], start=2):
            record = self._parse(line, number)
            seed = record.get("seed")
            if not isinstance(seed, int) or not first <= seed < first + count:
                raise JournalError(f"{self.path}:{number}: no deal of this run (seed {json.dumps(seed)})")
            self.deals.setdefault(seed, record)
        return end

    def _parse(self, line: bytes, number: int) -> dict:
        try:
            record = json.loads(line)
        except ValueError:
            record = None
        if not isinstance(record, dict):
            raise JournalError(f"{self.path}:{number}: not a JSON object")
        return record
