"""Findings and the error that carries them: every problem names file:line:column."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from kallisti.codes import CODES
from kallisti.unsafe import visible


@dataclass(frozen=True)
class Pos:
    """Where a node came from: a file (or rule-change text) and a 1-based line and column."""

    source: str
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        if self.line:
            return f"{self.source}:{self.line}:{self.column}"
        return self.source

    def shifted(self, offset: int) -> Pos:
        """The position `offset` characters further along the same line."""
        return Pos(self.source, self.line, self.column + offset) if self.line else self


UNKNOWN = Pos("<unknown>")


@dataclass(frozen=True)
class Finding:
    """One problem found in a ruleset, a rule change or a save."""

    code: str
    message: str
    pos: Pos = UNKNOWN
    severity: str = "error"  # "error" or "warning"
    suggestion: str | None = None
    excerpt: str | None = None  # the offending source line, with a caret under the column

    def __post_init__(self):
        if self.code not in CODES:
            raise ValueError(f"'{self.code}' is not a registered finding code (see kallisti.codes)")
        # A message may quote the untrusted text it is about: never let it carry a terminal escape or a
        # bidirectional control to the screen or a CI log (kallisti.unsafe).
        for name in ("message", "suggestion", "excerpt"):
            value = getattr(self, name)
            if value is not None and visible(value) != value:
                object.__setattr__(self, name, visible(value))
        if visible(self.pos.source) != self.pos.source:
            object.__setattr__(self, "pos", Pos(visible(self.pos.source), self.pos.line, self.pos.column))

    def __str__(self) -> str:
        text = f"{self.pos}: {self.severity} {self.code}: {self.message}"
        if self.suggestion:
            text += f" ({self.suggestion})"
        if self.excerpt:
            text += "\n" + self.excerpt
        return text

    def as_dict(self) -> dict:
        return {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "file": self.pos.source,
            "line": self.pos.line,
            "column": self.pos.column,
            "suggestion": self.suggestion,
        }


class KallistiError(Exception):
    """Raised when input is refused; carries every finding, each with its position."""

    def __init__(self, findings: list[Finding] | Finding):
        self.findings = [findings] if isinstance(findings, Finding) else list(findings)
        super().__init__("\n".join(str(f) for f in self.findings))


def error(code: str, message: str, pos: Pos = UNKNOWN, suggestion: str | None = None) -> KallistiError:
    """Shorthand for a KallistiError with one finding."""
    return KallistiError(Finding(code, message, pos, suggestion=suggestion))


@functools.lru_cache(maxsize=2)
def _lines(text: str) -> list[str]:
    # Kept for the text's next finding: a file of a hundred thousand bad lines gets as many findings, and splitting
    # the whole text again for each of them made reading it quadratic (hours for a file of 1 MB).
    return text.splitlines()


MAX_EXCERPT = 120  # characters of the source line shown under a finding: a line of a 1 MB file may be all of it


def caret(text: str, pos: Pos) -> str | None:
    """The source line at `pos` with a caret under its column, for error messages; a line longer than MAX_EXCERPT is
    cut to that many characters around the column, each cut shown as `…`."""
    lines = _lines(text)
    if not pos.line or pos.line > len(lines):
        return None
    line = lines[pos.line - 1]
    at = max(pos.column - 1, 0)
    if len(line) > MAX_EXCERPT:
        start = min(max(at - MAX_EXCERPT // 2, 0), len(line) - MAX_EXCERPT)
        shown = line[start:start + MAX_EXCERPT]
        line = ("…" if start > 0 else "") + shown + ("…" if start + MAX_EXCERPT < len(line) else "")
        at = at - start + (1 if start > 0 else 0)
    return f"    {line}\n    {' ' * at}^"


def did_you_mean(name: str, choices) -> str | None:
    """A suggestion naming the closest of `choices`, if one is close."""
    import difflib

    close = difflib.get_close_matches(str(name), [str(c) for c in choices], n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None
