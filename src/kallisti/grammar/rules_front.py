"""The `.rules` front end: kallisti's own ruleset syntax, read into the same located data as YAML.

`parse_rules(text, source)` returns an LDict equal (as plain data) to what the YAML loader gives for
the same ruleset, with a Pos(source, line, column) for every key and value; expression strings are
the exact text written, positioned at their first character.

Reading happens in two steps. The layout step (`layout`) splits the text into lines, takes off
comments, and groups indented lines under the line they belong to: continuation lines of a pile
group, of `deck:` or of `match:`, the items of a rule block, the statements of `add:` and
`changes:`, and the free text of `description:`. Each line is then parsed on its own by the LALR
grammar rules.lark (which imports the expression grammar), so a bad line gives one finding and the
lines after it are still read: every finding of a file is reported at once.

Comments: the comment lines just before a line (and a comment at the end of the line) are kept in
the `comments` attribute of the LDict or LList holding the first key or item that line sets, as
text without the leading `# `. Comments after the last line are kept under the key "".
"""

from __future__ import annotations

import copy
import functools
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from kallisti.errors import Finding, KallistiError, Pos, caret, did_you_mean
from kallisti.grammar.cache import lark_parser
from kallisti.model.located import (MAX_DEPTH, MAX_FILE_BYTES, MAX_FINDINGS, MAX_LIST_ITEMS, MAX_MAP_KEYS, MAX_NODES,
                                    MAX_NUMBER_DIGITS, LDict, LList)
from kallisti.model.patch import RULE_KEYS
from kallisti.schema import MAX_DEAL_ROWS, MOMENTS, schema

HERE = Path(__file__).resolve().parent
STARTS = ["statement", "pile_items", "deck_items", "match_items", "hands_items", "rule_item", "says_line", "value_flow", "value_expr", "value_pile",
          "value_pattern", "value_lose"]
# Top-level keys of a ruleset file (every key its schema knows): a path whose first segment is none of
# these starts with a pile group.
TOP_KEYS = tuple(schema("file")["properties"])
MACRO_ALIASES = {  # the readable phrases of a pile line for the macros `any` and `none`
    "build": {"any": "build on any card", "none": "no building"},
    "empty": {"any": "a space takes any card", "none": "a space takes nothing"},
    "take": {"any": "move any cards", "none": "nothing leaves"},
    "sequence": {"any": "move runs in any order", "none": "move no runs"},
    "dealing": {"any": "deal at any time", "none": "no dealing"},
    "discard": {"any": "discard any cards", "none": "no discards"},
}
RULE_LEADS = {"build": "build", "empty": "a space takes", "take": "move", "sequence": "move runs", "dealing": "dealing", "discard": "discard"}
ROLES = ("tableau", "foundation", "stock", "waste", "reserve", "cell", "line", "field", "hand", "discard")
# The words of each moment of play: the moment's name read as words, `at` before the ones that are not
# `before` something. A moment may also be written as its name (`before-deal`).
MOMENT_PHRASES = {m: ("" if m.startswith("before-") else "at ") + m.replace("-", " ") for m in MOMENTS}
MATCH_PACKS = {"per-seat": "pack per seat", "shared": "shared pack"}
MATCH_OVER = {"higher-loses": "higher loses", "first-loses": "first loses", "draw": "draw"}


@functools.lru_cache(maxsize=1)
def rules_parser() -> Lark:
    """The LALR parser of rules.lark (with the expression grammar imported), made once a process when first needed
    (from the parser cache: grammar/cache.py)."""
    return lark_parser("rules.lark", parser="lalr", lexer="contextual", start=STARTS, propagate_positions=True,
                       maybe_placeholders=True)


@functools.lru_cache(maxsize=1)
def keywords() -> frozenset:
    """Every keyword of the .rules and rule-change grammars (words the writer quotes when they are names)."""
    from kallisti.grammar.changes import change_parser

    out = set()
    for parser in (rules_parser(), change_parser()):
        for term in parser.terminals:
            if type(term.pattern).__name__ == "PatternStr" and re.fullmatch(r"[a-z][a-z-]*", term.pattern.value):
                out.add(term.pattern.value)
    return frozenset(out)


@functools.lru_cache(maxsize=1)
def name_reserved() -> frozenset:
    """The keywords that may come right after a name, rank or symbol somewhere in the grammar (`of`, `and`,
    `or`, `to`, `pile`, …). The contextual lexer reads such a word there as the keyword, so a name
    spelled like one is written quoted; `each`, `nothing` and `none` open some name lists."""
    from lark.parsers.lalr_analysis import Reduce

    parser = rules_parser()
    words = {t.name: t.pattern.value for t in parser.terminals if type(t.pattern).__name__ == "PatternStr"}
    out = {"each", "nothing", "none", "of", "and", "or", "to", "when", "pile", "piles", "letter", "symbol"}
    try:
        states = parser.parser.parser.parser.parse_table.states
    except AttributeError:  # pragma: no cover - a Lark without these internals: the list above
        return frozenset(out)
    for actions in states.values():
        if any(a is Reduce and arg.origin.name in ("name", "rank", "symbol") for a, arg in actions.values()):
            out |= {words[t] for t in actions if t in words and words[t].isalpha()}
    return frozenset(out)


@functools.lru_cache(maxsize=1)
def macro_phrases() -> tuple:
    """Every macro phrase the grammar reads bare (model/macros.py knows them all)."""
    from kallisti.model.macros import _DIRECTIONS, _SIMPLE, _SUITS

    out = list(_SIMPLE)
    for d in _DIRECTIONS:
        for s in [""] + list(_SUITS):
            for w in ("", " with wrap", " wrapping"):
                out.append(f"{d}{' ' + s if s else ''}{w}")
    return tuple(out)


# ---- lines -----------------------------------------------------------------------------------
@dataclass
class Line:
    """One line of text to parse: `text` starts at 0-based column `indent` of line `no`."""

    source: str
    no: int
    indent: int
    text: str
    comment: str | None = None
    comments: list = field(default_factory=list)
    children: list = field(default_factory=list)
    raw: list | None = None  # the text lines of a `description:` block: (no, indent, text) or None for a blank line

    def at(self, col1: int) -> Pos:
        """The position of 1-based column `col1` of `text`."""
        return Pos(self.source, self.no, self.indent + col1)

    def tok(self, token: Token) -> Pos:
        return self.at(token.column)

    def quoted(self, token: Token) -> Pos:
        """The first character inside a quoted token (as the YAML loader positions quoted strings)."""
        return self.at(token.column + 1)

    def meta(self, tree: Tree) -> Pos:
        return self.at(tree.meta.column)

    def sub(self, token: Token) -> Line:
        """A line holding just the text of `token` (the value of a `set` line), at its place."""
        return Line(self.source, self.no, self.indent + token.column - 1, str(token))

    def notes(self) -> list:
        return list(self.comments) + ([self.comment] if self.comment is not None else [])


class LineError(Exception):
    """A finding that stops the reading of one line."""

    def __init__(self, finding: Finding):
        super().__init__(str(finding))
        self.finding = finding


def _comment_text(s: str) -> str:
    s = s[1:] if s.startswith(" ") else s
    return s.rstrip()


def split_comment(body: str) -> tuple[str, str | None]:
    """A line's content and its trailing comment: `#` at the start or after a blank, outside quotes."""
    in_quote = False
    i = 0
    while i < len(body):
        c = body[i]
        if in_quote:
            if c == "\\":
                i += 2
                continue
            if c == '"':
                in_quote = False
        elif c == '"':
            in_quote = True
        elif c == "#" and (i == 0 or body[i - 1] in " \t"):
            return body[:i].rstrip(), _comment_text(body[i + 1:])
        i += 1
    return body.rstrip(), None


