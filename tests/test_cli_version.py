"""`kallisti --version`: the package's version, at once, importing nothing a command would."""

from __future__ import annotations

import json
import subprocess
import sys

from typer.testing import CliRunner

from kallisti import __version__
from kallisti.cli.app import app


def test_version_prints_the_packages_version():
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout == f"kallisti {__version__}\n"


def test_version_is_in_the_help():
    assert "--version" in CliRunner().invoke(app, ["--help"]).stdout


def test_version_imports_nothing_heavy():
    code = ("import contextlib, io, json, sys\n"
            "from kallisti.cli.app import main\n"
            "sys.argv = ['kallisti', '--version']\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    try:\n"
            "        main()\n"
            "    except SystemExit:\n"
            "        pass\n"
            "print(json.dumps(sorted(sys.modules)))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    modules = set(json.loads(done.stdout.splitlines()[-1]))
    heavy = ("jsonschema", "lark", "kallisti.solver", "kallisti.grammar", "kallisti.model.ruleset", "kallisti.interpreter.game")
    assert sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in heavy)) == []
