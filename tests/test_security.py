"""The security contract (docs/security.md), as tests: rule text never runs code nor reads outside the card and pile
vocabulary, files are read only where they may be, hostile text never reaches a terminal, and the CLI answers every
hostile input in tests/hostile/ with a finding and exit 1 or 2, never a traceback."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kallisti.cli.app import app
from kallisti.errors import Finding, KallistiError, Pos
from kallisti.interpreter import compiler as C
from kallisti.model.ruleset import load_ruleset
from harness import output_of

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "kallisti"
HOSTILE = Path(__file__).parent / "hostile"
EXPECT = re.compile(r"^# expect: (\d+):(\d+) ([a-z][a-z0-9-]*)$")
runner = CliRunner()


def source_trees():
    for path in sorted(SRC.rglob("*.py")):
        yield path.relative_to(ROOT), ast.parse(path.read_text(encoding="utf-8"))


def dotted(node) -> str:
    """`yaml.load` for an Attribute chain, `eval` for a Name, else ''."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = dotted(node.value)
        return f"{inner}.{node.attr}" if inner else ""
    return ""


# -- no code is ever run from input ------------------------------------------------------------------------------

FORBIDDEN_CALLS = {"eval", "exec", "compile", "__import__", "breakpoint", "pickle.load", "pickle.loads", "marshal.load",
                   "marshal.loads", "yaml.load", "yaml.load_all", "yaml.full_load", "yaml.full_load_all", "yaml.unsafe_load",
                   "yaml.unsafe_load_all", "os.system", "os.popen", "subprocess.run", "subprocess.Popen", "subprocess.call",
                   "subprocess.check_output", "subprocess.check_call"}
UNSAFE_YAML = {"yaml.Loader", "yaml.FullLoader", "yaml.UnsafeLoader", "yaml.Constructor", "yaml.FullConstructor",
               "yaml.UnsafeConstructor", "yaml.add_constructor", "yaml.add_multi_constructor"}


def test_no_eval_exec_unsafe_yaml_pickle_or_shell_anywhere_in_the_package():
    found = []
    for path, tree in source_trees():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and dotted(node.func) in FORBIDDEN_CALLS:
                found.append(f"{path}:{node.lineno}: {dotted(node.func)}()")
            if isinstance(node, (ast.Attribute, ast.Name)) and dotted(node) in UNSAFE_YAML:
                found.append(f"{path}:{node.lineno}: {dotted(node)}")
            if isinstance(node, ast.keyword) and node.arg == "shell":
                found.append(f"{path}:{node.value.lineno}: shell=")
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] + ([node.module] if isinstance(node, ast.ImportFrom) and node.module else [])
                if any(n.split(".")[0] in ("pickle", "marshal", "shelve", "dill") for n in names):
                    found.append(f"{path}:{node.lineno}: imports {names}")
    assert found == []


def test_the_yaml_loader_is_a_safe_loader():
    from kallisti.located import _Loader
    import yaml

    # libyaml's parser or PyYAML's, always with the safe constructor: plain scalars, maps and lists, never objects
    assert issubclass(_Loader, yaml.constructor.SafeConstructor)
    assert not issubclass(_Loader, (yaml.constructor.FullConstructor, yaml.constructor.UnsafeConstructor))
    assert _Loader.yaml_constructors is yaml.SafeLoader.yaml_constructors


def test_a_python_tag_builds_nothing():
    from kallisti.located import load_yaml

    with pytest.raises(KallistiError) as caught:  # refused at the tag, before any value is built
        load_yaml("game: !!python/object/apply:os.system ['echo owned']\n", "<test>")
    assert [(f.code, f.pos.line, f.pos.column) for f in caught.value.findings] == [("yaml-tag", 1, 7)]


