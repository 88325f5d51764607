"""Commands that answer at once: what `kallisti --help` and `kallisti list` import, `list`'s quick reading of the
titles, the help defaults written in cli/defaults.py, and the parser cache (grammar/cache.py). Never timed here:
benchmarks/startup.py measures the seconds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kallisti.cli.games import _rules_heading, _yaml_heading, heading
from kallisti.grammar import cache
from kallisti.model.loader import parse_file, shipped_games

COMMANDS = ["list", "show", "play", "validate", "simulate", "convert", "fmt", "schema", "hand", "new", "check", "solve",
            "report", "serve", "stats"]
# Never imported to answer --help, nor to list the games: the schema checker, the optional back ends, the layers
# under the commands (each command imports what it needs when it runs).
HEAVY = ("jsonschema", "ray", "starlette", "uvicorn", "lark", "kallisti.solver", "kallisti.web", "kallisti.grammar",
         "kallisti.model.ruleset", "kallisti.interpreter.compiler", "kallisti.interpreter.game")


def modules_after(*argvs: list[str], env: dict[str, str] | None = None) -> set[str]:
    """The modules a fresh interpreter holds after running `kallisti ARGV` for each argv in turn, as the console
    script runs it (kallisti.cli.app:main), its output thrown away."""
    code = (
        "import contextlib, io, json, sys\n"
        "from kallisti.cli.app import main\n"
        f"for argv in {argvs!r}:\n"
        "    sys.argv = ['kallisti', *argv]\n"
        "    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
        "        try:\n"
        "            main()\n"
        "        except SystemExit:\n"
        "            pass\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, stdin=subprocess.DEVNULL,
                          env={**os.environ, **(env or {})})
    return set(json.loads(done.stdout.splitlines()[-1]))


def heavy_in(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))


def test_help_imports_no_schema_checker_back_end_solver_or_grammar():
    modules = modules_after(["--help"])
    assert "kallisti.cli.app" in modules  # it did run
    assert heavy_in(modules) == []


def test_every_commands_help_imports_none_of_them_either():
    assert heavy_in(modules_after(*([command, "--help"] for command in COMMANDS))) == []


def test_list_builds_no_grammar_and_checks_no_schema(tmp_path):
    modules = modules_after(["list"], env={"XDG_CACHE_HOME": str(tmp_path)})
    assert "kallisti.cli.games" in modules
    assert heavy_in(modules) == []
    assert list((tmp_path / "kallisti").glob("lark-*")) == []  # no parser was built, so none was kept


def test_list_with_its_headings_recorded_reads_no_yaml_and_prints_the_same(tmp_path):
    env = {"XDG_CACHE_HOME": str(tmp_path)}
    first = modules_after(["list"], env=env)
    assert "yaml" in first  # the YAML headings were read by libyaml's events, then recorded
    assert (tmp_path / "kallisti" / "headings.json").is_file()
    again = modules_after(["list"], env=env)
    assert "yaml" not in again and "kallisti.located" not in again
    fresh = subprocess.run([sys.executable, "-m", "kallisti", "list"], capture_output=True, text=True, check=True,
                           env={**os.environ, "KALLISTI_NO_CACHE": "1"}).stdout
    recorded = subprocess.run([sys.executable, "-m", "kallisti", "list"], capture_output=True, text=True, check=True,
                              env={**os.environ, **env}).stdout
    assert recorded == fresh and "Forty Thieves" in fresh


def test_the_headings_record_keeps_the_newest(tmp_path, monkeypatch):
    from kallisti.cli import games

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("KALLISTI_NO_CACHE", raising=False)
    monkeypatch.setattr(games, "MAX_HEADINGS", 3)
    for i in range(5):
        games._record_headings(games._recorded_headings(), {f"k{i}": {"game": f"G{i}"}})
    assert list(games._recorded_headings()) == ["k2", "k3", "k4"]
    games._record_headings(games._recorded_headings(), {"k2": {"game": "G2"}})
    assert list(games._recorded_headings()) == ["k3", "k4", "k2"]


@pytest.mark.parametrize("damage", ["not json", '{"format": 1, "headings": {"KEY": {"game": 7}}}',
                                    '{"format": 1, "headings": {"KEY": {"game": "Wrong Title"}}}'])
def test_a_damaged_or_untrue_headings_record_is_passed_over(tmp_path, monkeypatch, capsys, damage):
    from kallisti.cli import games
    from kallisti.shipped import shipped_games

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("KALLISTI_NO_CACHE", raising=False)
    games.list_games()
    listed = capsys.readouterr().out
    record = tmp_path / "kallisti" / games.HEADINGS_FILE
    path = shipped_games()["forty-thieves"]
    other = path.read_text(encoding="utf-8") + "\n# edited\n"  # another text: its key is not recorded
    key = games._heading_key(path, other)
    record.write_text(damage.replace("KEY", key), encoding="utf-8")
    record.chmod(0o600)
    games.list_games()
    assert capsys.readouterr().out == listed  # the shipped texts are read again where the record says nothing true
    if "Wrong" in damage:  # an entry is found only by its own text's key: an edited file is read afresh
        assert games._recorded_headings()[key] == {"game": "Wrong Title"}
        assert games.heading(path, other)["game"] == "Forty Thieves"


def command_modules(modules: set[str]) -> set[str]:
    """The modules of kallisti's commands among `modules` (cli/app.py's COMMANDS), by command name."""
    from kallisti.cli.app import COMMANDS

    return {name for name, target in COMMANDS.items() if target.split(":")[0] in modules}


def test_a_command_imports_its_own_module_and_no_other_commands():
    assert command_modules(modules_after(["list"])) == {"list"}
    assert command_modules(modules_after(["validate", "--help"])) == {"validate"}
    assert command_modules(modules_after(["--version"])) == set()


def test_the_top_help_lists_every_command_in_order_by_its_summary_importing_none():
    from typer.testing import CliRunner

    from kallisti.cli.app import COMMANDS, SUMMARIES, app

    shown = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "200"}).output
    listed = [line.split()[1] for line in shown.splitlines() if line.startswith("│ ") and len(line.split()) > 2]
    assert [name for name in listed if not name.startswith("-")] == list(COMMANDS)
    assert list(SUMMARIES) == list(COMMANDS)
    assert command_modules(modules_after(["--help"])) == set()


@pytest.mark.parametrize("columns", ["200", "80"])
def test_the_summaries_read_as_each_commands_own_help(columns):
    # The top help lists SUMMARIES; with no summary each command is imported and listed by its own help: both read
    # the same, at any width.
    from unittest import mock

    from typer.testing import CliRunner

    from kallisti.cli.app import KallistiGroup, app

    summarised = CliRunner().invoke(app, ["--help"], env={"COLUMNS": columns}).output
    with mock.patch.object(KallistiGroup, "lazy_summaries", {}):
        own = CliRunner().invoke(app, ["--help"], env={"COLUMNS": columns}).output
    assert summarised == own and "Play a game in text mode" in own


# -- the top help drawn without typer.rich_utils (cli/tophelp.py) -------------------------------------------------

def test_the_top_help_imports_neither_typers_rich_help_nor_markdown():
    for argv in (["--help"], []):  # `kallisti` alone shows the same help
        modules = modules_after(argv)
        assert "kallisti.cli.tophelp" in modules
        assert not {"typer.rich_utils", "rich.markdown", "markdown_it", "pygments"} & modules


def help_output(argv: list[str], env: dict[str, str], typers: bool, terminal: bool = False) -> tuple[bytes, int]:
    """What `kallisti ARGV` writes on standard output, and its status, drawn here (tophelp) or by typer (`typers`),
    in a fresh interpreter whose output is a pipe, or a terminal (`terminal`, a pseudo-terminal)."""
    code = ("import sys\n"
            "from kallisti.cli import tophelp\n"
            + ("tophelp.applies = lambda group: False\n" if typers else "")  # typer's path, no-args included
            + f"sys.argv = ['kallisti', *{argv!r}]\n"
            "from kallisti.cli.app import main\n"
            "main()\n")
    argv = [sys.executable, "-c", code]
    env = {**{k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR", "TERM", "COLUMNS")}, **env}
    if not terminal:
        done = subprocess.run(argv, capture_output=True, stdin=subprocess.DEVNULL, env=env)
        assert done.stderr == b""
        return done.stdout, done.returncode
    pty = pytest.importorskip("pty")
    main, child = pty.openpty()
    process = subprocess.Popen(argv, stdout=child, stderr=child, stdin=subprocess.DEVNULL, env=env)
    os.close(child)
    out = b""
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the child's side is closed
            break
        if not chunk:
            break
        out += chunk
    os.close(main)
    return out, process.wait()


@pytest.mark.parametrize("colour", [False, True])
@pytest.mark.parametrize("columns", ["40", "80", "100", "200"])
def test_the_top_help_reads_byte_for_byte_as_typer_draws_it(columns, colour):
    env = {"COLUMNS": columns, **({"FORCE_COLOR": "1"} if colour else {})}
    ours = help_output(["--help"], env, typers=False)
    assert ours == help_output(["--help"], env, typers=True)
    assert (b"\x1b[" in ours[0]) == colour and b"Commands" in ours[0]


@pytest.mark.parametrize("env", [{"NO_COLOR": "1", "FORCE_COLOR": "1"}, {"TERM": "dumb", "FORCE_COLOR": "1"},
                                 {"TERMINAL_WIDTH": "50"}, {"FORCE_COLOR": "1", "COLORTERM": "truecolor"}])
def test_the_top_help_honours_the_environment_as_typer_does(env):
    assert help_output(["--help"], env, typers=False) == help_output(["--help"], env, typers=True)


@pytest.mark.parametrize("env", [{}, {"COLUMNS": "60"}, {"TERM": "dumb"}])
def test_the_top_help_in_a_terminal_reads_as_typer_draws_it(env):
    ours = help_output(["--help"], env, typers=False, terminal=True)
    assert ours == help_output(["--help"], env, typers=True, terminal=True)
    assert (b"\x1b[" in ours[0]) == ("TERM" not in env)


def test_kallisti_alone_prints_the_help_and_exits_2_as_typer_does():
    ours = help_output([], {"COLUMNS": "100"}, typers=False)
    assert ours == help_output([], {"COLUMNS": "100"}, typers=True)
    assert ours[1] == 2 and b"Usage" in ours[0]


def demo_group():
    """A typer group using what the top help may hold: arguments and options in panels of their own, a required
    option, a range, an env var, defaults, a flag pair, a short name; help in paragraphs with `code` spans."""
    import typer

    app = typer.Typer(help="Demo: a `code` span and\na second line.\n\nMore, dimmed, with `x --y`.\n\nAnd a third.",
                      epilog="Ends here.\n\nSee `demo COMMAND --help`.", rich_markup_mode="markdown",
                      add_completion=False)

    @app.callback()
    def options(
        name: str = typer.Argument("n", metavar="NAME", help="The name."),
        other: str = typer.Argument("o", help="Another, in a panel.", rich_help_panel="Inputs"),
        count: int = typer.Option(3, "--count", "-c", min=1, max=9, help="How many.", show_default=True),
        token: str = typer.Option(..., "--token", envvar="DEMO_TOKEN", show_envvar=True, help="Needed."),
        fast: bool = typer.Option(True, "--fast/--slow", help="Go fast,\n\nor slow.", rich_help_panel="Tuning"),
        level: int = typer.Option(0, "--level", show_default="none"),
    ) -> None:
        pass

    @app.command("alpha")
    def alpha() -> None:
        """The first command, its help `long` enough to wrap at forty columns.

        Not shown in the listing."""

    @app.command("beta-command", rich_help_panel="More")
    def beta() -> None:
        """The second, in a panel of its own."""

    return typer.main.get_command(app)


@pytest.mark.parametrize("colour", [False, True])
@pytest.mark.parametrize("columns", ["40", "100"])
def test_a_group_with_more_reads_as_typers_help(monkeypatch, capsys, columns, colour):
    from typer import rich_utils

    from kallisti.cli import tophelp

    monkeypatch.setenv("COLUMNS", columns)
    monkeypatch.setattr(rich_utils, "FORCE_TERMINAL", True if colour else None)
    if colour:
        monkeypatch.setenv("FORCE_COLOR", "1")
    else:
        monkeypatch.delenv("FORCE_COLOR", raising=False)
    group = demo_group()
    ctx = group.make_context("demo", [], resilient_parsing=True)
    layout = tophelp._layout(group, ctx)
    assert layout is not None and [name for name, _ in layout.param_panels] == ["Arguments", "Inputs", "Options",
                                                                                "Tuning"]
    tophelp._print(layout)
    ours = capsys.readouterr().out
    rich_utils.rich_format_help(obj=group, ctx=ctx, markup_mode="markdown")
    assert ours == capsys.readouterr().out
    assert ("\x1b[" in ours) == colour and "Tuning" in ours and "More" in ours


PLAIN = ["One line.", "Two\nlines.", "Spaces  inside   kept.", "A `code` span, and `two` of them.",
         "`leading` code", "Ends with `code`", "Trailing space \nbroken softly.", "Lines\n  indented after.",
         "First.\n\nSecond paragraph.\n\n\nThird.", "Odd: 1984 > 3 + 2 = 5 - 0, 100% #1 {x} @y $z ^w !",
         "(paren) \"quoted\" 'single'", "file:line:column", "Now :smile: please", "Wide: 漢字 and é.",
         "Code with signs: `a*b_c [d] <e> &amp; \\f`", "Tab\there", "    indented alone",
         "See https://example.com/x?a=1 and www.example.com."]
MARKED = ["*em*", "a_b", "[link](x)", "<b>", "&amp;", "back\\slash", "~~gone~~", "a | b", "- item", "+ item",
          "1. item", "2) item", "# head", "> quote", "Para\n\n    code\nafter", "Hard  \nbreak", "`open", "`` two ``",
          "` spaced `", "Title\n===", "No-break space last\xa0", "Then\n\nends\u2003"]


@pytest.mark.parametrize("text", PLAIN)
def test_plain_markdown_is_drawn_as_typer_draws_it(text):
    # typer's own reading of a help text: dedented, emoji codes replaced, then rich's Markdown
    from rich.console import Console
    from typer.rich_utils import _make_rich_text

    from kallisti.cli.tophelp import Paragraphs, markdown

    paragraphs = markdown(text)
    assert paragraphs is not None
    for style in ("", "dim"):
        for width in (12, 80):
            console = Console(width=width, force_terminal=True, color_system="truecolor")
            ours = list(console.render(Paragraphs(paragraphs, style)))
            theirs = list(console.render(_make_rich_text(text=text, style=style, markup_mode="markdown")))
            assert ours == theirs


@pytest.mark.parametrize("text", MARKED)
def test_markdown_beyond_plain_paragraphs_is_left_to_typer(text):
    from kallisti.cli.tophelp import markdown

    assert markdown(text) is None


def test_no_command_imports_pydantic():
    # typer 0.29 converts every option's value through a pydantic TypeAdapter, which doubles the start-up of a command
    # given a value (pyproject.toml keeps typer below it): no command, with values or without, imports pydantic.
    assert "pydantic" not in modules_after(["--help"], ["list"], ["list", "--help"], ["--version"],
                                           ["show", "forty-thieves"], ["validate", "--format", "json", "forty-thieves"],
                                           ["play", "forty-thieves", "--seed", "1"])


def test_an_unknown_command_is_refused_with_the_commands_known():
    from typer.testing import CliRunner

    from kallisti.cli.app import app

    done = CliRunner().invoke(app, ["lst"])
    assert done.exit_code == 2
    assert "No such command 'lst'" in done.output


# -- `list`: the titles without the loader ------------------------------------------------------------------------

def loaders_heading(path: Path) -> dict:
    data, _ = parse_file(path)
    return {key: data[key] for key in ("game", "extends") if key in data}


@pytest.mark.parametrize("name", sorted(shipped_games()))
def test_every_shipped_heading_is_read_quickly_and_as_the_loader_reads_it(name):
    path = shipped_games()[name]
    text = path.read_text(encoding="utf-8")
    quick = _rules_heading(text) if path.suffix == ".rules" else _yaml_heading(text)
    assert quick is not None, "the quick reading passed this shipped file to the loader"
    assert quick == loaders_heading(path)


@pytest.mark.parametrize("text", [
    "game: Plain Title\nextends: forty-thieves\n",
    'game: "Quoted: with a colon"\n',
    "game: 'single quoted'\nextends: 'forty-thieves'\n",
    "# a comment\ngame: Title  # and a trailing one\n",
    "game: >\n  Folded\n  title\n",
    "description: \"a long text\ngame: not a key\"\ngame: Real\n",
    "description: [a,\ngame: not a key]\ngame: Real\n",
    "game: yes\n",
    "game: 1984\n",
    "game: null\n",
    "extends: 2\ngame: Two\n",
    "game: !!str tagged\n",
    "piles:\n  game: nested, not the title\n",
    "game: &t Anchored\nother: *t\n",
])
def test_a_yaml_heading_is_the_loaders_or_left_to_it(tmp_path, text):
    path = tmp_path / "case.yaml"
    path.write_text(text, encoding="utf-8")
    quick = _yaml_heading(text)
    assert quick is None or quick == loaders_heading(path)
    assert outcome(heading, path) == outcome(loaders_heading, path)


def outcome(read, path: Path):
    """What `read(path)` gives, or the codes of the findings it refuses the file with."""
    from kallisti.errors import KallistiError

    try:
        return read(path)
    except KallistiError as exc:
        return [f.code for f in exc.findings]


@pytest.mark.parametrize("text, settled", [
    ("game: Plain Title\nextends forty-thieves\n", True),
    ("# Shortcut: a comment first\ngame:Tight\n", True),
    ('game: "Quoted Title"\n', False),
    ("game: C# Minor\n", False),
    ("game: Title # a comment\n", False),
    ('extends "forty-thieves"\n', False),
])
def test_a_rules_heading_is_the_loaders_or_left_to_it(tmp_path, text, settled):
    path = tmp_path / "case.rules"
    path.write_text(text, encoding="utf-8")
    quick = _rules_heading(text)
    assert (quick is not None) == settled
    assert heading(path) == loaders_heading(path)
    if settled:
        assert quick == loaders_heading(path)


def test_a_heading_given_twice_is_left_to_the_loader_which_refuses_it(tmp_path):
    from kallisti.errors import KallistiError

    for name, text in [("twice.yaml", "game: A\ngame: B\n"), ("twice.rules", "game: A\ngame: B\n")]:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        assert (_rules_heading(text) if name.endswith(".rules") else _yaml_heading(text)) is None
        with pytest.raises(KallistiError):
            heading(path)


# -- the defaults --help shows are the solver's -------------------------------------------------------------------

def test_the_help_defaults_are_the_solvers_own():
    from kallisti.cli import defaults
    from kallisti.cli.solve import Search
    from kallisti.solver import simulate, solve, winnability

    assert defaults.DEFAULT_CAP == simulate.DEFAULT_CAP
    assert defaults.DEFAULT_STATES == solve.DEFAULT_STATES
    assert defaults.DEFAULT_MEMORY == solve.MAX_TABLE
    assert defaults.CHEAP == winnability.CHEAP
    assert [s.value for s in Search] == [solve.PORTFOLIO, solve.DEPTH_FIRST, solve.BEST_FIRST]


# -- the parser cache ---------------------------------------------------------------------------------------------

RULES_OPTIONS = dict(parser="lalr", lexer="contextual", start=["statement", "value_expr"], propagate_positions=True,
                     maybe_placeholders=True)
SAMPLES = ["game: Forty Thieves", "extends forty-thieves", 'tableau: 10 piles, deal 4 face up, build down in suit',
           "game Forty", "win when count(foundation) == 104 and x"]


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    """An empty cache of the user's own, with the cache on."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv(cache.NO_CACHE, raising=False)
    return tmp_path / "kallisti"