DESCRIPTION_HEAD = re.compile(r"description\s*:")
# What the grammar reads as one value or word: a quoted text (closed or not), or a run of characters that are not
# blanks, commas or brackets. Counted on every line before any is parsed (see `layout`).
_VALUE = re.compile(r'"(?:[^"\\\n]|\\.)*"?|[^\s,\[\]{}()"]+')


def layout(text: str, source: str, findings: list) -> tuple[list[Line], list[str]]:
    """Lines with their comments and their indented children; and the comments after the last line.

    The words and list items of every line are counted here, before any line is parsed: a line of more than
    MAX_LIST_ITEMS, or a file of more than MAX_NODES in all, is refused at the first one too many (KallistiError).
    Parsing a line costs far more than counting its words, so this bounds the work of reading any file."""
    physical = text.split("\n")
    roots: list[Line] = []
    stack: list[tuple[int, Line]] = []
    pending: list[str] = []
    too_deep = False  # a line nested too deep was reported; the lines below it are skipped without a word
    values = 0  # words and list items of the lines so far
    i = 0
    while i < len(physical):
        raw = physical[i].rstrip("\r")
        no = i + 1
        i += 1
        if not raw.strip():
            continue
        body = raw.lstrip(" ")
        indent = len(raw) - len(body)
        if body[0] == "\t" or body[0] == "\f":
            findings.append(finding(text, "indent-tab", "indent with spaces, not tabs", Pos(source, no, indent + 1)))
            body = body.lstrip(" \t\f")
            indent = len(raw) - len(body)
        if body.startswith("#"):
            pending.append(_comment_text(body[1:]))
            continue
        content, trailing = split_comment(body)
        values = _count_values(text, content, Pos(source, no, indent + 1), values, findings)
        line = Line(source, no, indent, content, trailing, pending)
        pending = []
        while stack and stack[-1][0] >= indent:
            stack.pop()
        if len(stack) >= MAX_DEPTH:
            # Blocks are read by recursion (`add:` holds statements, which may be `add:`): a line nested deeper than
            # any ruleset needs is refused with its block, before a thousand levels reach Python's recursion limit.
            if not too_deep:
                findings.append(finding(text, "too-deep", f"lines indented under each other more than {MAX_DEPTH} levels deep",
                                        Pos(source, no, indent + 1)))
            too_deep = True
            continue
        too_deep = False
        (stack[-1][1].children if stack else roots).append(line)
        stack.append((indent, line))
        if DESCRIPTION_HEAD.match(content):
            block: list = []
            j = i
            while j < len(physical):
                r = physical[j].rstrip("\r").rstrip()
                if not r.strip():
                    block.append(None)
                    j += 1
                    continue
                ind = len(r) - len(r.lstrip(" "))
                if ind <= indent:
                    break
                block.append((j + 1, ind, r[ind:]))
                j += 1
            while block and block[-1] is None:
                block.pop()
                j -= 1
            if block:
                line.raw = block
                i = j
    return roots, pending


def _count_values(text: str, content: str, start: Pos, before: int, findings: list) -> int:
    """The count of values (`_VALUE`) so far once the line `content` (which starts at `start`) is read; a line of more
    than MAX_LIST_ITEMS of them, or more than MAX_NODES in all, is refused at the first one too many."""
    count = 0
    for match in _VALUE.finditer(content):
        count += 1
        if count > MAX_LIST_ITEMS or before + count > MAX_NODES:
            what = (f"a line of more than {MAX_LIST_ITEMS:,} words and list items" if count > MAX_LIST_ITEMS
                    else f"the file holds more than {MAX_NODES:,} words and list items")
            pos = start.shifted(match.start())
            raise KallistiError(list(findings)[:MAX_FINDINGS] + [finding(text, "too-many-items", what, pos)])
    return before + count


def finding(text: str, code: str, message: str, pos: Pos, suggestion: str | None = None) -> Finding:
    return Finding(code, message, pos, suggestion=suggestion, excerpt=caret(text, pos))


# ---- syntax errors, described in words ---------------------------------------------------------
_TERMINAL_WORDS = {
    "WORD": "a name", "INT": "a number", "QUOTED": "a quoted text", "CID": "an id (like same-suit)",
    "PATH": "a path (like tableau.build)", "REST": "a value", "TEXT": "text", "REF": "a game name or a file path",
    "SYM": "a symbol", "NAME": "a name", "STRING": "a string", "CHANGE_ID": "the id of a change", "$END": "the end of the line",
    "FKEY": "a key", "FWORD": "a word", "SIGNED_INT": "a number", "FLOAT": "a number",
    "DECLARE": "compulsory, auto, lose, win or score",
    "MOMENT_WORD": "a moment of play (" + ", ".join(MOMENT_PHRASES.values()) + ")",
}
_GROUPS = [  # (keywords that mark the place, how to say what was expected there)
    ({"deal", "build", "move", "tag"}, "a pile phrase (such as `8 piles`, `deal 4 face up`, `build down in suit`, `move top card`)"),
    ({"game", "deck", "win", "score"}, "a statement (such as `game:`, `deck:`, a pile group `tableau: ...`, `win when ...`)"),
    ({"ranks", "suit", "wild"}, "a deck phrase (such as `2 packs`, `ranks A 2 3`, `suit clubs black`)"),
    ({"start", "loses", "both", "player"}, "a match phrase (such as `2 seats`, `start score -23`, `loses at 230`, `player x 1 change`)"),
    ({"row", "column", "fan"}, "a layout phrase (`row 0`, `column 1`, `fan down`, `fan right` or `fan none`)"),
    ({"set", "forbid", "revoke"}, "a rule change: set, add, delete, require, forbid, replace, remove, revoke, honour, compulsory, "
     "auto, lose, win or score"),
    ({"down", "up", "first", "none"}, "a rule (such as `down in suit`, `up alternate colour`, `first rank`, `any`, `none`)"),
]


def _terminal_text(parser: Lark, name: str) -> str:
    short = name.rsplit("__", 1)[-1]
    if short in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[short]
    try:
        term = parser.get_terminal(name)
    except KeyError:
        return short.lower()
    if type(term.pattern).__name__ == "PatternStr":
        return f"'{term.pattern.value}'"
    return short.lower()


def _keyword_set(parser: Lark, names) -> set:
    out = set()
    for name in names:
        try:
            term = parser.get_terminal(name)
        except KeyError:
            continue
        if type(term.pattern).__name__ == "PatternStr":
            out.add(term.pattern.value)
    return out


def describe_expected(parser: Lark, names) -> str:
    """What the grammar expected, in words: a kind of phrase where many words fit, else the words."""
    names = set(names)
    kws = _keyword_set(parser, names)
    if any(n.endswith("NAME") for n in names) and ("(" in kws or "-" in kws or "not" in kws):
        return "an expression"
    for marks, words in _GROUPS:
        if len(marks & kws) >= 3:
            return words
    items = sorted({_terminal_text(parser, n) for n in names if _terminal_text(parser, n).strip("'") not in ROLES})
    if len(kws & set(ROLES)) >= 3:
        items.append("a role (tableau, foundation, stock, waste, …)")
    ops = {"==", "!=", "+", "-", "and", "or", "."}
    if len(ops & kws) >= 4:
        items = ["an operator"] + [i for i in items if i.strip("'") not in ops | {"<", "<=", ">", ">=", "*", "//", "%", "in", "not"}]
    if len(items) > 8:
        return ", ".join(items[:8]) + " or …"
    if len(items) > 1:
        return ", ".join(items[:-1]) + " or " + items[-1]
    return items[0] if items else "something else"


_LEADS = re.compile(r"(?:\bbuild|\btakes|\bmove runs|\bmove)\s+")
MACRO_WORDS = {"down", "up", "first", "last", "top", "one", "any", "none"}


