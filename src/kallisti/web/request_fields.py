"""What a request to the JSON API may say and how it is refused: `Refused` and `BadRequest`, findings as JSON, and
the fields of a move or a list of players read as `kallisti play` reads them."""

from __future__ import annotations

import re

CHANGE_SOURCE = "<change>"  # the source name of rule-change text: findings there have a line and column in it
_TAG = re.compile(r"[a-z][a-z0-9]{0,15}")
_COUNT_LIMIT = 10**6


class Refused(Exception):
    """An action refused: `code` (docs/web.md), the refusal in words, and the findings of a refused rule change."""

    def __init__(self, code: str, message: str, findings: list[dict] | None = None):
        super().__init__(message)
        self.code, self.message, self.findings = code, message, findings or []


class BadRequest(Exception):
    """A request the session cannot read: a field missing or of the wrong type, an unknown seat, a bad seed."""

    def __init__(self, message: str, code: str = "bad-request"):
        super().__init__(message)
        self.code, self.message = code, message


def finding_dict(finding, source: str = CHANGE_SOURCE) -> dict:
    """A Finding as JSON: line and column only when it points into the text typed (`source`), else null."""
    here = finding.pos.source == source and finding.pos.line > 0
    return {"line": finding.pos.line if here else None, "column": finding.pos.column if here else None,
            "code": finding.code, "message": finding.message, "severity": finding.severity,
            "suggestion": finding.suggestion}


def plain_finding(code: str, message: str, severity: str = "error") -> dict:
    from kallisti.unsafe import visible  # a message may quote what was sent, as a Finding's may

    return {"line": None, "column": None, "code": code, "message": visible(message), "severity": severity,
            "suggestion": None}


def parse_players(players) -> list:
    """Seats from a list of names (or a comma-separated string), `bot` or `bot:STRATEGY`, as `play --players`."""
    from kallisti.interpreter.match import seats_from_text
    from kallisti.solver.strategies import STRATEGIES

    if isinstance(players, list):
        if not all(isinstance(p, str) for p in players):
            raise BadRequest("`players` is a list of names: strings")
        if any("," in p for p in players):
            raise BadRequest("a player's name holds no comma")
        text = ",".join(players)
    elif isinstance(players, str):
        text = players
    else:
        raise BadRequest("`players` is a list of names, e.g. [\"ann\", \"bot\"]")
    if len(text) > 1000:
        raise BadRequest("`players` is too long")
    try:
        seats = seats_from_text(text)
    except ValueError as exc:
        raise BadRequest(str(exc), "not-playable") from None
    for s in seats:
        if s.is_bot and s.strategy not in STRATEGIES:
            raise BadRequest(f"no bot strategy '{s.strategy}'; choose from {', '.join(STRATEGIES)}", "not-playable")
    return seats


def move_text(text, src, dst, count) -> str:
    """The move as typed: `text`, or `src dst [count]` from the fields (tags only, so nothing else is typed)."""
    if text is not None:
        if not isinstance(text, str) or not text.strip():
            raise BadRequest("`text` is a move as typed in `kallisti play`, e.g. \"t3 f1\"")
        return text
    if not isinstance(src, str) or not isinstance(dst, str):
        raise BadRequest("a move is {\"text\": \"t3 f1\"} or {\"from\": \"t3\", \"to\": \"f1\", \"count\": 1}")
    for name, tag in (("from", src), ("to", dst)):
        if not _TAG.fullmatch(tag.lower()):
            raise BadRequest(f"`{name}` is a pile's tag, e.g. \"t3\"")
    line = f"{src} {dst}"
    if count is not None:
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= _COUNT_LIMIT:
            raise BadRequest("`count` is a number of cards, 1 or more")
        line += f" {count}"
    return line


def change_text(text) -> str:
    if not isinstance(text, str) or not text.strip():
        raise BadRequest("`text` is a rule change, e.g. \"set field.count 5\"")
    return text


