"""Write ruleset file data as YAML: `to_yaml(data)` is the canonical YAML form of a ruleset file.

The data is what a ruleset FILE holds, as `parse_file` gives it (from YAML or from `.rules`):
`extends`, `add` and `changes` as written, rule macros as strings, clauses as maps. The layout:

- keys in the order of the data, two spaces of indentation, list items indented under their key;
- the file itself, `deck`, `piles`, each pile group (and the same inside `add`), the items of
  `auto`, `compulsory`, `lose` and `changes`, and the clauses of a rule are written as blocks;
- any other list or map is written in flow style (`deal: [up, up, up]`,
  `turn: {to: waste, count: 1}`) when it fits on its line (96 columns) and holds no comment that
  would need a line of its own, in block style otherwise;
- a description is a folded block (`>`, or `>-` when it does not end in a newline) wrapped at 96
  columns, when folding reads back as exactly the same text;
- a string is quoted only when YAML needs it (PyYAML's emitter decides), in double quotes, on one
  line, with escapes (`\\n`, `\\"`…) where needed.

Comments kept by the readers (`LDict.comments`, `LList.comments`: key or index -> lines, without the
leading `# `) are written on their own lines before the key or item; comments under the key "" of
the file come last. A map or list holding comments is written as a block, so each comment stays
before its own key or item; only the first key of a list item shares the item's line (`- id: x`),
and its comments go before that line (where the reader gives them to the item). So
`load_yaml(to_yaml(d))` equals `d` as plain data and keeps every comment, and writing again gives
the same text.
"""

from __future__ import annotations

import functools
import math

import yaml

from kallisti.grammar.rules_writer import Unwritable, fold_paragraphs
from kallisti.model.patch import RULE_KEYS

WIDTH = 96
STEP = 2
RECORD_LISTS = ("auto", "compulsory", "lose", "changes")
_INF = float("inf")


# ---- scalars ----------------------------------------------------------------------------------------
def _dump(value, **options) -> str:
    out = yaml.safe_dump(value, width=_INF, allow_unicode=True, **options)
    if out.endswith("\n...\n"):  # a plain scalar alone in a document
        out = out[:-5]
    return out[:-1] if out.endswith("\n") else out


@functools.lru_cache(maxsize=8192, typed=True)
def scalar(value, flow: bool = False) -> str:
    """A scalar as YAML text on one line: plain when YAML reads it back as the same value (in a flow
    collection when `flow`), quoted otherwise."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            raise Unwritable("NaN cannot be written (it is not equal to itself)")
        return _dump(value)
    if not isinstance(value, str):
        raise Unwritable(f"{value!r} is not a value a ruleset file can hold")
    text = _dump([value], default_flow_style=True)[1:-1] if flow else _dump(value)
    if text[:1] in ("'", '"'):  # quoted: in double quotes, on one line, with escapes where needed
        text = _dump(value, default_style='"')
    return text


def key_text(key, flow: bool = False) -> str:
    if not isinstance(key, str):
        raise Unwritable(f"the key {key!r} is not a string")
    return scalar(key, flow)


def _folded(text: str, width: int) -> list[str] | None:
    """The lines of a folded block scalar that reads back as `text`, or None when there is none."""
    core = text[:-1] if text.endswith("\n") else text
    if not core or core.endswith("\n"):
        return None
    return fold_paragraphs(core, max(width, 20))


# ---- comments -----------------------------------------------------------------------------------------
def _comments(node, key) -> list[str]:
    return list(getattr(node, "comments", {}).get(key) or ())


def _count(node) -> int:
    """How many comment lines a node holds, at any depth."""
    if isinstance(node, dict):
        return sum(len(_comments(node, k)) + _count(v) for k, v in node.items())
    if isinstance(node, (list, tuple)):
        return sum(len(_comments(node, i)) + _count(v) for i, v in enumerate(node))
    return 0


def _chain(node) -> list[str]:
    """The comments of a list item's first line (`- id: x`, `- - a`): its first key's or item's, and
    for a list, those of its first item's first line."""
    if isinstance(node, dict) and node:
        return _comments(node, next(iter(node)))
    if isinstance(node, (list, tuple)) and node:
        return _comments(node, 0) + _chain(node[0])
    return []