def string_dicts(tree) -> set[str]:
    """Names assigned a dict literal whose every value is a string constant or None (message templates)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict):
            if all(isinstance(v, ast.Constant) and isinstance(v.value, (str, type(None))) for v in node.value.values):
                out |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return out


def test_no_text_but_the_programs_own_is_used_as_a_format_string():
    """`str.format` on a text from a ruleset would let `{0.__class__.__init__.__globals__}` read Python's internals:
    every `.format` receiver is a literal or a template of a dict of literals written in the same module."""
    found = []
    for path, tree in source_trees():
        templates = string_dicts(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("format", "format_map"):
                receiver = node.func.value
                literal = isinstance(receiver, ast.Constant) and isinstance(receiver.value, str)
                template = isinstance(receiver, ast.Subscript) and isinstance(receiver.value, ast.Name) and receiver.value.id in templates
                if not (literal or template):
                    found.append(f"{path}:{node.lineno}")
    assert found == []


def test_format_fields_in_a_ruleset_are_printed_as_written(tmp_path):
    path = tmp_path / "fields.yaml"
    path.write_text('extends: forty-thieves\ngame: "{0.__class__} {} %s"\nchanges:\n  - {forbid: piles.tableau.build, '
                    'id: no-kings, expr: card.rank == K, says: "{0.__class__.__init__.__globals__}"}\n', encoding="utf-8")
    result = runner.invoke(app, ["show", str(path)])
    assert result.exit_code == 0, result.output
    assert "{0.__class__} {} %s" in result.output
    assert "{0.__class__.__init__.__globals__}" in result.output


# -- the one checked access point of rule text ---------------------------------------------------------------------

# The vocabulary each type offers, as docs/language.md lists it: everything else is refused.
VOCABULARY = [  # (an expression of the type, the scope it is written in, the attributes the type offers)
    ("card", "BUILD_SCOPE", ["rank", "suit", "family", "color", "colour", "value", "values", "marks", "pack", "face_up"]),
    ("pile", "BUILD_SCOPE", ["size", "empty", "top", "face_up", "face_down", "cards", "index"]),
    ("tableau", "STATE_SCOPE", ["size", "count", "empty", "piles"]),
    ("cards", "BUILD_SCOPE", ["size", "top", "bottom"]),
    ("deck", "STATE_SCOPE", ["size", "packs"]),
    ("count", "BUILD_SCOPE", []),
    ("card.rank", "BUILD_SCOPE", []),
    ('"text"', "BUILD_SCOPE", []),
]
HOSTILE_NAMES = ["__class__", "__dict__", "__globals__", "__init__", "__subclasses__", "__code__", "__builtins__", "__len__",
                 "__getattribute__", "mro", "state", "game", "fn", "locals", "real", "imag", "bit_length", "append", "pop",
                 "keys", "format", "encode", "lookup", "deck", "rules", "compiler"]


@pytest.fixture(scope="module")
def compiler():
    return load_ruleset("forty-thieves").compiler


def compile_text(compiler, text, scope):
    return compiler.compile(text, Pos("<test>", 1, 1), scope, want=None)


@pytest.mark.parametrize("obj, scope, names", VOCABULARY, ids=[v[0] for v in VOCABULARY])
def test_the_attribute_chokepoint_allows_only_its_vocabulary(compiler, obj, scope, names):
    scope = getattr(C, scope)
    for name in names:
        compile_text(compiler, f"{obj}.{name}", scope)
    for name in HOSTILE_NAMES:
        with pytest.raises(KallistiError) as caught:
            compile_text(compiler, f"{obj}.{name}", scope)
        assert caught.value.findings[0].code == "unknown-attribute", f"{obj}.{name}"


def test_every_attribute_of_rule_text_passes_through_one_method():
    """`Compiler._attribute` is the chokepoint: the Attr node's handler is its only caller, and the compiler reads no
    attribute by a name it was given (its one `getattr` dispatches on the node's own class)."""
    parts = [SRC / "interpreter" / "compiler.py", *sorted((SRC / "interpreter").glob("expr_*.py"))]
    assert len(parts) > 1  # the compiler and the modules split from it (its vocabulary, cost model, runtime)
    tree = ast.Module(body=[node for path in parts for node in ast.parse(path.read_text(encoding="utf-8")).body],
                      type_ignores=[])
    callers = [f.name for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)
               for n in ast.walk(f) if isinstance(n, ast.Call) and dotted(n.func) == "self._attribute"]
    assert callers == ["_c_Attr"]
    getattrs = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and dotted(n.func) in ("getattr", "setattr", "vars")]
    assert len(getattrs) == 1 and ast.unparse(getattrs[0]) == "getattr(self, '_c_' + type(node).__name__)"


