"""The reader of `.rules` text: its lines, comments and indented blocks, each line parsed alone, and syntax findings."""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from kallisti.errors import Finding, KallistiError, Pos, caret, did_you_mean
from kallisti.grammar.rules_words import MOMENT_PHRASES, ROLES, TOP_KEYS, keywords, macro_phrases, rules_parser
from kallisti.located import MAX_DEPTH, MAX_FINDINGS, MAX_LIST_ITEMS, MAX_NODES, MAX_NUMBER_DIGITS


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
