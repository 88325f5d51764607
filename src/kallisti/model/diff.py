"""The differences between two rulesets, as lines a player reads: what a change or an edit did."""

from __future__ import annotations

from typing import Any

from kallisti.located import plain

MAX_SHOWN = 120  # characters of one value shown in a diff line; a long text is cut with `…`
PROVENANCE = ("macro",)  # clause keys that say where a clause came from, not what it means


def _is_clause_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(c, dict) and "id" in c for c in value)


def _is_condition(value: Any) -> bool:
    return isinstance(value, dict) and ("require" in value or "forbid" in value)


def _meaning(clause: dict) -> dict:
    """A clause without its provenance: two clauses that differ only in the macro they came from mean the same."""
    return {k: v for k, v in clause.items() if k not in PROVENANCE}


def _show(value: Any) -> str:
    text = _text(value)
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN - 1] + "…"


def _text(value: Any) -> str:
    if _is_condition(value):
        kind = "require" if "require" in value else "forbid"
        return f"{kind} {_text(value[kind])}" + (f"  ({value['says']})" if value.get("says") else "")
    if isinstance(value, str):
        return value if value and "\n" not in value.strip() else repr(value.strip())
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_text(v)}" for k, v in value.items() if k not in PROVENANCE) + "}"
    return str(value)


def ruleset_diff(before: dict, after: dict) -> list[str]:
    """Lines `~ path: old -> new`, `+ path: value`, `- path: value`, in the order of the rulesets' keys.

    Clause lists (rules, automatic and compulsory moves, loss conditions) are compared clause by
    clause by id, so adding one clause shows as one line, not as a changed list; a changed
    condition shows whole, a changed clause of another kind (an automatic move) field by field.
    A clause that now comes from another macro but means the same is no difference.
    """
    out: list[str] = []
    _walk(plain(before), plain(after), "", out)
    return out


def _walk(a: Any, b: Any, path: str, out: list[str]) -> None:
    if a == b:
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(a) + [k for k in b if k not in a]:
            sub = f"{path}.{key}" if path else str(key)
            if key not in b:
                out.append(f"- {sub}: {_show(a[key])}")
            elif key not in a:
                out.append(f"+ {sub}: {_show(b[key])}")
            else:
                _walk(a[key], b[key], sub, out)
        return
    if (_is_clause_list(a) or a == []) and (_is_clause_list(b) or b == []):
        ids_a = {c["id"]: c for c in a}
        ids_b = {c["id"]: c for c in b}
        for cid, clause in ids_a.items():
            if cid not in ids_b:
                out.append(f"- {path} {cid}: {_show(clause)}")
            elif _meaning(clause) != _meaning(ids_b[cid]):
                new = ids_b[cid]
                if _is_condition(clause) and _is_condition(new):
                    out.append(f"~ {path} {cid}: {_show(clause)} -> {_show(new)}")
                else:
                    _walk(_meaning(clause), _meaning(new), f"{path} {cid}", out)
        for cid, clause in ids_b.items():
            if cid not in ids_a:
                out.append(f"+ {path} {cid}: {_show(clause)}")
        return
    out.append(f"~ {path}: {_show(a)} -> {_show(b)}")