# ---- the document -------------------------------------------------------------------------------------
def _block_path(path: tuple) -> bool:
    """Whether the map at `path` is always a block: the file, deck, piles, a group, an item of a
    record list, a clause; `add` holds keys as the file does."""
    p = path[1:] if path[:1] == ("add",) else path
    if len(p) == 0:
        return True
    if p[0] in ("deck", "piles") and len(p) == 1:
        return True
    if p[0] == "piles" and (len(p) == 2 or len(p) in (3, 4) and p[2] in RULE_KEYS):
        return True
    return p[0] in RECORD_LISTS and len(p) == 2


def _description(path: tuple, key) -> bool:
    return key == "description" and (path == () or path == ("add",))


class _Writer:
    """Lines as (indent, text, the comments before the line)."""

    def flow(self, node, path: tuple) -> str | None:
        """The node in flow style, or None when it must be a block."""
        if isinstance(node, dict):
            if node and _block_path(path):
                return None
            parts = []
            for k, v in node.items():
                inner = self.flow(v, path + (k,))
                if inner is None:
                    return None
                parts.append(f"{key_text(k, True)}: {inner}")
            return "{" + ", ".join(parts) + "}"
        if isinstance(node, (list, tuple)):
            parts = []
            for i, v in enumerate(node):
                inner = self.flow(v, path + (i,))
                if inner is None:
                    return None
                parts.append(inner)
            return "[" + ", ".join(parts) + "]"
        return scalar(node, True)

    def inline(self, node, path: tuple, room: int, item: bool = False) -> str | None:
        """The text of a value written on its key's line (or, when `item`, its dash's line), or None for
        a block below it. A value holding comments is a block, so that each stays on its line; only
        the comments of a list item's first line (`_chain`) may go before the dash either way."""
        if not isinstance(node, (dict, list, tuple)):
            return scalar(node)
        if not node:
            return "{}" if isinstance(node, dict) else "[]"
        if _count(node) > (len(_chain(node)) if item else 0):
            return None
        text = self.flow(node, path)
        return text if text is not None and len(text) <= room else None

    def block(self, node, indent: int, path: tuple) -> list[tuple[int, str, list[str]]]:
        """The lines of a map or list written as a block at `indent`."""
        out: list[tuple[int, str, list[str]]] = []
        if isinstance(node, dict):
            for k, v in node.items():
                head = f"{key_text(k)}:"
                notes = _comments(node, k)
                if _description(path, k) and isinstance(v, str):
                    text = scalar(v)
                    folded = _folded(v, WIDTH - indent - STEP)
                    if folded is not None and (v.endswith("\n") or "\n" in v or indent + len(head) + 1 + len(text) > WIDTH):
                        out.append((indent, head + (" >" if v.endswith("\n") else " >-"), notes))
                        out += [(indent + STEP, line, []) for line in folded]
                        continue
                text = self.inline(v, path + (k,), WIDTH - indent - len(head) - 1)
                if text is not None:
                    out.append((indent, f"{head} {text}", notes))
                else:
                    out.append((indent, head, notes))
                    out += self.block(v, indent + STEP, path + (k,))
        else:
            for i, v in enumerate(node):
                notes = _comments(node, i)
                text = self.inline(v, path + (i,), WIDTH - indent - 2, item=True)
                if text is not None:
                    out.append((indent, f"- {text}", notes + _chain(v)))
                    continue
                inner = self.block(v, indent + STEP, path + (i,))
                _, first_text, first_notes = inner[0]
                out.append((indent, f"- {first_text}", notes + first_notes))
                out += inner[1:]
        return out


def to_yaml(data) -> str:
    """Ruleset file data (as parse_file gives it, from either syntax) as canonical YAML text."""
    if not isinstance(data, dict):
        raise Unwritable("a ruleset is a map of keys")
    w = _Writer()
    lines = w.block(data, 0, ()) if data else [(0, "{}", [])]
    out: list[str] = []
    for indent, text, notes in lines:
        out += [_comment_line(indent, note) for note in notes]
        out.append(" " * indent + text if text else "")
    end = _comments(data, "") if "" not in data else []  # (a key "" holds its own comments)
    if end:
        out.append("")
        out += [_comment_line(0, note) for note in end]
    return "\n".join(out) + "\n"


def _comment_line(indent: int, note: str) -> str:
    return (" " * indent + f"# {note}").rstrip() if note else " " * indent + "#"
