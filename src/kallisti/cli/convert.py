"""`kallisti convert FILE --to yaml|rules [-o OUT]`: a ruleset written in the other syntax.

The file is read (YAML or `.rules`, by its extension) and checked as `kallisti validate` checks it;
a file that does not load is refused with its findings (exit 1). The file's own data is written —
`extends`, `add` and `changes` as they are, never the resolved game — with its comments, in the
canonical form of the syntax asked for (`to_yaml`, `to_rules`), to standard output or atomically to
OUT. Before anything is written, the text is read back and must give the same data and the same
comments: a conversion never loses anything silently.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from enum import Enum
from pathlib import Path

import typer

from kallisti.errors import Finding, KallistiError, Pos, caret


class Syntax(str, Enum):
    yaml = "yaml"
    rules = "rules"


def syntax_of(path: Path) -> str:
    """The syntax a ruleset file is read in: `.rules` by its extension, YAML otherwise (as the loader does)."""
    return "rules" if Path(path).suffix == ".rules" else "yaml"


# ---- comments where the .rules writer puts them ----------------------------------------------------------
def _push(node, key, notes: list[str]) -> None:
    if notes:
        node.comments.setdefault(key, []).extend(notes)


def _gather(node) -> list[str]:
    """Every comment inside `node`, in the order of the data, taken off the nodes that held them."""
    from kallisti.located import LDict, LList

    out: list[str] = []
    if isinstance(node, LDict):
        for k, v in node.items():
            out += node.comments.pop(k, []) + _gather(v)
    elif isinstance(node, LList):
        for i, v in enumerate(node):
            out += node.comments.pop(i, []) + _gather(v)
    return out


def for_rules(data) -> LDict:
    """A copy of file data whose comments all sit where `to_rules` writes comments.

    The .rules syntax has a line for every key of the file, the deck and a pile group, for each
    item of a rule block, `auto`, `compulsory`, `lose` and `changes`; YAML has a line for every key
    and item at any depth. A comment kept deeper than the .rules syntax goes (inside a clause, a
    `turn` map, a suit…) moves up to the nearest line that has one, so it is written and read back."""
    from kallisti.grammar.rules_writer import lose_text, pattern_text
    from kallisti.located import LDict, copy

    d = copy(data)
    if isinstance(d, LDict):
        _file(d, lose_text, pattern_text)
        first = next(iter(d), None)
        if first is not None and first != "game" and "game" in d and d.comments.get(first):
            # the comments at the head of the file (`# Shortcut: …` above `extends:`) stay at its head,
            # where the .rules writer puts `game:`
            d.comments["game"] = d.comments.pop(first) + d.comments.get("game", [])
    return d


def _file(d: LDict, lose_text, pattern_text) -> None:
    from kallisti.grammar.rules_writer import STATEMENT_WORDS, _WORD, layout_text
    from kallisti.located import LDict, LList

    for key, v in d.items():
        if key == "deck" and isinstance(v, LDict):
            for k in v:
                _push(v, k, _gather(v[k]))
        elif key == "piles" and isinstance(v, LDict) and v:
            for g, group in v.items():
                if isinstance(group, LDict) and isinstance(g, str) and _WORD.fullmatch(g) and g not in STATEMENT_WORDS:
                    _group(group)
                else:
                    _push(v, g, _gather(group))
        elif key in ("auto", "compulsory", "lose") and isinstance(v, LList) and v and \
                all((lose_text(p) if key == "lose" else pattern_text(key, p)) is not None for p in v):
            for i, item in enumerate(v):
                _push(v, i, _gather(item))
            above = d.comments.pop(key, [])
            if above:  # written before the first item's line: it is that item's comment when read back
                v.comments[0] = above + v.comments.get(0, [])
        elif key == "layout" and isinstance(v, LDict) and all(layout_text(g, hint) is not None for g, hint in v.items()):
            for g, hint in v.items():  # one line a hint: a comment on its row, column or fan goes to that line
                _push(v, g, _gather(hint))
        elif key == "changes" and isinstance(v, LList):
            for i, item in enumerate(v):
                _push(v, i, _gather(item))
        elif key == "add" and isinstance(v, LDict) and _add_block(v):
            _file(v, lose_text, pattern_text)
            _push(d, "add", v.comments.pop("", []))
        else:
            _push(d, key, _gather(v))


def _add_block(add: LDict) -> bool:
    """Whether `to_rules` writes `add` as a block of statements (or else on one `set add {…}` line)."""
    from kallisti.grammar.rules_words import TOP_KEYS
    from kallisti.grammar.rules_writer import Unwritable, to_rules

    if not all(k in TOP_KEYS for k in add):
        return False
    try:
        return "add:" in to_rules({"add": add}).splitlines()
    except Unwritable:
        return False


def _group(group: LDict) -> None:
    from kallisti.grammar.rules_words import ROLES
    from kallisti.grammar.rules_writer import rule_block, rule_phrase
    from kallisti.rule_words import RULE_KEYS
    from kallisti.located import LList

    for k, v in group.items():
        if k in RULE_KEYS and isinstance(v, LList) and rule_phrase(k, v) is None and rule_block(v) is not None:
            for i, item in enumerate(v):
                _push(v, i, _gather(item))
        else:
            _push(group, k, _gather(v))
    count, role = group.get("count"), group.get("role")
    if isinstance(count, int) and not isinstance(count, bool) and count >= 0 and role in ROLES and "role" in group.comments:
        # `10 tableau piles` says count and role in one phrase: its comments are the count's
        keys = list(group)
        notes = group.comments.pop("role")
        before = group.comments.get("count", [])
        group.comments["count"] = notes + before if keys.index("role") < keys.index("count") else before + notes


# ---- writing and checking ------------------------------------------------------------------------------
def all_comments(node) -> list[str]:
    """Every comment of file data: of each key and item, and the file's last ones."""
    out: list[str] = []
    if isinstance(node, dict):
        for k, v in node.items():
            out += list(getattr(node, "comments", {}).get(k, ())) + all_comments(v)
        out += list(getattr(node, "comments", {}).get("", ())) if "" not in node else []
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += list(getattr(node, "comments", {}).get(i, ())) + all_comments(v)
    return out


