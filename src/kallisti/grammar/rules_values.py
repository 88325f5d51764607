"""The values of a `.rules` line as located data: quoted text, expressions, flow values, clauses and patterns."""

from __future__ import annotations

import json

from lark import Token

from kallisti.errors import Finding, Pos, did_you_mean
from kallisti.grammar.rules_lines import Line, LineError, finding, kind, parse_line
from kallisti.grammar.rules_words import MOMENT_PHRASES
from kallisti.located import MAX_DEPTH, MAX_LIST_ITEMS, MAX_MAP_KEYS, LDict, LList


def unquote(ln: Line, token: Token, text: str) -> str:
    try:
        value = json.loads(str(token), strict=False)
    except ValueError:
        raise LineError(finding(text, "bad-escape", "a quoted text may use only the escapes \\\" \\\\ \\/ \\n \\t \\r \\b \\f \\uXXXX",
                                ln.tok(token))) from None
    return value


def token_value(ln: Line, token: Token, text: str) -> tuple:
    """A name written bare or quoted: (string, position)."""
    if kind(token) == "QUOTED":
        return unquote(ln, token, text), ln.quoted(token)
    return str(token), ln.tok(token)


def expr_text(ln: Line, tree) -> tuple[str, Pos]:
    """The exact text of an expression (with any parentheses around it) and the position of its first character."""
    s, e = tree.meta.start_pos, tree.meta.end_pos
    t = ln.text
    while True:
        k = s
        while k > 0 and t[k - 1] in " \t":
            k -= 1
        if k > 0 and t[k - 1] == "(":
            s = k - 1
        else:
            break
    while True:
        k = e
        while k < len(t) and t[k] in " \t":
            k += 1
        if k < len(t) and t[k] == ")":
            e = k + 1
        else:
            break
    return t[s:e], ln.at(s + 1)


def phrase_text(ln: Line, tree) -> str:
    return " ".join(ln.text[tree.meta.start_pos:tree.meta.end_pos].split())


def put(d: LDict, key, value, kpos: Pos, vpos: Pos, text: str, notes=None, what: str | None = None) -> None:
    """Set a key of a located dict, refusing a key given twice, or one key too many for any map."""
    if key in d:
        first = d.key_pos.get(key)
        where = f" (first at line {first.line})" if first is not None and first.line else ""
        raise LineError(finding(text, "duplicate-key", f"{what or repr(key)} is given twice{where}", kpos))
    if len(d) >= MAX_MAP_KEYS:
        raise LineError(finding(text, "too-many-keys", f"a map of more than {MAX_MAP_KEYS:,} keys", kpos))
    d[key] = value
    d.key_pos[key] = kpos
    d.value_pos[key] = vpos
    if notes:
        d.comments[key] = list(notes)


def append(lst: LList, value, pos: Pos, notes=None) -> None:
    """Add an item to a located list, refusing one item too many for any list."""
    if len(lst) >= MAX_LIST_ITEMS:
        raise LineError(Finding("too-many-items", f"a list of more than {MAX_LIST_ITEMS:,} items", pos))
    lst.append(value)
    lst.item_pos.append(pos)
    if notes:
        lst.comments[len(lst) - 1] = list(notes)


def flow_value(ln: Line, node, text: str, depth: int = 0):
    """A flow value ({…}, […], numbers, true/false/null, quoted text, bare words) as located data."""
    if depth >= MAX_DEPTH:  # depth counts from 0: the MAX_DEPTH-th bracket is the last allowed, as in YAML
        raise LineError(finding(text, "too-deep", f"values nested deeper than {MAX_DEPTH} levels", ln.meta(node)))
    k = kind(node)
    if k == "flow_map":
        d = LDict(pos=ln.meta(node))
        for pair in node.children:
            if pair is None:
                continue
            key_node, value_node = pair.children
            key_tok = key_node.children[0]
            key, kpos = token_value(ln, key_tok, text)
            value = flow_value(ln, value_node, text, depth + 1)
            put(d, key, value, kpos, value_pos(ln, value_node), text)
        return d
    if k == "flow_list":
        lst = LList(pos=ln.meta(node))
        for item in node.children:
            if item is None:
                continue
            append(lst, flow_value(ln, item, text, depth + 1), value_pos(ln, item))
        return lst
    if k == "flow_int":
        return int(node.children[0])
    if k == "flow_float":
        return float(node.children[0])
    if k == "flow_true":
        return True
    if k == "flow_false":
        return False
    if k == "flow_null":
        return None
    if k == "flow_string":
        return unquote(ln, node.children[0], text)
    if k == "flow_words":
        return " ".join(str(t) for t in node.children)
    raise AssertionError(k)  # pragma: no cover - the grammar has no other values


def value_pos(ln: Line, node) -> Pos:
    if isinstance(node, Token):
        return ln.quoted(node) if kind(node) == "QUOTED" else ln.tok(node)
    if kind(node) == "flow_string":
        return ln.quoted(node.children[0])
    return ln.meta(node)


