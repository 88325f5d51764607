"""Rule-change statements: `forbid foundation.build "black on black": card.color == black and …`.

`parse_change(text)` reads one statement into one patch of the model (docs/model.md §2), as an
LDict whose keys and values carry the positions of the statement's text; `parse_changes(text)`
reads several, one per line. The grammar is change.lark; the value of `set PATH VALUE` and
`add PATH VALUE` is read by rules_paths.parse_value according to the path (an expression, pile
text, or a flow value). A path may leave out `piles.` (`tableau.build`), and `GROUP.columns` or
`GROUP.piles` name `piles.GROUP.count`; a path that starts with a top-level key (`deck.shuffle`,
`honour.no-spitting`, `match.loses_at`) is taken as written. An honour rule is written as in a
ruleset file, `honour ID MOMENT: "says"`, and adds `honour.ID`; so are the other statements that declare one rule:
`compulsory ID: PATTERN` and `auto ID: PATTERN` add `compulsory.ID` / `auto.ID`, `lose ID when EXPR` adds `lose.ID`
(`compulsory: none` sets the list empty), and `win when EXPR` and `score EXPR` set `win` and `score`.

A clause's quoted title names it: `forbid foundation.build "black on black": …` gives the clause black-on-black, which
says `has the rule "black on black"`, so that a refusal reads as a sentence whatever the title's words ("the foundation
has the rule "black on black""; "no twos" as a title would make "forbids no twos" say the opposite). A `replace` keeps the clause's kind (require or forbid) and what it says unless it gives new ones; a title there
only names the clause replaced.
"""

from __future__ import annotations

import functools
import re

from kallisti.errors import Finding, KallistiError, Pos
from kallisti.grammar.rules_lines import Line, LineError, finding, kind, layout, parse_line
from kallisti.grammar.rules_paths import parse_value, path_parts, resolve_path
from kallisti.grammar.rules_values import expr_text, flow_value, honour_rule, lose_fields, pattern_fields, put, unquote
from kallisti.grammar.rules_words import change_parser, rules_parser
from kallisti.located import LDict, LList
from kallisti.schema import PATCH_SCHEMA, schema, validator_class

ID_PATTERN = re.compile(r"[a-z0-9][a-z0-9-]*")


def title_id(title: str) -> str:
    """The clause id a quoted title stands for: "Black on black!" -> black-on-black."""
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def _clause_name(ln: Line, node, text: str) -> tuple[str, str | None, Pos]:
    """(id, title or None, position) of a clause named by its id or by a quoted title."""
    tok = node.children[0]
    if kind(tok) == "CID":
        return str(tok), None, ln.tok(tok)
    title = unquote(ln, tok, text)
    cid = title_id(title)
    if not cid:
        raise LineError(finding(text, "change-id", f"the title {tok} gives no id: use letters or digits", ln.quoted(tok)))
    return cid, title, ln.quoted(tok)


def change_from_line(ln: Line, text: str) -> LDict:
    """One parsed statement (and a continuation line holding what it says) as a patch."""
    tree = parse_line(ln, "change", text, change_parser(), code="change-syntax")
    verb = kind(tree)[len("change_"):]
    c = tree.children
    start = ln.at(1)
    patch = LDict(pos=start)
    if verb == "raw":
        patch = flow_value(ln, c[0], text)
        errors = sorted(validator_class()(_patch_schema()).iter_errors(dict(patch)), key=str)
        if errors:
            raise LineError(finding(text, "change-shape", "this map is not a patch: it needs exactly one verb (set, add, delete, "
                                    "require, forbid, replace, remove, revoke) with its keys", start))
        _no_children(ln, text)
        return patch
    if verb == "revoke":
        tok = c[0]
        value = unquote(ln, tok, text) if kind(tok) == "QUOTED" else str(tok)
        put(patch, "revoke", value, start, ln.quoted(tok) if kind(tok) == "QUOTED" else ln.tok(tok), text)
        _no_children(ln, text)
        return patch
    if verb == "declare":
        return _declaration(ln, text)
    if verb == "honour":
        cid, moment, says = c
        value = honour_rule(ln, cid, moment, says, text)
        put(patch, "add", f"honour.{cid}", start, ln.tok(cid), text)
        put(patch, "value", value, value.pos, value.pos, text)
        return patch
    path_tok = c[0]
    path = resolve_path(str(path_tok))
    put(patch, verb, path, start, ln.tok(path_tok), text)
    if verb in ("set", "add"):
        value, vpos = parse_value(ln, c[1], path_parts(path), text)
        put(patch, "value", value, vpos, vpos, text)
        _no_children(ln, text)
        return patch
    if verb == "delete":
        _no_children(ln, text)
        return patch
    cid, title, ipos = _clause_name(ln, c[1], text)
    put(patch, "id", cid, ipos, ipos, text)
    if verb == "remove":
        _no_children(ln, text)
        return patch
    if verb == "replace":
        # without `require` or `forbid`, the new expression takes the kind of the clause it replaces (`expr`)
        kind_node, expr, says = c[2], c[3], c[4]
        key = "expr" if kind_node is None else "forbid" if kind(kind_node) == "kind_forbid" else "require"
        title = None  # the title names the clause replaced, whose words stay unless new ones are given
    else:
        expr, says = c[2], c[3]
        key = "expr"
    e, epos = expr_text(ln, expr)
    put(patch, key, e, epos, epos, text)
    if says is not None:
        put(patch, "says", unquote(ln, says, text), ln.quoted(says), ln.quoted(says), text)
    elif title is not None:
        put(patch, "says", f'has the rule "{title}"', ipos, ipos, text)
    for child in ln.children:
        if says is not None:
            raise LineError(finding(text, "unexpected-indent", "this line is indented under a change that already says what it means",
                                    child.at(1)))
        says = parse_line(child, "says_line", text).children[0]
        patch["says"] = unquote(child, says, text)
        patch.key_pos["says"] = patch.value_pos["says"] = child.quoted(says)
    return patch


