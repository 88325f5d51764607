"""Named rule macros ("down in suit", "top card", …) expanded into clauses with documented ids, in located data.

The phrases and the clauses each stands for are in kallisti.rule_words, which the .rules reader reads too.
"""

from __future__ import annotations

from kallisti.errors import Finding, KallistiError, Pos, did_you_mean
from kallisti.located import LList, located
from kallisti.rule_words import expand_macro, macro_names


def macro_wording(phrase: str) -> str | None:
    """How a refusal says a build macro in words: `down alternate colour` -> `down in alternate colours`."""
    clauses = expand_macro(phrase)
    if not clauses or not all(says.startswith("builds ") for _, _, _, says in clauses):
        return None
    return " ".join(says[len("builds "):] for _, _, _, says in clauses)


def expand_rule(value, pos: Pos | None, where: str):
    """Normalise a rule written as a macro phrase, a clause, or a list of both, into a list of clause dicts."""
    items = value if isinstance(value, list) else [value]
    out = LList(pos=getattr(value, "pos", pos))
    item_pos = getattr(value, "item_pos", None)
    for i, item in enumerate(items):
        ipos = (item_pos[i] if item_pos and i < len(item_pos) else None) or getattr(item, "pos", None) or pos
        if isinstance(item, str):
            clauses = expand_macro(item)
            if clauses is None:
                raise KallistiError(Finding("unknown-macro", f"'{item}' is not a rule macro in {where}", ipos or Pos("<rule>"),
                                            suggestion=did_you_mean(item, macro_names()) or "write a clause: {id: ..., require: ...}"))
            for cid, kind, expr, says in clauses:
                clause = located({"id": cid, kind: expr, "says": says, "macro": " ".join(item.split())}, ipos or Pos("<macro>"))
                out.append(clause)
                out.item_pos.append(ipos)
        elif isinstance(item, bool) and isinstance(value, bool):
            out.extend(expand_rule("any" if item else "none", pos, where))
        else:
            out.append(item)
            out.item_pos.append(ipos)
    return out