@pytest.mark.parametrize("text, code", [
    ("__import__", "unknown-name"),
    ("__import__(os)", "unknown-function"),
    ("__builtins__", "unknown-name"),
    ("eval(card)", "unknown-function"),
    ("card.__class__.__subclasses__", "unknown-attribute"),
    ("9**9**9", "expr-syntax"),
    ('"ab" * 999999999', "expr-type"),
    ("[1, 2] * 999999999", "expr-type"),
    ("card * 999999999", "expr-type"),
    ("{0.__class__}", "expr-syntax"),
    ("card.rank == first; import os", "expr-syntax"),
    ("lambda: 1", "expr-syntax"),
])
def test_hostile_expressions_are_refused(compiler, text, code):
    with pytest.raises(KallistiError) as caught:
        compile_text(compiler, text, C.BUILD_SCOPE)
    assert caught.value.findings[0].code == code


# -- control characters and bidirectional controls --------------------------------------------------------------

@pytest.mark.parametrize("char", ["\x00", "\x07", "\x1b", "\x7f", "\x9b", "\u202e", "\u2066", "\u2069"])
def test_a_finding_never_prints_a_control_character(char):
    finding = Finding("schema", f"bad {char}name", Pos(f"file{char}.yaml", 1, 1), suggestion=f"not {char}", excerpt=f"x{char}")
    text = str(finding)
    assert char not in text
    assert f"<U+{ord(char):04X}>" in text


@pytest.mark.parametrize("where", ["game: \"X{c}\"", "description: \"X{c}\"", "deck: {{suits: [{{name: clubs, color: black, symbol: \"{c}\"}}]}}",
                                   "honour: {{x: {{at: before-deal, says: \"dance{c}\"}}}}"])
@pytest.mark.parametrize("escape", ["\\e", "\\a", "\\0", "\\u202e", "\\x9b"])
def test_escaped_control_characters_in_any_text_of_a_ruleset_are_refused(tmp_path, where, escape):
    path = tmp_path / "escaped.yaml"
    path.write_text("extends: forty-thieves\n" + where.format(c=escape) + "\n", encoding="utf-8")
    with pytest.raises(KallistiError) as caught:
        load_ruleset(path)
    assert caught.value.findings[0].code == "control-char"


@pytest.mark.parametrize("change", ['set game "X\\u001b[2J"', 'set game "X\u202e"', "set game \"X\x07\"",
                                    'forbid tableau.build "no kings": card.rank == K\n    "says \\u202e"'])
def test_a_rule_change_with_a_control_character_is_refused_and_changes_nothing(change):
    from kallisti.interpreter import amend

    rules = load_ruleset("forty-thieves")
    before = amend.data_key(rules.data)
    with pytest.raises(KallistiError) as caught:
        amend.amend(rules.data, change, baseline=rules)
    assert caught.value.findings[0].code == "control-char"
    assert amend.data_key(rules.data) == before


def test_right_to_left_marks_stay_allowed(tmp_path):
    path = tmp_path / "marks.yaml"
    path.write_text("extends: forty-thieves\ngame: \"\u05e2\u05d1\u05e8\u05d9\u05ea\u200f Thieves\"\n", encoding="utf-8")
    assert load_ruleset(path).name.endswith("Thieves")


# -- extends: path tricks ------------------------------------------------------------------------------------------

def extends_finding(folder: Path, ref: str) -> Finding:
    path = folder / "variant.yaml"
    path.write_text(f"extends: {ref}\ngame: Variant\n", encoding="utf-8")
    with pytest.raises(KallistiError) as caught:
        load_ruleset(path)
    return caught.value.findings[0]