def render(data, syntax: str) -> str:
    """File data as text in `syntax`, its comments where that syntax keeps them."""
    if syntax == "rules":
        from kallisti.grammar.rules_writer import to_rules

        return to_rules(for_rules(data))
    from kallisti.model.yaml_writer import to_yaml

    return to_yaml(data)


def read_back(text: str, syntax: str, source: str):
    if syntax == "rules":
        from kallisti.grammar.rules_front import parse_rules

        return parse_rules(text, source)
    from kallisti.located import load_yaml

    return load_yaml(text, source)


def write_checked(data, syntax: str, source: str) -> str:
    """The text of `data` in `syntax`, after checking that it reads back as the same data with the same
    comments; a KallistiError (with one `convert-loss` finding) when it would not."""
    from kallisti.grammar.rules_writer import Unwritable
    from kallisti.located import plain

    where = Pos(source)
    try:
        text = render(data, syntax)
    except Unwritable as exc:
        raise KallistiError(Finding("convert-unwritable", f"cannot be written in the {syntax} syntax: {exc}", where)) from None
    try:
        back = read_back(text, syntax, source)
    except KallistiError as exc:
        raise KallistiError(Finding("convert-loss", f"the {syntax} text would not read back: {exc.findings[0].message}", where)) from None
    if plain(back) != plain(data):
        raise KallistiError(Finding("convert-loss", f"the {syntax} text would not read back as the same data", where))
    if Counter(all_comments(back)) != Counter(all_comments(data)):
        raise KallistiError(Finding("convert-loss", f"the {syntax} text would lose or change a comment", where))
    return text