def parses(parser) -> list:
    """What `parser` makes of each sample, every position included (rule names as text: Lark's own saved tables
    keep no Token for a rule's name either), or the error it raises."""
    from lark import Token, Tree
    from lark.exceptions import UnexpectedInput

    def shape(node):
        if isinstance(node, Tree):
            return (str(node.data), node.meta.line, node.meta.column, node.meta.end_column, [shape(c) for c in node.children])
        if isinstance(node, Token):
            return (node.type, str(node), node.line, node.column)
        return node

    out = []
    for text in SAMPLES:
        try:
            out.append(shape(parser.parse(text, start="statement")))
        except UnexpectedInput as exc:
            out.append((type(exc).__name__, exc.line, exc.column, sorted(getattr(exc, "expected", ()) or ())))
    return out


def kept(cache_home: Path) -> list[Path]:
    return sorted(cache_home.glob("lark-*.json"))


def test_a_kept_parser_parses_as_a_freshly_built_one(cache_home, monkeypatch):
    first = cache.lark_parser("rules.lark", **RULES_OPTIONS)  # built, and kept
    [file] = kept(cache_home)
    loaded = cache.lark_parser("rules.lark", **RULES_OPTIONS)
    monkeypatch.setenv(cache.NO_CACHE, "1")
    fresh = cache.lark_parser("rules.lark", **RULES_OPTIONS)
    assert first.source_path != "<deserialized>" and loaded.source_path == "<deserialized>"
    assert kept(cache_home) == [file]
    assert parses(loaded) == parses(fresh) == parses(first)
    assert {t.name: t.pattern.value for t in loaded.terminals} == {t.name: t.pattern.value for t in fresh.terminals}


