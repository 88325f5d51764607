"""Parse expression text into a small tree of position-carrying nodes (no Lark tree escapes)."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from lark import Lark, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from kallisti.errors import Finding, KallistiError, Pos, caret
from kallisti.grammar.cache import lark_parser
from kallisti.unsafe import char_name, unsafe_char

# Rule text comes from strangers: bound the work a single expression may cause.
MAX_EXPRESSION_CHARS = 2_000
MAX_EXPRESSION_DEPTH = 100
MAX_INT_LITERAL = 10**9
# A quantifier goes through at most this many items: the cards of the largest deck the schema allows (8 packs
# of 30 ranks in 12 suits); a group has fewer piles. A literal list goes through its own items, `totals()` through
# at most MAX_TOTALS.
MAX_QUANTIFIED_ITEMS = 8 * 30 * 12
MAX_TOTALS = 10_000  # distinct totals one `totals(...)` may make; beyond, the rule fails at run time (the compiler's check)
# Body evaluations one evaluation of an expression may need at worst, whatever the deck: two quantifiers nested over
# cards or piles fit (2,880 x 2,881), three do not (2.4 x 10^10 steps, hours of work for a single move). This is the
# first guard, before a deck is known; the compiler then bounds each rule by its own deck and by how often the engine
# evaluates it (MAX_EVALUATION_STEPS, MAX_LOAD_STEPS and MAX_POSITION_STEPS in kallisti.interpreter.compiler).
MAX_QUANTIFIER_STEPS = 20_000_000


@dataclass(frozen=True)
class Node:
    """An expression node; `col` is the 0-based offset of its first character in the text."""

    col: int


@dataclass(frozen=True)
class Num(Node):
    value: int


@dataclass(frozen=True)
class Str(Node):
    value: str


@dataclass(frozen=True)
class Bool(Node):
    value: bool


@dataclass(frozen=True)
class Name(Node):
    name: str


@dataclass(frozen=True)
class Attr(Node):
    obj: Node
    name: str
    name_col: int = 0  # where the attribute's name starts, for errors about it


@dataclass(frozen=True)
class Op(Node):
    """A unary or binary operator: `op` is the grammar rule's name (rel_eq, arith_add, op_and…)."""

    op: str
    args: tuple


def and_parts(node: Node) -> list[Node]:
    """The top-level `and` parts of an expression, left to right (the expression alone when it is no `and`)."""
    parts, todo = [], [node]
    while todo:
        node = todo.pop(0)
        if isinstance(node, Op) and node.op == "op_and":
            todo[:0] = list(node.args)
            continue
        parts.append(node)
    return parts


@dataclass(frozen=True)
class Call(Node):
    func: str
    args: tuple


@dataclass(frozen=True)
class Quant(Node):
    """`all(p in tableau: p.size == 0)`: a bounded quantifier over a finite collection."""

    func: str
    var: str
    iterable: Node
    body: Node
    var_col: int = 0  # where the variable's name starts, for errors about it


@dataclass(frozen=True)
class ListLit(Node):
    items: tuple


@functools.lru_cache(maxsize=1)
def parser() -> Lark:
    """The LALR expression parser, made once a process when first needed (from the parser cache: grammar/cache.py)."""
    return lark_parser("expr.lark", parser="lalr", propagate_positions=True, maybe_placeholders=False)


def _col(meta) -> int:
    return getattr(meta, "start_pos", 0) or 0


@v_args(meta=True)
class _ToNodes(Transformer):
    """Turns Lark's tree into kallisti nodes, keeping each node's column."""

    def number(self, meta, children):
        value = int(children[0])
        if value > MAX_INT_LITERAL:
            raise _NodeError("number-too-large", f"number {children[0]} is larger than {MAX_INT_LITERAL}", children[0].start_pos)
        return Num(children[0].start_pos, value)

    def string(self, meta, children):
        return Str(children[0].start_pos, str(children[0])[1:-1])

    def true(self, meta, children):
        return Bool(_col(meta), True)

    def false(self, meta, children):
        return Bool(_col(meta), False)

    def name(self, meta, children):
        return Name(children[0].start_pos, str(children[0]))

    def attribute(self, meta, children):
        obj, name = children
        return Attr(obj.col, obj, str(name), name.start_pos)

    def call(self, meta, children):
        func = children[0]
        args = tuple(children[1]) if len(children) > 1 else ()
        return Call(func.start_pos, str(func), args)

    def quantifier(self, meta, children):
        func, var, iterable, body = children
        return Quant(func.start_pos, str(func), str(var), iterable, body, var.start_pos)

    def list(self, meta, children):
        return ListLit(_col(meta), tuple(children[0]) if children else ())

    def arguments(self, meta, children):
        return children

    def __default__(self, data, children, meta):
        first = children[0]
        col = first.col if isinstance(first, Node) else _col(meta)
        if data in ("op_not", "arith_neg"):
            col = _col(meta)
        return Op(col, str(data), tuple(children))


class _NodeError(Exception):
    def __init__(self, code, message, offset):
        super().__init__(message)
        self.code, self.message, self.offset = code, message, offset


_EXPECTED = {"NAME": "a name", "INT": "a number", "STRING": "a string", "$END": "the end of the expression"}