def _unclosed(text: str):
    """The first unclosed quote or bracket of a line, or a closer that closes nothing: (index, message)."""
    stack = []
    i = 0
    pairs = {")": "(", "]": "[", "}": "{"}
    while i < len(text):
        c = text[i]
        if c == '"':
            j = i + 1
            while j < len(text) and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            if j >= len(text):
                return i, "this quote is not closed before the end of the line"
            i = j + 1
            continue
        if c in "([{":
            stack.append((c, i))
        elif c in ")]}":
            if not stack:
                return i, f"'{c}' closes no bracket"
            opener, at = stack.pop()
            if opener != pairs[c]:
                return at, f"'{opener}' is closed by '{c}' at column {i + 1}"
        i += 1
    if stack:
        opener, at = stack[-1]
        return at, f"'{opener}' is not closed before the end of the line"
    return None


def _expected_terminals(exc: UnexpectedToken, parser: Lark) -> set:
    """The terminals the parser would take where it stopped. (Lark's own list leaves out the terminals
    of imported grammars, whose names are not all capitals, so it is worked out here the same way.)"""
    terms = {t.name for t in parser.terminals} | {"$END"}
    ip = exc.interactive_parser
    if ip is None:  # pragma: no cover - Lark always gives one for LALR
        return set(exc.expected or ())
    conf = copy.copy(ip.parser_state.parse_conf)
    conf.callbacks = {}
    out = set()
    for name in ip.choices():
        if name not in terms:
            continue
        trial = ip.copy(deepcopy_values=False)
        trial.parser_state.parse_conf = conf
        try:
            trial.feed_token(Token(name, ""))
        except UnexpectedInput:
            continue
        out.add(name)
    return out


def syntax_finding(exc: UnexpectedInput, ln: Line, start: str, full_text: str, parser: Lark, code: str) -> Finding:
    """One finding for a line the grammar refuses: where, what was expected (in words), and a suggestion."""
    text = ln.text
    if isinstance(exc, UnexpectedCharacters):
        col, names, token = exc.pos_in_stream, set(exc.allowed or ()), None
    else:
        token = exc.token
        col = len(text) if token.type == "$END" else token.start_pos
        names = _expected_terminals(exc, parser)
    bad = _unclosed(text)
    if bad is not None and bad[0] <= col:
        where, message = bad
        if where < col and col < len(text):
            message = message.replace("before the end of the line", f"(the line goes wrong at column {ln.indent + col + 1})")
        return finding(full_text, "unclosed", message, ln.at(where + 1))
    expected = describe_expected(parser, names)
    kws = _keyword_set(parser, names)
    words = [k for k in kws if re.fullmatch(r"[a-z][a-z-]*", k)]
    if token is not None and token.type == "$END":
        return finding(full_text, code, f"the line ends too early: expected {expected}", ln.at(len(text) + 1))
    rest = text[col:]
    word = re.match(r"[A-Za-z_][A-Za-z0-9_-]*", rest)
    got = f"'{word.group(0)}'" if word else f"'{rest[:1]}'"
    suggestion = None
    if rest.startswith("=") and not rest.startswith("=="):
        suggestion = "write == to compare"
    if word and len(kws & MACRO_WORDS) >= 4:
        lead_end = 0
        for m in _LEADS.finditer(text):
            if m.end() <= col:
                lead_end = m.end()
        if start == "rule_item":
            lead_end = 0
        stop = min([i for i in (text.find(",", col), text.find('"', col)) if i >= 0], default=len(text))
        phrase = " ".join(text[lead_end:stop].split())
        suggestion = did_you_mean(phrase, macro_phrases()) or "docs/model.md lists the rule macros"
        return finding(full_text, "unknown-macro", f"'{phrase}' is not a rule macro", ln.at(lead_end + 1), suggestion)
    if word and suggestion is None:
        suggestion = did_you_mean(word.group(0), words)
    if start == "statement" and suggestion is None:
        first = re.match(r"[A-Za-z_][A-Za-z0-9_]*", text)
        if first and first.group(0) not in keywords():
            close = did_you_mean(first.group(0), [k for k in TOP_KEYS if k != "piles"] + ["set"])
            if close is not None:
                suggestion = close.replace("did you mean", f"'{first.group(0)}' is not a keyword; did you mean")
    return finding(full_text, code, f"unexpected {got}: expected {expected}", ln.at(col + 1), suggestion)


def parse_line(ln: Line, start: str, full_text: str, parser: Lark | None = None, code: str = "rules-syntax") -> Tree:
    """Parse one line with a start rule of the grammar; a refusal raises LineError with a finding in words."""
    parser = parser or rules_parser()
    _refuse_deep_brackets(ln, full_text)
    try:
        tree = parser.parse(ln.text, start=start)
    except UnexpectedInput as exc:
        raise LineError(syntax_finding(exc, ln, start, full_text, parser, code)) from None
    _refuse_long_numbers(tree, ln, full_text)
    return tree


def _refuse_deep_brackets(ln: Line, full_text: str) -> None:
    """Refuse flow values nested more than MAX_DEPTH deep before the line is parsed: the parser would first build
    the whole tree, in work that grows with the line. Quoted text is skipped; `flow_value` checks the parsed tree
    too, so a line this scan misreads (an apostrophe in a bare word) is still refused, only later."""
    text, depth, i, quote = ln.text, 0, 0, None
    while i < len(text):
        ch = text[i]
        if quote is not None:
            if ch == "\\":
                i += 1  # an escaped character, the closing quote included
            elif ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise LineError(finding(full_text, "too-deep", f"values nested deeper than {MAX_DEPTH} levels", ln.at(i + 1)))
        elif ch in "]}":
            depth -= 1
        i += 1


_LONG_NUMBER = re.compile(rf"[-+]?[0-9]{{{MAX_NUMBER_DIGITS + 1},}}")


def _refuse_long_numbers(tree: Tree, ln: Line, full_text: str) -> None:
    """Refuse a number token of more than MAX_NUMBER_DIGITS digits before any `int()` reads it: Python refuses
    to read one of more than 4,300 digits with a ValueError, and no count of a ruleset needs a hundred."""
    # Walked without recursion (Tree.scan_values recurses): a line such as `win when - - - … 1` nests thousands
    # deep, and the expression's own depth limit refuses it only after this walk.
    for subtree in tree.iter_subtrees_topdown():
        for token in subtree.children:
            if isinstance(token, Token) and _LONG_NUMBER.fullmatch(str(token)) is not None:
                raise LineError(finding(full_text, "number-too-long", f"a number written with more than {MAX_NUMBER_DIGITS} "
                                        "digits", ln.tok(token)))


# ---- trees to values ---------------------------------------------------------------------------
def kind(node) -> str:
    """A tree's rule name or a token's type, without the namespace of an imported grammar."""
    name = node.data if isinstance(node, Tree) else node.type
    return str(name).rsplit("__", 1)[-1]


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


# ---- rule values, clauses, pile and deck items ---------------------------------------------------
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


