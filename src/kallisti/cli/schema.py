"""`kallisti schema [--resolved] [--output FILE]`: the JSON Schema for ruleset files, for editors and other tools.

The schema printed is the one the loader checks files with (`kallisti.schema.schema("file")`), the
same text as the committed `ruleset-file.schema.json`; `--resolved` gives the schema of a complete
ruleset after `extends` (`ruleset.schema.json`, what `kallisti show --format json` prints).
"""

from __future__ import annotations

from pathlib import Path

import typer

FILE_SCHEMA = "ruleset-file.schema.json"
RESOLVED_SCHEMA = "ruleset.schema.json"


def schema_text(resolved: bool = False) -> str:
    """The JSON text of the ruleset-file schema, or of the resolved-ruleset schema."""
    from kallisti.schema import export

    return export()[RESOLVED_SCHEMA if resolved else FILE_SCHEMA]


def schema(
    resolved: bool = typer.Option(False, "--resolved", help="The schema of a resolved ruleset (after `extends`) instead."),
    out: Path = typer.Option(None, "-o", "--output", metavar="FILE", dir_okay=False,
                             help="Write to this file (atomically) instead of standard output."),
) -> None:
    """Print the JSON Schema for ruleset files (YAML), for editors and validators.

    Exit 0 written, 2 usage.
    """
    text = schema_text(resolved)
    if out is None:
        typer.echo(text, nl=False)
        return
    if not out.resolve().parent.is_dir():
        raise typer.BadParameter(f"no folder {out.resolve().parent} to write '{out}' in", param_hint="--output")
    from kallisti.interpreter.save import write_atomic

    write_atomic(out, text)
    typer.echo(f"wrote {out}", err=True)
