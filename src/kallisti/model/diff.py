"""The differences between two rulesets, as lines a player reads: what a change or an edit did."""

from __future__ import annotations

from typing import Any

from kallisti.model.located import plain


def _is_clause_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(c, dict) and "id" in c for c in value)


def _show(value: Any) -> str:
    if isinstance(value, dict) and ("require" in value or "forbid" in value):
        kind = "require" if "require" in value else "forbid"
        return f"{kind} {value[kind]}" + (f"  ({value['says']})" if value.get("says") else "")
    if isinstance(value, str):
        return value if value and "\n" not in value else repr(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_show(v)}" for k, v in value.items()) + "}"
    return str(value)


def ruleset_diff(before: dict, after: dict) -> list[str]:
    """Lines `~ path: old -> new`, `+ path: value`, `- path: value`, in the order of the rulesets' keys.

    Clause lists (rules, automatic and compulsory moves, loss conditions) are compared clause by
    clause by id, so adding one clause shows as one line, not as a changed list.
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
            elif clause != ids_b[cid]:
                out.append(f"~ {path} {cid}: {_show(clause)} -> {_show(ids_b[cid])}")
        for cid, clause in ids_b.items():
            if cid not in ids_a:
                out.append(f"+ {path} {cid}: {_show(clause)}")
        return
    out.append(f"~ {path}: {_show(a)} -> {_show(b)}")