def pile_effects(ln: Line, item, text: str) -> list:
    """What one pile phrase sets: [(key, value, key position, value position)]."""
    k = kind(item)
    c = item.children
    start = ln.meta(item)
    if k == "count":
        n, role, _ = c
        out = [("count", int(n), ln.tok(n), ln.tok(n))]
        if role is not None:
            out.append(("role", phrase_text(ln, role), ln.meta(role), ln.meta(role)))
        return out
    if k == "role_only":
        return [("role", phrase_text(ln, c[0]), ln.meta(c[0]), ln.meta(c[0]))]
    if k == "tag":
        value, pos = name_of(ln, c[0], text)
        return [("tag", value, start, pos)]
    if k in ("deal", "deal_more"):
        n, face = c
        _refuse_deal_rows(ln, int(n), n, text)  # before the rows are made: N may be any number of a hundred digits
        rows = [kind(face)[5:]] * int(n)
        return [("deal" if k == "deal" else "+deal", rows, start, ln.tok(n))]
    if k in ("deal_row", "deal_row_more"):
        return [("deal" if k == "deal_row" else "+deal", [str(c[0])], start, ln.tok(c[0]))]
    if k == "deal_rest":
        return [("deal", "rest", start, start)]
    if k == "deal_nothing":
        return [("deal", LList(pos=start), start, start)]
    if k in ("prefill", "reveal"):
        e, epos = expr_text(ln, c[0])
        return [(k, e, start, epos)]
    if k == "divert":
        name, expr = c
        d = LDict(pos=start)
        to, tpos = name_of(ln, name, text)
        put(d, "to", to, tpos, tpos, text)
        e, epos = expr_text(ln, expr)
        put(d, "when", e, epos, epos, text)
        return [("divert", d, start, start)]
    if k == "refill":
        n, _, name = c
        d = LDict(pos=start)
        src, spos = name_of(ln, name, text)
        put(d, "from", src, spos, spos, text)
        put(d, "count", int(n), ln.tok(n), ln.tok(n), text)
        return [("refill", d, start, start)]
    if k == "discard_to":
        value, pos = name_of(ln, c[0], text)
        return [("discard_to", value, start, pos)]
    if k in ("top_face_up", "top_as_dealt"):
        return [("top_face_up", k == "top_face_up", start, start)]
    if k == "redeal":
        gathers, shuffled, deals, when = c
        d = LDict(pos=start)
        for key, node in (("gather", gathers), ("deal", deals)):
            if node is not None:
                lst = LList(pos=ln.meta(node))
                if kind(node) in ("gathers", "deals"):
                    for name in node.children[0].children:
                        value, pos = name_of(ln, name, text)
                        append(lst, value, pos)
                put(d, key, lst, ln.meta(node), ln.meta(node), text)
        if shuffled is not None:
            put(d, "shuffle", kind(shuffled) == "shuffled", ln.meta(shuffled), ln.meta(shuffled), text)
        if when is not None:
            e, epos = expr_text(ln, when)
            put(d, "when", e, epos, epos, text)
        return [("redeal", d, start, start)]
    if k in RULE_KEYS:
        value, vpos = rule_value(ln, c[0], text)
        return [(k, value, start, vpos)]
    if k.endswith("_any") or k.endswith("_none"):
        key, macro = k.rsplit("_", 1)
        return [(key, macro, start, start)]
    if k in ("flip_on", "flip_off"):
        return [("flip", k == "flip_on", start, start)]
    if k in ("turn", "turn_each"):
        if k == "turn":
            n, _, each, name, _ = c
        else:
            n, each, name = None, True, c[0]
        d = LDict(pos=start)
        to, tpos = name_of(ln, name, text)
        put(d, "to", to, tpos, tpos, text)
        if n is not None:
            put(d, "count", int(n), ln.tok(n), ln.tok(n), text)
        if each is not None:
            put(d, "each", True, start, start, text)
        return [("turn", d, start, start)]
    if k == "no_redeal":
        return [("redeals", 0, start, start)]
    if k == "redeals":
        return [("redeals", int(c[0]), start, ln.tok(c[0]))]
    if k == "unlimited_redeals":
        return [("redeals", "unlimited", start, start)]
    raise AssertionError(k)  # pragma: no cover


def _refuse_deal_rows(ln: Line, rows: int, at, text: str) -> None:
    """Refuse a deal of more rows than the schema allows, where it is written (`at`: a token or a position)."""
    if rows > MAX_DEAL_ROWS:
        pos = ln.tok(at) if isinstance(at, Token) else at
        raise LineError(finding(text, "schema", f"a deal of {rows} rows; at most {MAX_DEAL_ROWS}", pos))


def _rank(ln: Line, node, text: str):
    tok = node.children[0]
    if kind(tok) == "INT":
        return int(tok), ln.tok(tok)
    return token_value(ln, tok, text)


def _card(ln: Line, node, text: str) -> LDict:
    rank_node, suit_node = node.children
    d = LDict(pos=ln.meta(node))
    rank, rpos = _rank(ln, rank_node, text)
    put(d, "rank", rank, rpos, rpos, text)
    suit, spos = name_of(ln, suit_node, text)
    put(d, "suit", suit, spos, spos, text)
    return d


def _number(node) -> int:
    n = int(node.children[0])
    return -n if kind(node) == "negative" else n


def deck_effects(ln: Line, item, text: str) -> list:
    """What one deck phrase sets: [(key, value, key position, value position)]; "+key" adds to a list or map."""
    k = kind(item)
    c = item.children
    start = ln.meta(item)
    if k == "packs":
        return [("packs", int(c[0]), start, ln.tok(c[0]))]
    if k == "pack":
        name, suits = c
        d = LDict(pos=start)
        if name is not None:
            value, pos = name_of(ln, name, text)
            put(d, "name", value, pos, pos, text)
        lst = LList(pos=ln.meta(suits))
        if kind(suits) == "suit_list":
            for s in suits.children:
                value, pos = name_of(ln, s, text)
                append(lst, value, pos)
        put(d, "suits", lst, ln.meta(suits), ln.meta(suits), text)
        return [("+packs", d, start, start)]
    if k == "ranks":
        lst = LList(pos=ln.meta(c[0]))
        for r in c:
            value, pos = _rank(ln, r, text)
            append(lst, value, pos)
        return [("ranks", lst, start, ln.meta(c[0]))]
    if k == "suit":
        name, color, symbol, letter, family = c
        d = LDict(pos=start)
        for key, node in (("name", name), ("color", color), ("symbol", symbol), ("letter", letter), ("family", family)):
            if node is not None:
                value, pos = name_of(ln, node, text) if key in ("name", "color", "family") else token_value(ln, node.children[0], text)
                put(d, key, value, pos, pos, text)
        return [("+suits", d, start, start)]
    if k in ("value", "value_list"):
        rank, *numbers = c
        key, kpos = _rank(ln, rank, text)
        numbers = [n for n in numbers if n is not None]
        if k == "value" and len(numbers) == 1:
            value = _number(numbers[0])
        else:
            value = LList([_number(n) for n in numbers], pos=ln.meta(numbers[0]) if numbers else start)
            value.item_pos = [ln.meta(n) for n in numbers]
        vpos = ln.meta(numbers[0]) if numbers else start
        return [("+values", (str(key), value, kpos, vpos), start, start)]
    if k in ("mark", "mark_none"):
        name = c[0]
        value, pos = name_of(ln, name, text)
        lst = LList(pos=start)
        for card in c[1:]:
            append(lst, _card(ln, card, text), ln.meta(card))
        return [("+marks", (value, lst, pos, ln.meta(c[1]) if len(c) > 1 else start), start, start)]
    if k == "wild":
        lst = LList(pos=ln.meta(c[0]))
        for card in c:
            append(lst, _card(ln, card, text), ln.meta(card))
        return [("wild", lst, start, ln.meta(c[0]))]
    if k == "no_values":
        return [("values", LDict(pos=start), start, start)]
    if k == "no_marks":
        return [("marks", LDict(pos=start), start, start)]
    if k == "no_wild":
        return [("wild", LList(pos=start), start, start)]
    if k == "shuffle":
        mode = c[0]
        return [("shuffle", phrase_text(ln, mode), start, ln.meta(mode))]
    raise AssertionError(k)  # pragma: no cover


def match_effects(ln: Line, item, text: str) -> list:
    """What one match phrase sets: [(key, value, key position, value position)]; a key `player_x.K` is a
    key of the player_x map."""
    k = kind(item)
    c = item.children
    start = ln.meta(item)
    if k == "seats":
        return [("seats", int(c[0]), start, ln.tok(c[0]))]
    if k in ("pack_per_seat", "pack_shared"):
        return [("pack", "per-seat" if k == "pack_per_seat" else "shared", start, start)]
    if k in ("start_score", "loses_at"):
        return [(k, _number(c[0]), start, ln.meta(c[0]))]
    if k in ("equal_turns", "no_equal_turns"):
        return [("equal_turns", k == "equal_turns", start, start)]
    if k == "both_over":
        rule = c[0]
        return [("both_over", kind(rule).replace("_", "-"), start, ln.meta(rule))]
    if k == "last_turns":
        rule = c[0]
        return [("last_turns", kind(rule)[len("last_"):], start, ln.meta(rule))]
    if k == "max_turns":
        return [("max_turns", int(c[0]), start, ln.tok(c[0]))]
    if k == "player_x_changes":
        n, _, revoke = c
        out = [("player_x.changes", int(n), start, ln.tok(n))]
        if revoke is not None:
            out.append(("player_x.revoke", True, start, ln.meta(revoke)))
        return out
    if k in ("player_x_revoke", "player_x_no_revoke"):
        return [("player_x.revoke", k == "player_x_revoke", start, start)]
    raise AssertionError(k)  # pragma: no cover


