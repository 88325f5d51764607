"""Why a comparison of win, lose or score never or always holds, in words: the expression written back, the ranges it reads."""

from __future__ import annotations

import math

from kallisti.grammar.expressions import Attr, Bool, Call, ListLit, Name, Node, Num, Op, Quant, Str
from kallisti.model.spans import ALWAYS, Analysis, Truth


# -- writing expressions back ---------------------------------------------------------------------------------------

_SYMBOLS = {"rel_eq": "==", "rel_ne": "!=", "rel_lt": "<", "rel_le": "<=", "rel_gt": ">", "rel_ge": ">=",
            "rel_in": "in", "rel_not_in": "not in", "arith_add": "+", "arith_sub": "-", "arith_mul": "*",
            "arith_div": "//", "arith_mod": "%", "op_and": "and", "op_or": "or"}
_LEVEL = {"op_or": 1, "op_and": 2, "op_not": 3, "arith_add": 5, "arith_sub": 5, "arith_mul": 6, "arith_div": 6,
          "arith_mod": 6, "arith_neg": 7, **{op: 4 for op in _SYMBOLS if op.startswith("rel_")}}


def render(node: Node, least: int = 0) -> str:
    """An expression tree written back as text, with the brackets it needs where it stands (`least`: the binding the
    place needs)."""
    if isinstance(node, Op):
        level = _LEVEL[node.op]
        if node.op == "op_not":
            text = "not " + render(node.args[0], 3)
        elif node.op == "arith_neg":
            text = "-" + render(node.args[0], 7)
        else:
            left, right = node.args
            if level == 4:
                text = f"{render(left, 5)} {_SYMBOLS[node.op]} {render(right, 5)}"
            else:
                text = f"{render(left, level)} {_SYMBOLS[node.op]} {render(right, level + 1)}"
        return f"({text})" if level < least else text
    if isinstance(node, Attr):
        return f"{render(node.obj, 8)}.{node.name}"
    if isinstance(node, Call):
        return f"{node.func}({', '.join(render(a) for a in node.args)})"
    if isinstance(node, Quant):
        return f"{node.func}({node.var} in {render(node.iterable)}: {render(node.body)})"
    if isinstance(node, ListLit):
        return f"[{', '.join(render(i) for i in node.items)}]"
    if isinstance(node, Bool):
        return "true" if node.value else "false"
    if isinstance(node, Str):
        return f'"{node.value}"'
    if isinstance(node, Num):
        return str(node.value)
    if isinstance(node, Name):
        return node.name
    return "?"


# -- explaining a verdict -----------------------------------------------------------------------------------------


def reasons(analysis: Analysis, node: Node, value: bool) -> list[Node]:
    """The comparisons that make `node` constantly `value` (as far as the analysis can say which)."""
    if isinstance(node, Op):
        if node.op == "op_not":
            return reasons(analysis, node.args[0], not value)
        if node.op in ("op_and", "op_or"):
            deciding = value is (node.op == "op_or")  # one part decides: a true part of `or`, a false part of `and`
            parts = [a for a in node.args if analysis.values.get(id(a)) == Truth(frozenset({value}))]
            if deciding:
                return reasons(analysis, parts[0], value) if parts else []
            return [r for a in node.args for r in reasons(analysis, a, value)]
        if node.op.startswith("rel_"):
            return [node]
    if isinstance(node, Quant) and node.func in ("all", "any"):
        if analysis.values.get(id(node.body)) == Truth(frozenset({value})):
            return reasons(analysis, node.body, value)
    return []


def _bound(value: float, rank: bool, ranks) -> str:
    if rank and value == int(value) and 0 <= value < len(ranks):
        return ranks[int(value)]
    return str(int(value)) if not math.isinf(value) else str(value)


def describe(analysis: Analysis, node: Op, ranks) -> str:
    """Why the comparison `node` is constant: what each side can be, the side written as a number left out."""
    operands = analysis.operands.get(id(node))
    if not operands:
        return ""
    a, b = operands
    left, right = node.args
    if b is None:  # membership: where the value lies
        if isinstance(left, Num):
            return ""
        where = (f"is {_bound(a.lo, a.rank, ranks)}" if a.exact else
                 f"is from {_bound(a.lo, a.rank, ranks)} to {_bound(a.hi, a.rank, ranks)}")
        return f"{render(left)} {where}"
    below = a.hi <= b.lo  # the comparison is decided by a's most against b's least, or the other way round
    parts = []
    for side, val, hi in ((left, a, below), (right, b, not below)):
        if isinstance(side, Num):
            continue
        if val.exact:
            what = f"is {_bound(val.lo, val.rank, ranks)}"
        elif hi:
            what = f"is at most {_bound(val.hi, val.rank, ranks)}"
        else:
            what = f"is at least {_bound(val.lo, val.rank, ranks)}"
        if what == f"is {render(side)}":
            continue  # a constant by its name: `Q is Q` says nothing
        note = f" ({val.note})" if val.note and (hi or val.exact) else ""
        parts.append(f"{render(side)} {what}{note}")
    return " and ".join(parts)


def why(analysis: Analysis, node: Node, value: bool, whole: str, ranks) -> str:
    """The reasons `node` (whose text is `whole`) is constantly `value`, in words."""
    out = []
    for cmp in reasons(analysis, node, value):
        sides = describe(analysis, cmp, ranks)
        text = render(cmp)
        holds = "always" if analysis.values[id(cmp)] == ALWAYS else "never"
        said = sides or f"`{text}` {holds} holds whatever the position"
        if sides and text != whole:
            said += f", so `{text}` {holds} holds"
        out.append(said)
    return "; ".join(out)