def test_the_cache_holds_json_of_the_users_own_never_a_pickle(cache_home):
    cache.lark_parser("expr.lark", parser="lalr")
    [file] = kept(cache_home)
    record = json.loads(file.read_text(encoding="utf-8"))
    assert set(record) == {"key", "tables"} and file.name == f"lark-expr-{record['key'][:32]}.json"
    assert file.stat().st_mode & 0o077 == 0 and cache_home.stat().st_mode & 0o022 == 0
    assert list(cache_home.glob(".*")) == []  # no temporary file left


@pytest.mark.parametrize("damage", ["garbage", "truncated", "other key", "empty"])
def test_a_broken_cache_file_is_passed_over_and_replaced(cache_home, damage):
    cache.lark_parser("expr.lark", parser="lalr")
    [file] = kept(cache_home)
    good = file.read_text(encoding="utf-8")
    bad = {"garbage": "\x00not json", "truncated": good[: len(good) // 2], "empty": "",
           "other key": json.dumps({**json.loads(good), "key": "0" * 64})}[damage]
    file.write_text(bad, encoding="utf-8")
    file.chmod(0o600)
    parser = cache.lark_parser("expr.lark", parser="lalr")
    assert parser.source_path != "<deserialized>" and parser.parse("1 + 2") is not None  # built afresh
    assert file.read_text(encoding="utf-8") != bad
    assert cache._load(file, json.loads(good)["key"]) is not None


def test_a_cache_folder_others_may_write_to_is_not_used(cache_home):
    cache_home.mkdir(mode=0o700)
    cache_home.chmod(0o777)
    assert cache.cache_folder() is None
    cache.lark_parser("expr.lark", parser="lalr")
    assert kept(cache_home) == []


def test_a_cache_file_others_may_write_to_or_a_link_is_not_read(cache_home, tmp_path):
    cache.lark_parser("expr.lark", parser="lalr")
    [file] = kept(cache_home)
    good = file.read_text(encoding="utf-8")
    key = json.loads(good)["key"]
    file.chmod(0o666)
    assert cache._load(file, key) is None
    file.chmod(0o600)
    assert cache._load(file, key) is not None
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text(good, encoding="utf-8")
    elsewhere.chmod(0o600)
    file.unlink()
    file.symlink_to(elsewhere)
    assert cache._load(file, key) is None


def test_no_cache_is_kept_when_it_is_turned_off(cache_home, monkeypatch):
    monkeypatch.setenv(cache.NO_CACHE, "1")
    cache.lark_parser("expr.lark", parser="lalr")
    assert not cache_home.exists()


def test_an_edited_grammar_has_another_key_and_old_keys_are_pruned(cache_home, tmp_path, monkeypatch):
    grammars = tmp_path / "grammar"
    grammars.mkdir()
    for path in cache.HERE.glob("*.lark"):
        (grammars / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(cache, "HERE", grammars)
    before = cache._key("expr.lark", {"parser": "lalr"})
    keys = []
    for n in range(cache.KEPT_PER_GRAMMAR + 2):
        with (grammars / "expr.lark").open("a", encoding="utf-8") as fh:
            fh.write(f"\n// edit {n}\n")
        keys.append(cache._key("expr.lark", {"parser": "lalr"}))
        cache.lark_parser("expr.lark", parser="lalr")
        os.utime(cache_home / f"lark-expr-{keys[-1][:32]}.json", (1_000_000 + n, 1_000_000 + n))
    assert before not in keys and len(set(keys)) == len(keys)
    assert [p.name for p in kept(cache_home)] == sorted(f"lark-expr-{k[:32]}.json" for k in keys[-cache.KEPT_PER_GRAMMAR:])


def test_values_json_cannot_hold_come_back_as_they_were():
    from lark.lexer import Token

    value = {"data": [(1, "a"), {2: (3, None)}], "memo": {0: {"(": True, "{": 1.5, "'": Token("RULE", "x")}}, "(": ["x"]}
    back = json.loads(json.dumps(cache._encoded(value)), object_hook=cache._decoded)
    assert back == value and repr(back) == repr(value)