def hand_effects(ln: Line, item, text: str) -> list:
    """What one phrase of `hands:` sets: [(key, value, key position, value position)]."""
    k = kind(item)
    n = item.children[0]
    return [("size" if k == "hand_size" else "budget", int(n), ln.meta(item), ln.tok(n))]


def apply_hand_items(ln: Line, items, text: str, hands: LDict, notes) -> None:
    """Set the keys of `hands` from the phrases of a `hands:` line."""
    first = True
    for item in items.children:
        if item is None:
            continue
        for key, value, kpos, vpos in hand_effects(ln, item, text):
            put(hands, key, value, kpos, vpos, text, notes if first else None, what=f"'hands.{key}'")
            first = False


def apply_pile_items(ln: Line, items, text: str, group: LDict, last: list, notes) -> None:
    """Set the keys of a group from parsed pile phrases; `last` tells whether the phrase before (perhaps on
    the line before) was a deal, which rows like `2 face up` continue."""
    first = True
    for item in items.children:
        if item is None:
            continue
        for key, value, kpos, vpos in pile_effects(ln, item, text):
            if key == "+deal":
                rows = group.get("deal")
                if last[0] != "deal" or not isinstance(rows, LList):
                    raise LineError(finding(text, "misplaced", "rows of a deal must follow `deal` (like `deal 2 face down, 2 face up`)",
                                            kpos))
                _refuse_deal_rows(ln, len(rows) + len(value), kpos, text)
                for r in value:
                    append(rows, r, vpos)
                continue
            if key == "deal" and isinstance(value, list) and not isinstance(value, LList):
                rows = LList(pos=vpos)
                for r in value:
                    append(rows, r, vpos)
                value = rows
            put(group, key, value, kpos, vpos, text, notes if first else None, what=f"the pile phrase for `{key}`")
            first = False
        last[0] = "deal" if kind(item) in ("deal", "deal_more", "deal_row", "deal_row_more") else None


def apply_deck_items(ln: Line, items, text: str, deck: LDict, notes, declared: set) -> None:
    """Set the keys of the deck from parsed deck phrases; `suit`, `pack`, `value` and `mark` phrases add up.
    `declared` holds the ids of the maps and lists written empty (`no values`), which take nothing more."""
    first = True
    for item in items.children:
        if item is None:
            continue
        for key, value, kpos, vpos in deck_effects(ln, item, text):
            note = notes if first else None
            first = False
            if key.startswith("+"):
                real = key[1:]
                make = LList if real in ("packs", "suits") else LDict
                if real not in deck:
                    put(deck, real, make(pos=kpos), kpos, kpos, text, note)
                box = deck[real]
                if not isinstance(box, make) or id(box) in declared:
                    raise LineError(finding(text, "duplicate-key", f"'{real}' is given twice", kpos))
                if make is LList:
                    append(box, value, kpos)
                else:
                    sub_key, sub_value, skpos, svpos = value
                    put(box, sub_key, sub_value, skpos, svpos, text, what=f"'{real}' of '{sub_key}'")
            else:
                if isinstance(value, (LDict, LList)) and not value:
                    declared.add(id(value))
                put(deck, key, value, kpos, vpos, text, note, what=f"'{key}'")


def apply_match_items(ln: Line, items, text: str, match: LDict, notes) -> None:
    """Set the keys of `match` (and of its player_x map) from parsed match phrases. The comments of a line
    that starts with a `player x` phrase belong to player_x, where the writer puts them back."""
    first = True
    for item in items.children:
        if item is None:
            continue
        for key, value, kpos, vpos in match_effects(ln, item, text):
            note = notes if first else None
            first = False
            if key.startswith("player_x."):
                if "player_x" not in match:
                    put(match, "player_x", LDict(pos=kpos), kpos, kpos, text)
                px = match["player_x"]
                if not isinstance(px, LDict):
                    raise LineError(finding(text, "duplicate-key", "'player_x' is given twice", kpos))
                if note:
                    match.comments.setdefault("player_x", []).extend(note)
                sub = key.split(".", 1)[1]
                put(px, sub, value, kpos, vpos, text, what=f"'player_x.{sub}'")
            else:
                put(match, key, value, kpos, vpos, text, note, what=f"'{key}'")


# ---- paths and the values of `set` ---------------------------------------------------------------
def resolve_path(path: str) -> str:
    """A dotted path with the group shorthand resolved: `tableau.build` is `piles.tableau.build` (a first
    segment that is not a top-level key names a pile group), and `tableau.columns` / `tableau.piles` are
    `piles.tableau.count`."""
    parts = path.split(".")
    if parts[0] not in TOP_KEYS:
        parts = ["piles"] + parts
        if len(parts) == 3 and parts[2] in ("columns", "piles"):
            parts[2] = "count"
    return ".".join(parts)


def path_parts(path: str) -> list:
    from kallisti.model.patch import path_part

    return [path_part(p) for p in path.split(".")]


def value_kind(parts: list) -> str:
    """How the value of `set PATH VALUE` is read: an expression, a pile group, a move pattern (`from field to
    foundation`), a loss condition (`when field.size > 30 "says"`), or a flow value."""
    n = len(parts)
    if n == 1 and parts[0] in ("win", "score"):
        return "expr"
    if n == 3 and parts[0] == "piles" and parts[2] in ("prefill", "reveal"):
        return "expr"
    if n == 4 and parts[0] == "piles" and parts[2] in ("divert", "redeal") and parts[3] == "when":
        return "expr"
    # an item of a list is named by its place or by its id (`compulsory.play-first.when`, `tableau.build.same-suit.require`)
    if n == 3 and parts[0] in ("auto", "compulsory", "lose") and parts[2] == "when":
        return "expr"
    if n == 2 and parts[0] in ("auto", "compulsory") and not isinstance(parts[1], int):
        return "pattern"
    if n == 2 and parts[0] == "lose" and not isinstance(parts[1], int):
        return "lose"
    if n == 5 and parts[0] == "piles" and parts[2] in RULE_KEYS and parts[4] in ("require", "forbid"):
        return "expr"
    if n == 4 and parts[:2] == ["hands", "groupings"] and parts[3] == "when":
        return "expr"
    if n == 2 and parts[0] == "piles":
        return "pile"
    return "flow"


_WHOLE_QUOTED = re.compile(r'"(?:[^"\\\n]|\\.)*"')


def parse_value(ln: Line, rest: Token, parts: list, text: str):
    """The value after `set PATH` or `add PATH`, read according to the path; and its position."""
    sub = ln.sub(rest)
    how = value_kind(parts)
    if how == "expr":
        stripped = sub.text
        if stripped in ("true", "false"):
            return stripped == "true", sub.at(1)
        if _WHOLE_QUOTED.fullmatch(stripped):
            return json_text(sub, stripped, text), sub.at(2)
        tree = parse_line(sub, "value_expr", text)
        return expr_text(sub, tree.children[0])
    if how == "pile":
        tree = parse_line(sub, "value_pile", text)
        inner = tree.children[0]
        if kind(inner) == "flow_map":
            return flow_value(sub, inner, text), sub.at(1)
        group = LDict(pos=sub.at(1))
        apply_pile_items(sub, inner, text, group, [None], None)
        return group, sub.at(1)
    if how in ("pattern", "lose"):
        tree = parse_line(sub, "value_" + how, text)
        if kind(tree) == "value_map":
            return flow_value(sub, tree.children[0], text), sub.at(1)
        d = LDict(pos=sub.at(1))
        if how == "pattern":
            pattern_fields(sub, d, *tree.children, text)
        else:
            lose_fields(sub, d, *tree.children, text)
        return d, sub.at(1)
    tree = parse_line(sub, "value_flow", text)
    node = tree.children[0]
    return flow_value(sub, node, text), value_pos(sub, node)