def test_a_symlink_leaving_the_folder_is_refused(tmp_path):
    outside = tmp_path / "outside.yaml"
    outside.write_text("extends: forty-thieves\ngame: Outside\n", encoding="utf-8")
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "inside.yaml").symlink_to(outside)
    assert extends_finding(tmp_path / "rules", "./inside.yaml").code == "extends-path"


def test_a_symlink_to_a_device_is_refused(tmp_path):
    (tmp_path / "zero.yaml").symlink_to("/dev/zero")
    assert extends_finding(tmp_path, "./zero.yaml").code == "extends-path"


def test_a_fifo_or_a_folder_inside_the_folder_is_no_parent(tmp_path):
    os.mkfifo(tmp_path / "pipe.yaml")
    (tmp_path / "dir.yaml").mkdir()
    assert extends_finding(tmp_path, "./pipe.yaml").code == "unknown-game"  # never opened: it would wait for a writer
    assert extends_finding(tmp_path, "./dir.yaml").code == "unknown-game"


@pytest.mark.parametrize("ref", ["/etc/passwd", "/dev/zero", "~/.profile", "../outside.yaml", "sub/../../outside.yaml"])
def test_an_absolute_home_or_escaping_parent_is_refused(tmp_path, ref):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "sub").mkdir()
    (tmp_path / "outside.yaml").write_text("extends: forty-thieves\ngame: Outside\n", encoding="utf-8")
    assert extends_finding(tmp_path / "rules", ref).code == "extends-path"


def test_a_two_file_cycle_is_refused(tmp_path):
    (tmp_path / "a.yaml").write_text("extends: ./b.yaml\ngame: A\n", encoding="utf-8")
    (tmp_path / "b.yaml").write_text("extends: ./a.yaml\ngame: B\n", encoding="utf-8")
    with pytest.raises(KallistiError) as caught:
        load_ruleset(tmp_path / "a.yaml")
    assert caught.value.findings[0].code == "extends-cycle"


# -- the CLI never prints a traceback ------------------------------------------------------------------------------

def hostile_files() -> list[Path]:
    return sorted(p for p in HOSTILE.iterdir() if p.is_file() and p.suffix in (".yaml", ".yml", ".rules"))


def expected(path: Path) -> tuple[int, int, str]:
    first = path.read_bytes().decode("utf-8", errors="replace").splitlines()[0]
    match = EXPECT.match(first)
    assert match, f"{path.name}: the first line must be `# expect: LINE:COLUMN CODE`"
    return int(match[1]), int(match[2]), match[3]


def assert_refused(result, path: Path, exact: bool) -> None:
    line, column, code = expected(path)
    out = output_of(result)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in (1, 2), out
    assert "Traceback" not in out
    wanted = f"{path.name}:{line}:{column}: error {code}:" if exact else f"error {code}:"
    assert wanted in out, out


def test_there_are_hostile_examples():
    assert len(hostile_files()) >= 20
    codes = {expected(p)[2] for p in hostile_files()}
    assert {"control-char", "yaml-alias", "extends-path", "expr-too-costly", "number-too-long"} <= codes


@pytest.mark.parametrize("path", hostile_files(), ids=lambda p: p.name)
def test_validate_refuses_a_hostile_file_where_it_is(path):
    assert_refused(runner.invoke(app, ["validate", str(path)]), path, exact=True)


@pytest.mark.parametrize("path", hostile_files(), ids=lambda p: p.name)
def test_play_refuses_a_hostile_file(path):
    assert_refused(runner.invoke(app, ["play", str(path), "--seed", "1"], input="t1 f\nq\n"), path, exact=False)


@pytest.mark.parametrize("path", hostile_files(), ids=lambda p: p.name)
def test_check_refuses_a_hostile_file(path):
    assert_refused(runner.invoke(app, ["check", str(path), "--deals", "1"]), path, exact=True)