def _declaration(ln: Line, text: str) -> LDict:
    """A statement of a ruleset file that declares one rule, as the patch that adds (or sets) that rule."""
    tree = parse_line(ln, "statement", text, rules_parser(), code="change-syntax")
    what = kind(tree)
    start = ln.at(1)
    patch = LDict(pos=start)
    c = tree.children
    if what in ("auto", "compulsory", "lose"):
        cid = c[0]
        value = LDict(pos=ln.tok(cid))
        if what == "lose":
            lose_fields(ln, value, c[1], c[2], text)
        else:
            pattern_fields(ln, value, c[1], c[2], text)
        put(patch, "add", f"{what}.{cid}", start, ln.tok(cid), text)
        put(patch, "value", value, value.pos, value.pos, text)
        _says_child(ln, value, text)
        return patch
    if what in ("auto_none", "compulsory_none", "lose_none"):
        key = what[:-len("_none")]
        put(patch, "set", key, start, start, text)
        put(patch, "value", LList(pos=start), start, start, text)
    elif what in ("win", "score"):
        e, epos = expr_text(ln, c[0])
        put(patch, "set", what, start, start, text)
        put(patch, "value", e, epos, epos, text)
    else:  # a statement of another kind: no rule change
        raise LineError(finding(text, "change-syntax", "this statement of a ruleset file is no rule change", start,
                                "write `compulsory ID: …`, `auto ID: …`, `lose ID when …`, `win when …` or `score …`"))
    _no_children(ln, text)
    return patch


def _says_child(ln: Line, d: LDict, text: str) -> None:
    """A continuation line holding what a declared pattern or loss condition says."""
    for child in ln.children:
        if "says" in d:
            raise LineError(finding(text, "unexpected-indent", "this line is indented under a change that already says what it means",
                                    child.at(1)))
        says = parse_line(child, "says_line", text).children[0]
        put(d, "says", unquote(child, says, text), child.quoted(says), child.quoted(says), text)


def _no_children(ln: Line, text: str) -> None:
    if ln.children:
        raise LineError(finding(text, "unexpected-indent", "this line is indented under a change that takes no continuation",
                                ln.children[0].at(1)))


@functools.lru_cache(maxsize=1)
def _patch_schema() -> dict:
    return {**PATCH_SCHEMA, "$defs": schema("file")["$defs"]}


def _lines(text: str, source: str) -> tuple[list[Line], list[Finding]]:
    findings: list[Finding] = []
    lines, _ = layout(text, source, findings)
    return lines, findings


def parse_changes(text: str, source: str = "<change>") -> LList:
    """Several rule changes, one per line (blank lines and `#` comments allowed), as a list of patches;
    every line that cannot be read is reported at once."""
    lines, findings = _lines(text, source)
    out = LList(pos=Pos(source, 1, 1))
    for ln in lines:
        try:
            patch = change_from_line(ln, text)
        except LineError as exc:
            findings.append(exc.finding)
            continue
        out.append(patch)
        out.item_pos.append(ln.at(1))
        if ln.notes():
            out.comments[len(out) - 1] = ln.notes()
    if findings:
        raise KallistiError(findings)
    return out


def parse_change(text: str, source: str = "<change>") -> LDict:
    """One rule change as one patch (docs/model.md §2), with the positions of its text."""
    lines, findings = _lines(text, source)
    if findings:
        raise KallistiError(findings)
    if len(lines) != 1:
        pos = lines[1].at(1) if len(lines) > 1 else Pos(source, 1, 1)
        message = "one rule change was expected, not several" if lines else "the rule change is empty"
        raise KallistiError(finding(text, "change-count", message, pos,
                                    "write one change (set, add, delete, require, forbid, replace, remove, revoke or honour)"))
    try:
        return change_from_line(lines[0], text)
    except LineError as exc:
        raise KallistiError(exc.finding) from None
