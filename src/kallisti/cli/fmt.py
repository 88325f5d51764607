"""`kallisti fmt FILE... [--check]`: rewrite ruleset files in their syntax's canonical layout.

Each file is read in its own syntax (`.rules` by its extension, YAML otherwise) and written back as
`to_rules` or `to_yaml` writes its data, comments kept. Formatting twice changes nothing. Only a
file's text is read, not the game it describes: `kallisti validate` checks that. With `--check`
nothing is written, and the files that would change are listed (exit 1; exit 0 when every file is
formatted), for CI. A file that cannot be read is reported with its findings (exit 1); a missing
file or a folder is a usage error (exit 2).
"""

from __future__ import annotations

from pathlib import Path

import typer

from kallisti.cli.convert import report, syntax_of, write_checked
from kallisti.cli.report import plural
from kallisti.errors import KallistiError


def formatted(path: Path) -> tuple[str, str]:
    """A ruleset file's text and its canonical text; a KallistiError when the file cannot be read, or
    its canonical text would not read back as the same data and comments."""
    from kallisti.model.loader import parse_file

    data, text = parse_file(path)
    return text, write_checked(data, syntax_of(path), str(path))


def check_arguments(files: list[str]) -> list[Path]:
    out = []
    for name in files:
        path = Path(name)
        if path.is_dir():
            raise typer.BadParameter(f"'{name}' is a folder; name the ruleset files in it", param_hint="FILE")
        if not path.is_file():
            raise typer.BadParameter(f"no file named '{name}'", param_hint="FILE")
        out.append(path)
    return out


def fmt(
    files: list[str] = typer.Argument(..., metavar="FILE", help="Ruleset files (.yaml or .rules) to format."),
    check: bool = typer.Option(False, "--check", help="Write nothing; list the files that would change (exit 1 if any)."),
) -> None:
    """Rewrite ruleset files in the canonical layout of their syntax, keeping comments.

    Exit 0 when done (with --check: when every file is formatted), 1 when a file would change (--check) or cannot be read, 2 usage.
    """
    from kallisti.interpreter.save import write_atomic

    paths = check_arguments(files)
    changed, unchanged, failed = [], [], []
    for path in paths:
        try:
            text, canonical = formatted(path)
        except KallistiError as exc:
            report(exc.findings)
            typer.echo(f"{path}: not formatted", err=True)
            failed.append(path)
            continue
        if canonical == text:
            unchanged.append(path)
            continue
        changed.append(path)
        if check:
            typer.echo(f"would reformat {path}")
        else:
            write_atomic(path, canonical)
            typer.echo(f"reformatted {path}")
    parts = [f"{plural(len(changed), 'file')} {'would be ' if check else ''}reformatted", f"{len(unchanged)} already formatted"]
    if failed:
        parts.append(f"{len(failed)} not readable")
    typer.echo(", ".join(parts))
    raise typer.Exit(1 if failed or (check and changed) else 0)
