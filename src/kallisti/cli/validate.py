"""`kallisti validate FILE...`: load each ruleset file and report every finding with its position."""

from __future__ import annotations

import dataclasses
import os
from enum import Enum
from pathlib import Path

import typer

from kallisti.cli.report import FileResult, render_github, render_json, render_text
from kallisti.errors import Finding, KallistiError, caret


class Format(str, Enum):
    text = "text"
    json = "json"
    github = "github"


RULESET_SUFFIXES = (".yaml", ".yml", ".rules")


def validate_files(paths: list[str | Path], strict: bool = False) -> list[FileResult]:
    """Load each ruleset file; a file is valid when it has no error (and, when `strict`, no warning). A file whose
    texts (its own and its `extends` chain's) a load has found clean before, not even a warning, is valid without
    compiling it again (model/clean_loads.py)."""
    from kallisti.model import clean_loads

    results = []
    texts: dict[str, str | None] = {}
    for path in paths:
        if clean_loads.known_clean(path):
            results.append(FileResult(str(path), True, []))
            continue
        from kallisti.model.ruleset import load_ruleset

        findings: list[Finding]
        try:
            findings = list(load_ruleset(path).findings)
        except KallistiError as exc:
            findings = list(exc.findings)
        findings = [with_excerpt(f, texts) for f in findings]
        failing = [f for f in findings if f.severity == "error" or (strict and f.severity == "warning")]
        results.append(FileResult(str(path), not failing, findings))
    return results


def with_excerpt(finding: Finding, texts: dict[str, str | None]) -> Finding:
    """The finding with the source line under a caret, when it has none yet and its file can be read."""
    if finding.excerpt or not finding.pos.line:
        return finding
    source = finding.pos.source
    if source not in texts:
        try:
            texts[source] = Path(source).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError, ValueError):
            texts[source] = None
    text = texts[source]
    if text is None:
        return finding
    return dataclasses.replace(finding, excerpt=caret(text, finding.pos))


def ruleset_files_below(folder: Path) -> list[Path]:
    """Every `*.yaml`, `*.yml` and `*.rules` file below `folder`, at any depth, sorted by path;
    hidden files and folders (`.git`, `.venv`, `.pre-commit-config.yaml`...) are skipped."""
    found = []
    for root, dirs, names in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        found.extend(Path(root) / n for n in names if Path(n).suffix in RULESET_SUFFIXES and not n.startswith("."))
    return sorted(found)


def check_arguments(files: list[str]) -> list[str]:
    from kallisti.model.loader import names_a
    from kallisti.shipped import shipped_games

    games = shipped_games()
    out = []
    for name in files:
        path = Path(name)
        if names_a(path):
            out.append(name)
        elif names_a(path, "dir"):
            found = ruleset_files_below(path)
            if not found:
                raise typer.BadParameter(
                    f"the folder '{name}' holds no ruleset files ({', '.join('*' + s for s in RULESET_SUFFIXES)})",
                    param_hint="FILE")
            out.extend(str(p) for p in found)
        elif name in games:
            out.append(str(games[name]))
        else:
            raise typer.BadParameter(f"no file (or shipped game) named '{name}'", param_hint="FILE")
    return out


def validate(
    files: list[str] = typer.Argument(
        ..., metavar="FILE",
        help="Ruleset files, folders (every *.yaml, *.yml and *.rules file below) or shipped game names to check."),
    strict: bool = typer.Option(False, "--strict", help="Treat warnings as failures."),
    format: Format = typer.Option(
        Format.text, "--format",
        help="Output format: text, json, or github (GitHub Actions annotations). Each ends with a summary."),
) -> None:
    """Check ruleset files and report every finding as file:line:column. Exit 0 when all are valid, 1 when not, 2 on a usage error."""
    results = validate_files(check_arguments(files), strict)
    render = {Format.text: render_text, Format.json: render_json, Format.github: render_github}[format]
    typer.echo(render(results))
    raise typer.Exit(0 if all(r.valid for r in results) else 1)
