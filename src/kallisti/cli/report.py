"""Reporters for `kallisti validate`: the findings of each file as text or as JSON."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from kallisti.errors import Finding


@dataclass
class FileResult:
    """What validating one file found; `valid` already takes `--strict` into account."""

    file: str
    valid: bool
    findings: list[Finding] = field(default_factory=list)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "error"]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "warning"]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def summary(results: list[FileResult]) -> dict:
    valid = sum(1 for r in results if r.valid)
    return {
        "files": len(results),
        "valid": valid,
        "invalid": len(results) - valid,
        "errors": sum(len(r.errors) for r in results),
        "warnings": sum(len(r.warnings) for r in results),
    }


def summary_line(results: list[FileResult]) -> str:
    s = summary(results)
    return f"{_plural(s['files'], 'file')} checked: {s['valid']} valid, {s['invalid']} invalid"


def render_text(results: list[FileResult]) -> str:
    """Every finding as `file:line:column: severity code: message (suggestion)` with its excerpt, then a summary."""
    lines: list[str] = []
    for r in results:
        for f in r.findings:
            lines.append(str(f))
        if r.valid:
            note = f" ({_plural(len(r.warnings), 'warning')})" if r.warnings else ""
            lines.append(f"{r.file}: valid{note}")
        else:
            counts = [_plural(len(r.errors), "error")] if r.errors else []
            if r.warnings:
                counts.append(_plural(len(r.warnings), "warning"))
            lines.append(f"{r.file}: invalid ({', '.join(counts)})")
    lines.append(summary_line(results))
    return "\n".join(lines)


def render_json(results: list[FileResult]) -> str:
    """`{"files": [{file, valid, findings}], "summary": {...}}` as indented JSON."""
    data = {
        "files": [{"file": r.file, "valid": r.valid, "findings": [f.as_dict() for f in r.findings]} for r in results],
        "summary": summary(results),
    }
    return json.dumps(data, indent=2, ensure_ascii=False)