def run_kallisti(*args: str, stdin: bytes = b"q\n") -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONIOENCODING="utf-8", NO_COLOR="1")
    return subprocess.run([sys.executable, "-m", "kallisti", *args], input=stdin, capture_output=True, cwd=ROOT, env=env,
                          timeout=300)


@pytest.mark.parametrize("name", ["nul-byte.yaml", "long-number.rules", "deep-nesting.yaml", "escape-in-name.yaml"])
def test_a_real_process_refuses_a_hostile_file_without_a_traceback(name):
    for command in (["validate"], ["play"], ["check", "--deals", "1"]):
        proc = run_kallisti(*command, str(HOSTILE / name))
        out = (proc.stdout + proc.stderr).decode("utf-8")
        assert proc.returncode in (1, 2), out
        assert "Traceback" not in out and "\x1b" not in out and "\x00" not in out
        assert f"error {expected(HOSTILE / name)[2]}:" in out


@pytest.mark.parametrize("args", [["validate", "/dev/zero"], ["play", "/dev/zero"], ["play", "forty-thieves", "--deal", "/dev/zero"],
                                  ["play", "forty-thieves", "--deal", "/"], ["play", "forty-thieves", "--load", "/dev/zero"]])
def test_devices_and_folders_named_on_the_command_line_are_refused(args):
    result = runner.invoke(app, args, input="q\n")
    out = output_of(result)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in (1, 2) and "Traceback" not in out


@pytest.mark.parametrize("game, line", [
    ("forty-thieves", "t1 t2 \u00b2"),  # a superscript two: str.isdigit says yes, int() says no
    ("forty-thieves", "t1 t2 " + "9" * 5000),
    ("decade", "l " + "9" * 5000),
    ("decade", "l 1-" + "9" * 5000),
    ("forty-thieves", "t1 \x1b[2J"),
    ("forty-thieves", 'rule set game "\\u001b[2J"'),
    ("forty-thieves", 'rule forbid tableau.build "x": card.__class__ == 1'),
    ("forty-thieves", "rule set piles.tableau.count " + "9" * 5000),
    ("forty-thieves", "rule set piles.tableau.99999999999999999999.count 1"),
])
def test_a_hostile_command_piped_to_play_is_refused_and_play_goes_on(game, line):
    result = runner.invoke(app, ["play", game, "--seed", "1"], input=f"{line}\nq\n")
    out = output_of(result)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 4, out  # quit at the `q` that follows: the hostile line did not end the session
    assert "Traceback" not in out and "\x1b[2J" not in out


@pytest.mark.parametrize("line", ["new \u00b2", "new " + "9" * 5000])
def test_a_hostile_new_command_is_refused(line):
    result = runner.invoke(app, ["play", "forty-thieves", "--seed", "1"], input=f"{line}\nq\n")
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 4


def test_a_piped_line_over_the_command_limit_is_refused_and_play_goes_on():
    from kallisti.cli.command_lines import MAX_COMMAND_CHARS

    result = runner.invoke(app, ["play", "forty-thieves", "--seed", "1"], input="t1 " * MAX_COMMAND_CHARS + "\nq\n")
    assert result.exit_code == 4, result.output[-300:]
    assert f"a command is at most {MAX_COMMAND_CHARS:,} characters" in result.output


def test_bytes_that_are_not_utf8_on_standard_input_are_a_refused_command():
    result = runner.invoke(app, ["play", "forty-thieves", "--seed", "1"], input=b"t1 \xff\xfe\nq\n")
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 4 and "Traceback" not in result.output


def test_a_win_rule_that_fails_in_play_stops_the_game_with_an_error(tmp_path):
    rules = tmp_path / "overflow.rules"
    rules.write_text("extends forty-thieves\ngame: Overflow\n"
                     "win when (foundation.size + 1) * 1000000000 * 1000000000 * 1000000000 > 0\n")
    result = runner.invoke(app, ["play", str(rules), "--seed", "1"], input="moves\nq\n")
    out = output_of(result)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 1, out
    assert "error rule-runtime: a rule failed while the game was played: a product exceeds" in out
    assert "Traceback" not in out