def _describe_expected(expected) -> str:
    """Token names in words: the literal text of keywords and punctuation, a phrase for the rest."""
    words = set()
    for name in expected:
        if name in _EXPECTED:
            words.add(_EXPECTED[name])
            continue
        try:
            pattern = parser().get_terminal(name).pattern
        except KeyError:
            continue
        if pattern.type == "str":
            words.add(f"'{pattern.value}'")
    if len(words) > 8:
        return "an operator or the end of the expression"
    return ", ".join(sorted(words)) if words else "something else"


def depth(node: Node) -> int:
    """The nesting depth of a tree (bounded by MAX_EXPRESSION_DEPTH)."""
    if isinstance(node, Attr):
        return 1 + depth(node.obj)
    if isinstance(node, Op) or isinstance(node, Call) or isinstance(node, ListLit):
        kids = node.args if not isinstance(node, ListLit) else node.items
        return 1 + max((depth(k) for k in kids), default=0)
    if isinstance(node, Quant):
        return 1 + max(depth(node.iterable), depth(node.body))
    return 1


def quantifier_steps(node: Node) -> int:
    """The most body evaluations of quantifiers one evaluation of `node` may make, whatever the deck: each quantifier
    multiplies the work of its body by the items it goes through (a literal list's length, the most totals `totals()`
    may make, or MAX_QUANTIFIED_ITEMS). The compiler then counts the same and more against the ruleset's own deck and
    against how often the rule is evaluated (`Compiler.steps`)."""
    if isinstance(node, Quant):
        return quantifier_steps(node.iterable) + quantified_items(node.iterable) * (1 + quantifier_steps(node.body))
    if isinstance(node, Attr):
        return quantifier_steps(node.obj)
    if isinstance(node, (Op, Call)):
        return sum(quantifier_steps(k) for k in node.args)
    if isinstance(node, ListLit):
        return sum(quantifier_steps(k) for k in node.items)
    return 0


def quantified_items(iterable: Node) -> int:
    """The most items a quantifier over `iterable` goes through, in any deck."""
    if isinstance(iterable, ListLit):
        return len(iterable.items)
    if isinstance(iterable, Call) and iterable.func == "totals":
        return MAX_TOTALS
    return MAX_QUANTIFIED_ITEMS


# Parsed expressions by their text: nodes are immutable and hold offsets, not positions, so one parse
# serves every ruleset that repeats the text (a match compiles many variants of one ruleset).
_parsed: dict[str, Node] = {}
MAX_PARSED = 4096


def parse_expression(text: str, pos: Pos) -> Node:
    """Parse `text` (written at `pos`) into a node tree, or raise KallistiError pointing into it."""
    if not isinstance(text, str):
        text = "true" if text is True else "false" if text is False else str(text)
    if len(text) > MAX_EXPRESSION_CHARS:
        raise KallistiError(Finding("expr-too-long", f"expression longer than {MAX_EXPRESSION_CHARS} characters", pos))
    bad = unsafe_char(text)
    if bad is not None:
        raise KallistiError(Finding("expr-control-char", f"control character in expression ({char_name(text[bad])})", pos))
    node = _parsed.get(text)
    if node is not None:
        return node
    try:
        tree = parser().parse(text)
        node = _ToNodes().transform(tree)
        too_deep = depth(node) > MAX_EXPRESSION_DEPTH
    except RecursionError:
        # Lark's tree walk recurses; a pathologically nested text stops here, refused like any too-deep one.
        too_deep = True
    except VisitError as exc:
        inner = exc.orig_exc
        if isinstance(inner, _NodeError):
            raise _located(inner.code, inner.message, text, pos, inner.offset) from None
        raise
    except UnexpectedEOF:
        raise _located("expr-syntax", "the expression ends too early", text, pos, len(text)) from None
    except UnexpectedCharacters as exc:
        raise _located("expr-syntax", f"unexpected character {text[exc.pos_in_stream]!r}", text, pos, exc.pos_in_stream) from None
    except UnexpectedToken as exc:
        if exc.token.type == "$END":
            raise _located("expr-syntax", f"the expression ends too early: expected {_describe_expected(exc.expected)}", text, pos, len(text)) from None
        raise _located(
            "expr-syntax", f"unexpected {exc.token.value!r}: expected {_describe_expected(exc.expected)}", text, pos, exc.token.start_pos
        ) from None
    except UnexpectedInput as exc:  # pragma: no cover - other Lark errors
        raise _located("expr-syntax", str(exc).splitlines()[0], text, pos, getattr(exc, "pos_in_stream", 0) or 0) from None
    if too_deep:
        raise KallistiError(Finding("expr-too-deep", f"expression nested deeper than {MAX_EXPRESSION_DEPTH} levels", pos))
    steps = quantifier_steps(node)
    if steps > MAX_QUANTIFIER_STEPS:
        raise KallistiError(Finding("expr-too-costly", f"its quantifiers may take {steps:,} steps at worst; at most "
                                    f"{MAX_QUANTIFIER_STEPS:,}", pos, suggestion="nest at most two quantifiers over cards or piles"))
    if len(_parsed) < MAX_PARSED:
        _parsed[text] = node
    return node


def _located(code: str, message: str, text: str, pos: Pos, offset: int) -> KallistiError:
    at = pos.shifted(offset) if "\n" not in text[:offset] else pos
    excerpt = f"    {text}\n    {' ' * offset}^" if "\n" not in text else None
    return KallistiError(Finding(code, message, at, excerpt=excerpt))