def json_text(ln: Line, s: str, text: str) -> str:
    try:
        return json.loads(s, strict=False)
    except ValueError:
        raise LineError(finding(text, "bad-escape", "a quoted text may use only the escapes \\\" \\\\ \\/ \\n \\t \\r \\b \\f \\uXXXX",
                                ln.at(1))) from None


def _segments(text: str, begin: int):
    """The comma-separated parts of a line from `begin` (commas inside quotes or brackets do not count),
    as (start, end) with the blanks around each part left out."""
    depth, in_quote, start, i = 0, False, begin, begin
    out = []
    while i <= len(text):
        c = text[i] if i < len(text) else ","
        if in_quote:
            if c == "\\":
                i += 1
            elif c == '"':
                in_quote = False
        elif c == '"':
            in_quote = True
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth <= 0:
            s, e = start, i
            while s < e and text[s] in " \t":
                s += 1
            while e > s and text[e - 1] in " \t":
                e -= 1
            if e > s:
                out.append((s, e))
            start = i + 1
        i += 1
    return out


# ---- the builder ---------------------------------------------------------------------------------
class _Stop(Exception):
    """Reading stops: the file has given MAX_FINDINGS errors already, and `finding` would be one more."""

    def __init__(self, finding: Finding):
        super().__init__(str(finding))
        self.finding = finding


class _Findings(list):
    """The findings of one file: at most MAX_FINDINGS of them; one more stops the reading (`_Stop`)."""

    def append(self, finding: Finding) -> None:
        if len(self) >= MAX_FINDINGS:
            raise _Stop(finding)
        super().append(finding)