def clause(ln: Line, node, text: str) -> LDict:
    cid, expr, says = node.children
    verb = kind(node)
    d = LDict(pos=ln.meta(node))
    start = ln.meta(node)
    put(d, "id", str(cid), start, ln.tok(cid), text)
    e, epos = expr_text(ln, expr)
    put(d, verb, e, start, epos, text)
    if says is not None:
        put(d, "says", unquote(ln, says, text), ln.tok(says), ln.quoted(says), text)
    return d


def rule_value(ln: Line, node, text: str):
    """The value of a rule written after its lead: a macro phrase, a quoted string, or one clause."""
    inner = node.children[0]
    if isinstance(inner, Token):
        return unquote(ln, inner, text), ln.quoted(inner)
    if kind(inner) == "macro":
        return phrase_text(ln, inner), ln.meta(inner)
    return clause(ln, inner, text), ln.meta(inner)


def name_of(ln: Line, node, text: str) -> tuple:
    """A `name` tree (a word, or a quoted name)."""
    return token_value(ln, node.children[0], text)


def moment_value(ln: Line, node, text: str) -> tuple[str, Pos]:
    """The moment of play a `moment` tree names (`before deal`, or its name `before-deal`), and its position."""
    words = " ".join(str(t) for t in node.children)
    pos = ln.meta(node)
    for moment, phrase in MOMENT_PHRASES.items():
        if words in (phrase, moment):
            return moment, pos
    close = did_you_mean(words, list(MOMENT_PHRASES.values()))
    listing = "the moments are: " + ", ".join(MOMENT_PHRASES.values())
    raise LineError(finding(text, "unknown-moment", f"'{words}' is not a moment of play", pos,
                            f"{close} {listing[0].upper()}{listing[1:]}" if close else listing))


def honour_rule(ln: Line, cid: Token, moment, says, text: str) -> LDict:
    """The map {at, says} of `honour ID MOMENT: "says"` (in a file or as a rule change); what the rule says
    may go on the one line below, indented."""
    at, apos = moment_value(ln, moment, text)
    d = LDict(pos=apos)
    put(d, "at", at, apos, apos, text)
    if says is not None:
        put(d, "says", unquote(ln, says, text), ln.tok(says), ln.quoted(says), text)
    for child in ln.children:
        if "says" in d:
            raise LineError(finding(text, "unexpected-indent", "this line is indented under an honour rule that already says what it asks",
                                    child.at(1)))
        tok = parse_line(child, "says_line", text).children[0]
        put(d, "says", unquote(child, tok, text), child.tok(tok), child.quoted(tok), text)
        if child.children:
            raise LineError(finding(text, "unexpected-indent", "this line is indented under a quoted text, which has no block",
                                    child.children[0].at(1)))
    if "says" not in d:
        raise LineError(finding(text, "honour-says", f"the honour rule '{cid}' must say what it asks, in quotes after the colon",
                                ln.at(len(ln.text) + 1), 'like `honour no-spitting at match start: "Don\'t spit on the other player."`'))
    return d


def pattern_fields(ln: Line, d: LDict, trigger, pattern, text: str) -> None:
    """Put into `d` the keys of a move pattern (`on request: from tableau or waste to foundation when … "says"`):
    its trigger, kind, groups, condition and what it says, each at its place in the line."""
    if trigger is not None:
        put(d, "trigger", "on-request" if kind(trigger) == "on_request" else "each-move", ln.meta(trigger), ln.meta(trigger), text)
    move_kind, src, dst, when, says = pattern.children
    if move_kind is not None:
        put(d, "kind", kind(move_kind)[5:], ln.meta(move_kind), ln.meta(move_kind), text)
    for field_, node in (("from", src), ("to", dst)):
        if node is None:
            continue
        names = [name_of(ln, n, text) for n in node.children if n is not None]
        if kind(node) == "groups_or" and len(names) == 1:
            value, vpos = names[0]
        else:
            value = LList([n for n, _ in names], pos=ln.meta(node))
            value.item_pos = [p for _, p in names]
            vpos = names[0][1] if names else ln.meta(node)
        put(d, field_, value, ln.meta(node), vpos, text)
    if when is not None:
        e, epos = expr_text(ln, when)
        put(d, "when", e, epos, epos, text)
    if says is not None:
        put(d, "says", unquote(ln, says, text), ln.tok(says), ln.quoted(says), text)


def lose_fields(ln: Line, d: LDict, when, says, text: str) -> None:
    """Put into `d` the keys of a loss condition (`when field.size > 30 "says"`)."""
    e, epos = expr_text(ln, when)
    put(d, "when", e, epos, epos, text)
    if says is not None:
        put(d, "says", unquote(ln, says, text), ln.tok(says), ln.quoted(says), text)
