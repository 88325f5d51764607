"""The command line: a thin typer app, one module per command, and terminal rendering."""