class _Builder:
    """Turns parsed lines into located data, collecting a finding per refused line (reading stops at
    MAX_FINDINGS of them: each refused line costs the parser's search for what it expected)."""

    def __init__(self, source: str, text: str):
        self.source, self.text = source, text
        self.findings: list[Finding] = _Findings()
        self.none_lists: set = set()   # (id(container), key) of lists declared empty with `: none`
        self.group_lines: set = set()  # id() of groups that have their pile line

    def fail(self, code: str, message: str, pos: Pos, suggestion: str | None = None):
        raise LineError(finding(self.text, code, message, pos, suggestion))

    def run(self, lines: list[Line], target: LDict) -> None:
        for ln in lines:
            try:
                self.statement(ln, target)
            except LineError as exc:
                self.findings.append(exc.finding)
                head = re.match(r"([A-Za-z_][A-Za-z0-9_]*)\s*:", ln.text)
                if head and exc.finding.code in ("rules-syntax", "unknown-macro"):
                    start = {"deck": "deck_items", "match": "match_items", "hands": "hands_items"}.get(head.group(1), "pile_items")
                    self.more_errors(ln, exc.finding, start, head.end())

    def more_errors(self, ln: Line, first: Finding, start: str, begin: int = 0) -> None:
        """After a refused phrase of a pile or deck line, read the phrases after it on their own, so that
        every bad phrase of the line is reported."""
        bad_col = first.pos.column - ln.indent - 1
        for s, e in _segments(ln.text, begin):
            if s <= bad_col:
                continue
            sub = Line(self.source, ln.no, ln.indent + s, ln.text[s:e])
            try:
                parse_line(sub, start, self.text)
            except LineError as exc:
                self.findings.append(exc.finding)

    def parse(self, ln: Line, start: str) -> Tree:
        return parse_line(ln, start, self.text)

    def no_children(self, ln: Line, what: str) -> None:
        if ln.children:
            child = ln.children[0]
            self.findings.append(finding(self.text, "unexpected-indent", f"this line is indented under {what}, which has no block",
                                         child.at(1), "indent it like the line above, or join it to that line"))

    def says_children(self, ln: Line, d: LDict) -> None:
        """A continuation line holding only the quoted text of what a clause or pattern says."""
        for child in ln.children:
            try:
                if "says" in d:
                    self.fail("unexpected-indent", "this line is indented under a line that already says what it means", child.at(1))
                tree = self.parse(child, "says_line")
                tok = tree.children[0]
                put(d, "says", unquote(child, tok, self.text), child.tok(tok), child.quoted(tok), self.text)
                self.no_children(child, "a quoted text")
            except LineError as exc:
                self.findings.append(exc.finding)

    def container(self, target: LDict, key: str, make, pos: Pos, notes=None):
        if key not in target:
            put(target, key, make(pos), pos, pos, self.text, notes)
        return target[key]

    def group(self, target: LDict, name_tok: Token, ln: Line) -> LDict:
        piles = self.container(target, "piles", lambda p: LDict(pos=p), ln.tok(name_tok))
        if not isinstance(piles, LDict):
            self.fail("duplicate-key", "'piles' is given twice", ln.tok(name_tok))
        name = str(name_tok)
        if name not in piles:
            put(piles, name, LDict(pos=ln.tok(name_tok)), ln.tok(name_tok), ln.tok(name_tok), self.text)
        group = piles[name]
        if not isinstance(group, LDict):
            self.fail("duplicate-key", f"pile group '{name}' is given twice", ln.tok(name_tok))
        return group

    def list_for(self, target: LDict, key: str, pos: Pos, notes) -> tuple[LList, list | None]:
        if (id(target), key) in self.none_lists:
            self.fail("duplicate-key", f"'{key}' was declared empty with `{key}: none`", pos)
        if key not in target:
            put(target, key, LList(pos=pos), pos, pos, self.text)
            return target[key], notes
        lst = target[key]
        if not isinstance(lst, LList):
            self.fail("duplicate-key", f"'{key}' is given twice", pos)
        return lst, notes

    def statement(self, ln: Line, target: LDict) -> None:
        tree = self.parse(ln, "statement")
        getattr(self, "st_" + kind(tree))(ln, tree, target)

    # -- statements --
    def st_game(self, ln, tree, target):
        tok = tree.children[0]
        value, pos = token_value(ln, tok, self.text) if kind(tok) == "QUOTED" else (str(tok).strip(), ln.tok(tok))
        put(target, "game", value, ln.at(1), pos, self.text, ln.notes())
        self.no_children(ln, "`game:`")

    def st_extends(self, ln, tree, target):
        value, pos = token_value(ln, tree.children[0], self.text)
        put(target, "extends", value, ln.at(1), pos, self.text, ln.notes())
        self.no_children(ln, "`extends`")

    def st_description(self, ln, tree, target):
        tok = tree.children[0]
        if ln.raw:
            # A block: its lines are joined by one space, a blank line starts a new paragraph (a newline), and the
            # text ends with a newline, as YAML's folded `>` reads the same lines.
            if tok is not None and kind(tok) == "QUOTED":
                first = next(e for e in ln.raw if e is not None)
                self.fail("description-block", "a quoted description cannot go on over indented lines", Pos(self.source, first[0], first[1] + 1))
            entries = ([(ln.no, ln.indent + tok.column - 1, str(tok))] if tok is not None else []) + ln.raw
            out, breaks, first_pos = "", 0, None
            for entry in entries:
                if entry is None:
                    breaks += 1 if first_pos is not None else 0
                    continue
                no, col0, words = entry
                if first_pos is None:
                    out, first_pos = words.strip(), Pos(self.source, no, col0 + 1)
                else:
                    out += ("\n" * breaks if breaks else " ") + words.strip()
                breaks = 0
            put(target, "description", out + "\n", ln.at(1), first_pos, self.text, ln.notes())
            return
        if tok is None:
            value, pos = "", ln.at(len(ln.text) + 1)
        elif kind(tok) == "QUOTED":
            value, pos = token_value(ln, tok, self.text)
        else:
            value, pos = str(tok).strip(), ln.tok(tok)
        put(target, "description", value, ln.at(1), pos, self.text, ln.notes())

    def st_deck(self, ln, tree, target):
        self._phrase_map(ln, tree, target, "deck", lambda line, items, d, notes: apply_deck_items(line, items, self.text, d, notes,
                                                                                                 self.none_lists))

    def st_match(self, ln, tree, target):
        self._phrase_map(ln, tree, target, "match", lambda line, items, d, notes: apply_match_items(line, items, self.text, d, notes))

    def st_hands(self, ln, tree, target):
        self._phrase_map(ln, tree, target, "hands", lambda line, items, d, notes: apply_hand_items(line, items, self.text, d, notes))

    def _hand_map(self, target: LDict, key: str, ln: Line) -> LDict:
        """The map `hands.KEY` (groupings or cripples), made on first use."""
        hands = self.container(target, "hands", lambda p: LDict(pos=p), ln.at(1))
        if not isinstance(hands, LDict):
            self.fail("duplicate-key", "'hands' is given twice", ln.at(1))
        box = self.container(hands, key, lambda p: LDict(pos=p), ln.at(1))
        if not isinstance(box, LDict):
            self.fail("duplicate-key", f"'hands.{key}' is given twice", ln.at(1))
        return box

    def _hand_options(self, ln: Line, d: LDict, options) -> None:
        """`rank N`, `named "..."`, `on` / `off` of a grouping or a cripple."""
        for opt in options:
            k, pos = kind(opt), ln.meta(opt)
            if k == "opt_rank":
                put(d, "rank", int(opt.children[0]), pos, ln.tok(opt.children[0]), self.text, what="the rank")
            elif k == "opt_named":
                tok = opt.children[0]
                put(d, "name", unquote(ln, tok, self.text), pos, ln.quoted(tok), self.text, what="the name")
            else:
                put(d, "enabled", k == "opt_on", pos, pos, self.text, what="`on` or `off`")

    def st_grouping(self, ln, tree, target):
        cid, *options, body, says = tree.children
        box = self._hand_map(target, "groupings", ln)
        if str(cid) in box:
            self.fail("duplicate-key", f"the grouping '{cid}' is given twice", ln.tok(cid))
        d = LDict(pos=ln.tok(cid))
        self._hand_options(ln, d, options)
        k, c = kind(body), body.children
        if k == "body_of":
            put(d, "of", str(c[1]), ln.tok(c[1]), ln.tok(c[1]), self.text)
            put(d, "count", int(c[0]), ln.tok(c[0]), ln.tok(c[0]), self.text)
        else:
            if k == "body_cards":
                n, _, expr = c
                cards, cpos = int(n), ln.tok(n)
            else:
                lo, hi, _, expr = c
                if int(lo) > int(hi):
                    self.fail("grouping-size", f"'{lo} to {hi} cards': the fewest is more than the most", ln.tok(lo),
                              f"write `{hi} to {lo} cards`")
                cards, cpos = LList([int(lo), int(hi)], pos=ln.tok(lo)), ln.tok(lo)
                cards.item_pos = [ln.tok(lo), ln.tok(hi)]
            put(d, "cards", cards, cpos, cpos, self.text)
            e, epos = expr_text(ln, expr)
            put(d, "when", e, epos, epos, self.text)
        if says is not None:
            put(d, "says", unquote(ln, says, self.text), ln.tok(says), ln.quoted(says), self.text)
        put(box, str(cid), d, ln.tok(cid), ln.tok(cid), self.text, ln.notes())
        self.says_children(ln, d)

    def st_cripple(self, ln, tree, target):
        children = list(tree.children)
        cid = children.pop(0)
        says = children.pop() if children and (children[-1] is None or kind(children[-1]) == "QUOTED") else None
        options = [x for x in children if isinstance(x, Tree)]
        by, *beaten = [x for x in children if isinstance(x, Token)]
        box = self._hand_map(target, "cripples", ln)
        if str(cid) in box:
            self.fail("duplicate-key", f"the cripple '{cid}' is given twice", ln.tok(cid))
        d = LDict(pos=ln.tok(cid))
        put(d, "by", str(by), ln.tok(by), ln.tok(by), self.text)
        lst = LList(pos=ln.tok(beaten[0]))
        for b in beaten:
            append(lst, str(b), ln.tok(b))
        put(d, "beats", lst, ln.tok(beaten[0]), ln.tok(beaten[0]), self.text)
        self._hand_options(ln, d, options)
        if says is not None:
            put(d, "says", unquote(ln, says, self.text), ln.tok(says), ln.quoted(says), self.text)
        put(box, str(cid), d, ln.tok(cid), ln.tok(cid), self.text, ln.notes())
        self.says_children(ln, d)

    def _phrase_map(self, ln, tree, target, key, apply):
        """`deck:` or `match:`: a map set by the phrases of the line and of its continuation lines."""
        pos = ln.at(1)
        if key in target and id(target[key]) in self.group_lines:
            self.fail("duplicate-key", f"'{key}' is given twice", pos)
        d = self.container(target, key, lambda p: LDict(pos=p), pos, ln.notes())
        if not isinstance(d, LDict):
            self.fail("duplicate-key", f"'{key}' is given twice", pos)
        self.group_lines.add(id(d))
        apply(ln, tree.children[0], d, None)
        for child in self._flatten(ln.children):
            try:
                items = self.parse(child, f"{key}_items")
                apply(child, items, d, child.notes())
            except LineError as exc:
                self.findings.append(exc.finding)
                if exc.finding.code in ("rules-syntax", "unknown-macro"):
                    self.more_errors(child, exc.finding, f"{key}_items")

    @staticmethod
    def _flatten(lines):
        """The lines and, depth first, the lines indented under them (walked with a stack, not by recursion)."""
        stack = list(reversed(lines))
        while stack:
            ln = stack.pop()
            yield ln
            stack.extend(reversed(ln.children))

    def st_group(self, ln, tree, target):
        name_tok, items = tree.children
        notes = ln.notes()
        group = self.group(target, name_tok, ln)
        if id(group) in self.group_lines:
            self.fail("duplicate-key", f"pile group '{name_tok}' has two lines", ln.tok(name_tok),
                      "continue a long pile line on indented lines below it")
        self.group_lines.add(id(group))
        if notes:
            target["piles"].comments[str(name_tok)] = notes
        last = [None]
        apply_pile_items(ln, items, self.text, group, last, None)
        for child in self._flatten(ln.children):
            try:
                items = self.parse(child, "pile_items")
                apply_pile_items(child, items, self.text, group, last, child.notes())
            except LineError as exc:
                last[0] = None
                self.findings.append(exc.finding)
                if exc.finding.code in ("rules-syntax", "unknown-macro"):
                    self.more_errors(child, exc.finding, "pile_items")

    def st_rule_block(self, ln, tree, target):
        name_tok, key_node = tree.children
        key = kind(key_node)[4:]
        group = self.group(target, name_tok, ln)
        rule = LList(pos=ln.meta(key_node))
        put(group, key, rule, ln.meta(key_node), ln.meta(key_node), self.text, ln.notes(), what=f"the {key} rule of '{name_tok}'")
        for child in ln.children:
            try:
                item = self.parse(child, "rule_item")
                k = kind(item)
                if k == "item_macro":
                    append(rule, phrase_text(child, item), child.meta(item), child.notes())
                    self.no_children(child, "a rule macro")
                elif k == "item_quoted":
                    tok = item.children[0]
                    append(rule, unquote(child, tok, self.text), child.quoted(tok), child.notes())
                    self.no_children(child, "a rule macro")
                else:
                    d = clause(child, item.children[0], self.text)
                    append(rule, d, child.meta(item), child.notes())
                    self.says_children(child, d)
            except LineError as exc:
                self.findings.append(exc.finding)

    def _pattern(self, ln, tree, target, key):
        cid, trigger, pattern = tree.children
        lst, notes = self.list_for(target, key, ln.at(1), ln.notes())
        start = ln.at(1)
        d = LDict(pos=start)
        put(d, "id", str(cid), ln.tok(cid), ln.tok(cid), self.text)
        pattern_fields(ln, d, trigger, pattern, self.text)
        append(lst, d, start, notes)
        self.says_children(ln, d)

    def st_auto(self, ln, tree, target):
        self._pattern(ln, tree, target, "auto")

    def st_compulsory(self, ln, tree, target):
        self._pattern(ln, tree, target, "compulsory")

    def _none(self, ln, target, key):
        if key in target:
            self.fail("duplicate-key", f"'{key}' is given twice", ln.at(1))
        put(target, key, LList(pos=ln.at(1)), ln.at(1), ln.at(1), self.text, ln.notes())
        self.none_lists.add((id(target), key))
        self.no_children(ln, f"`{key}: none`")

    def st_auto_none(self, ln, tree, target):
        self._none(ln, target, "auto")

    def st_compulsory_none(self, ln, tree, target):
        self._none(ln, target, "compulsory")

    def st_lose_none(self, ln, tree, target):
        self._none(ln, target, "lose")

    def st_lose(self, ln, tree, target):
        cid, when, says = tree.children
        lst, notes = self.list_for(target, "lose", ln.at(1), ln.notes())
        d = LDict(pos=ln.at(1))
        put(d, "id", str(cid), ln.tok(cid), ln.tok(cid), self.text)
        lose_fields(ln, d, when, says, self.text)
        append(lst, d, ln.at(1), notes)
        self.says_children(ln, d)

    def st_win(self, ln, tree, target):
        e, epos = expr_text(ln, tree.children[0])
        put(target, "win", e, ln.at(1), epos, self.text, ln.notes())
        self.no_children(ln, "`win`")

    def st_score(self, ln, tree, target):
        e, epos = expr_text(ln, tree.children[0])
        put(target, "score", e, ln.at(1), epos, self.text, ln.notes())
        self.no_children(ln, "`score`")

    def st_honour(self, ln, tree, target):
        cid, moment, says = tree.children
        if (id(target), "honour") in self.none_lists:
            self.fail("duplicate-key", "'honour' was declared empty with `honour: none`", ln.at(1))
        if "honour" not in target:
            put(target, "honour", LDict(pos=ln.at(1)), ln.at(1), ln.at(1), self.text)
        honour = target["honour"]
        if not isinstance(honour, LDict):
            self.fail("duplicate-key", "'honour' is given twice", ln.at(1))
        if str(cid) in honour:
            self.fail("duplicate-key", f"the honour rule '{cid}' is given twice", ln.tok(cid))
        rule = honour_rule(ln, cid, moment, says, self.text)
        put(honour, str(cid), rule, ln.tok(cid), rule.pos, self.text, ln.notes())

    def st_honour_none(self, ln, tree, target):
        if "honour" in target:
            self.fail("duplicate-key", "'honour' is given twice", ln.at(1))
        put(target, "honour", LDict(pos=ln.at(1)), ln.at(1), ln.at(1), self.text, ln.notes())
        self.none_lists.add((id(target), "honour"))
        self.no_children(ln, "`honour: none`")

    def st_layout(self, ln, tree, target):
        name_node, items = tree.children
        if (id(target), "layout") in self.none_lists:
            self.fail("duplicate-key", "'layout' was declared empty with `layout: none`", ln.at(1))
        notes = ln.notes()
        if "layout" not in target:
            # the comments above the first layout line are the layout's own (as YAML keeps those above `layout:`)
            put(target, "layout", LDict(pos=ln.at(1)), ln.at(1), ln.at(1), self.text, notes)
            notes = None
        layout = target["layout"]
        if not isinstance(layout, LDict):
            self.fail("duplicate-key", "'layout' is given twice", ln.at(1))
        group, gpos = name_of(ln, name_node, self.text)
        if group in layout:
            self.fail("duplicate-key", f"the layout of '{group}' is given twice", gpos)
        hint = LDict(pos=gpos)
        for item in items.children:
            if item is None:
                continue
            key, value = kind(item)[len("layout_"):], item.children[0]
            if key == "fan":
                text, vpos = phrase_text(ln, value), ln.meta(value)
            else:
                text, vpos = int(value), ln.tok(value)
            put(hint, key, text, ln.meta(item), vpos, self.text, what=f"the {key} of '{group}'")
        put(layout, group, hint, gpos, gpos, self.text, notes)
        self.no_children(ln, "a layout hint")

    def st_layout_none(self, ln, tree, target):
        if "layout" in target:
            self.fail("duplicate-key", "'layout' is given twice", ln.at(1))
        put(target, "layout", LDict(pos=ln.at(1)), ln.at(1), ln.at(1), self.text, ln.notes())
        self.none_lists.add((id(target), "layout"))
        self.no_children(ln, "`layout: none`")

    def st_add(self, ln, tree, target):
        add = LDict(pos=ln.at(1))
        put(target, "add", add, ln.at(1), ln.at(1), self.text, ln.notes())
        self.run(ln.children, add)

    def st_changes(self, ln, tree, target):
        from kallisti.grammar.changes import change_from_line

        changes = LList(pos=ln.at(1))
        put(target, "changes", changes, ln.at(1), ln.at(1), self.text, ln.notes())
        for child in ln.children:
            try:
                patch = change_from_line(child, self.text)
                append(changes, patch, child.at(1), child.notes())
            except LineError as exc:
                self.findings.append(exc.finding)

    def st_set(self, ln, tree, target):
        path_tok, rest = tree.children
        path = resolve_path(str(path_tok))
        parts = path_parts(path)
        value, vpos = parse_value(ln, rest, parts, self.text)
        node = target
        for i, part in enumerate(parts[:-1]):
            if isinstance(node, dict):
                key = str(part)
                if key not in node:
                    put(node, key, LDict(pos=ln.tok(path_tok)), ln.tok(path_tok), ln.tok(path_tok), self.text)
                node = node[key]
            elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
                node = node[part]
            else:
                self.fail("unknown-path", f"'{path}': {'.'.join(map(str, parts[:i])) or 'the ruleset'} has no '{part}'", ln.tok(path_tok))
        last = parts[-1]
        if isinstance(node, dict):
            put(node, str(last), value, ln.tok(path_tok), vpos, self.text, ln.notes(), what=f"'{path}'")
        else:
            self.fail("unknown-path", f"cannot set '{path}' in a file: its parent is not a map", ln.tok(path_tok))
        self.no_children(ln, "`set`")


def parse_rules(text: str, source: str = "<rules>") -> LDict:
    """Read `.rules` text into located plain data (the same data the YAML loader gives), or raise
    KallistiError with a finding for every line that could not be read."""
    if len(text) > MAX_FILE_BYTES:
        raise KallistiError(Finding("file-too-large", f"file is larger than {MAX_FILE_BYTES} bytes", Pos(source)))
    if text.startswith("\ufeff"):
        text = text[1:]
    builder = _Builder(source, text)
    data = LDict(pos=Pos(source, 1, 1))
    try:
        lines, end = layout(text, source, builder.findings)
        builder.run(lines, data)
    except _Stop as stop:
        raise KallistiError(list(builder.findings) + [Finding(
            "more-errors", f"reading stopped at this error ({stop.finding.code}) after {MAX_FINDINGS} others; the rest of "
            "the file is not read", stop.finding.pos, suggestion="fix the errors above first")]) from None
    if end:
        data.comments[""] = end
    if builder.findings:
        raise KallistiError(builder.findings)
    return data
