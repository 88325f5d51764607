"""Reporters for `kallisti validate` (the findings of each file as text, as JSON, or as GitHub Actions
workflow commands), and how a command reports a ruleset it cannot load."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

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


def plural(n: int, word: str) -> str:
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
    return f"{plural(s['files'], 'file')} checked: {s['valid']} valid, {s['invalid']} invalid"


def render_text(results: list[FileResult]) -> str:
    """Every finding as `file:line:column: severity code: message (suggestion)` with its excerpt, then a summary."""
    lines: list[str] = []
    for r in results:
        for f in r.findings:
            lines.append(str(f))
        if r.valid:
            note = f" ({plural(len(r.warnings), 'warning')})" if r.warnings else ""
            lines.append(f"{r.file}: valid{note}")
        else:
            counts = [plural(len(r.errors), "error")] if r.errors else []
            if r.warnings:
                counts.append(plural(len(r.warnings), "warning"))
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


def escape_data(text: str) -> str:
    """A workflow command's message, escaped as GitHub Actions requires (`%`, CR and LF)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A workflow command's property value: as a message, and also `:` and `,`."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _workspace_path(source: str) -> str:
    """The finding's file, relative to the working directory when it lies below it (annotations need
    paths relative to the checkout)."""
    path = Path(source)
    if path.is_absolute():
        try:
            return path.relative_to(Path.cwd()).as_posix()
        except ValueError:
            return source
    return source.replace(os.sep, "/")


def github_command(finding: Finding) -> str:
    """One finding as `::error file=F,line=L,col=C,title=CODE::MESSAGE` (`::warning` for a warning);
    the suggestion follows the message; a finding without a line has no line or col."""
    props = []
    if finding.pos.source and not finding.pos.source.startswith("<"):
        props.append(f"file={escape_property(_workspace_path(finding.pos.source))}")
    if finding.pos.line:
        props.append(f"line={finding.pos.line}")
        if finding.pos.column:
            props.append(f"col={finding.pos.column}")
    props.append(f"title={escape_property(finding.code)}")
    message = finding.message + (f" ({finding.suggestion})" if finding.suggestion else "")
    command = "warning" if finding.severity == "warning" else "error"
    return f"::{command} {','.join(props)}::{escape_data(message)}"


def render_github(results: list[FileResult]) -> str:
    """Every finding as a GitHub Actions workflow command, then the summary line."""
    lines = [github_command(f) for r in results for f in r.findings]
    lines.append(summary_line(results))
    return "\n".join(lines)


def refuse(game: str, exc) -> "typer.Exit":
    """Print a ruleset's load findings on stderr; the exit to raise: 2 when GAME names nothing (a usage
    error), 1 when the ruleset it names is bad."""
    import typer

    for f in exc.findings:
        typer.echo(str(f), err=True)
    return typer.Exit(2 if any(f.code == "unknown-game" and f.pos.source == game for f in exc.findings) else 1)
