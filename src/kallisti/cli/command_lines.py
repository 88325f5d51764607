"""The command lines of `kallisti play`: standard input read a bounded line at a time, and its commands picked out."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator

from kallisti.cli.play_text import Out

MAX_COMMAND_CHARS = 10_000  # a piped line longer than this is refused (and read no further than needed)


def stdin_lines(interactive: bool) -> Iterable[str]:
    """Lines of standard input; on a terminal, a `> ` prompt and line editing. Ctrl-C or Ctrl-D ends the input."""
    if interactive:
        try:
            import readline  # noqa: F401  (line editing and history for input())
        except ImportError:
            pass
    reconfigure = getattr(sys.stdin, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(errors="replace")  # bytes that are not UTF-8 become U+FFFD: a refused command, not a traceback
    try:
        while True:
            if interactive:
                yield input("> ")
            else:
                line = sys.stdin.readline(MAX_COMMAND_CHARS + 1)
                if not line:
                    return
                if len(line) > MAX_COMMAND_CHARS and not line.endswith("\n"):
                    _skip_rest_of_line()  # the prefix kept is long enough to be refused as too long
                yield line
    except (EOFError, KeyboardInterrupt):
        if interactive:
            sys.stdout.write("\n")
        return


def _skip_rest_of_line() -> None:
    """Read standard input up to the end of the current line, a bounded piece at a time."""
    while True:
        piece = sys.stdin.readline(MAX_COMMAND_CHARS)
        if not piece or piece.endswith("\n"):
            return


def command_lines(lines: Iterable[str], out: Out, stop: Callable[[], bool] = lambda: False) -> Iterator[str]:
    """The commands of `lines`, stripped: blank lines and lines starting with # skipped, a line over
    MAX_COMMAND_CHARS refused (said through `out`) and skipped, not parsed; no further line is read once `stop()`."""
    for raw in lines:
        if stop():
            return
        if len(raw) > MAX_COMMAND_CHARS:
            out(f"a command is at most {MAX_COMMAND_CHARS:,} characters; that line was not read")
            continue
        line = raw.strip()
        if line and not line.startswith("#"):
            yield line