def with_excerpts(findings: list[Finding], text_of: dict[str, str | None] | None = None) -> list[Finding]:
    """The findings, each with its source line under a caret when the file can be read."""
    texts = {} if text_of is None else text_of
    out = []
    for f in findings:
        if f.excerpt is None and f.pos.line:
            src = f.pos.source
            if src not in texts:
                try:
                    texts[src] = Path(src).read_text(encoding="utf-8")
                except (OSError, UnicodeDecodeError, ValueError):
                    texts[src] = None
            if texts[src] is not None:
                f = dataclasses.replace(f, excerpt=caret(texts[src], f.pos))
        out.append(f)
    return out


def report(findings: list[Finding]) -> None:
    for f in with_excerpts(findings):
        typer.echo(str(f), err=True)


def resolve_argument(name: str) -> Path:
    """A ruleset file named on the command line, or a shipped game's file; a usage error otherwise."""
    from kallisti.model.loader import shipped_games

    path = Path(name)
    if path.is_dir():
        raise typer.BadParameter(f"'{name}' is a folder; name a ruleset file", param_hint="FILE")
    if path.is_file():
        return path
    games = shipped_games()
    if name in games:
        return games[name]
    raise typer.BadParameter(f"no file (or shipped game) named '{name}'", param_hint="FILE")


def _extends_note(data, source: Path, out: Path) -> str | None:
    """A warning when OUT's `extends` names a file by a path that, from OUT's folder, is not the same file."""
    from kallisti.model.loader import shipped_games

    ref = data.get("extends") if isinstance(data, dict) else None
    if not isinstance(ref, str) or ref in shipped_games():
        return None
    here, there = (source.resolve().parent / ref).resolve(), (out.resolve().parent / ref).resolve()
    if here == there:
        return None
    return (f"{out}: `extends: {ref}` is read from {out.resolve().parent}, where it names "
            f"{'another file' if there.is_file() else 'no file'}; copy {here.name} beside it or change `extends`")


def convert(
    file: str = typer.Argument(..., metavar="FILE", help="A ruleset file (.yaml or .rules), or a shipped game's name."),
    to: Syntax = typer.Option(..., "--to", help="The syntax to write: yaml or rules."),
    out: Path = typer.Option(None, "-o", "--output", metavar="OUT", dir_okay=False,
                             help="Write to this file (atomically) instead of standard output."),
) -> None:
    """Write a ruleset in the other syntax (YAML or .rules), keeping its comments and its `extends`.

    Exit 0 written, 1 when the ruleset is invalid (its findings, as file:line:column), 2 usage.
    """
    from kallisti.interpreter.save import write_atomic
    from kallisti.model.loader import parse_file
    from kallisti.model.ruleset import load_ruleset

    path = resolve_argument(file)
    syntax = to.value
    if out is not None:
        if syntax_of(out) != syntax:
            want = "end in .rules" if syntax == "rules" else "not end in .rules (use .yaml)"
            raise typer.BadParameter(f"a file in the {syntax} syntax must {want}: '{out}'", param_hint="-o")
        if not out.resolve().parent.is_dir():
            raise typer.BadParameter(f"no folder {out.resolve().parent} to write '{out}' in", param_hint="-o")
    try:
        load_ruleset(path)
        data, _ = parse_file(path)
        text = write_checked(data, syntax, str(out) if out is not None else f"<{syntax}>")
    except KallistiError as exc:
        report(exc.findings)
        errors = sum(1 for f in exc.findings if f.severity == "error")
        typer.echo(f"{path}: not converted ({errors} error{'' if errors == 1 else 's'})", err=True)
        raise typer.Exit(1)
    if out is None:
        typer.echo(text, nl=False)
        return
    note = _extends_note(data, path, out)
    if note:
        typer.echo(f"warning: {note}", err=True)
    write_atomic(out, text)
    typer.echo(f"wrote {out} ({syntax})", err=True)
