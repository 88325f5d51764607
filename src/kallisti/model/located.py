"""Plain data that remembers where each node was written: dicts and lists with positions."""

from __future__ import annotations

from typing import Any

import yaml

from kallisti.errors import KallistiError, Finding, Pos

# Limits on untrusted YAML; each refusal is a clear error, never a crash or a hang.
MAX_FILE_BYTES = 1_000_000
MAX_DEPTH = 40


class LDict(dict):
    """A dict whose node and whose values carry source positions."""

    __slots__ = ("pos", "key_pos", "value_pos", "comments")

    def __init__(self, *args, pos: Pos | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.pos = pos
        self.key_pos: dict[str, Pos] = {}
        self.value_pos: dict[str, Pos] = {}
        self.comments: dict[str, list[str]] = {}  # comment lines written just before a key (kept by convert and fmt)


class LList(list):
    """A list whose node and whose items carry source positions."""

    __slots__ = ("pos", "item_pos", "comments")

    def __init__(self, *args, pos: Pos | None = None):
        super().__init__(*args)
        self.pos = pos
        self.item_pos: list[Pos | None] = [None] * len(self)
        self.comments: dict[int, list[str]] = {}  # comment lines written just before an item


def child_pos(node: Any, key: Any) -> Pos | None:
    """The position of `node[key]`, or None when it is not known.

    For a map or list written as a block under its key, that is the key itself (`piles:`),
    not its first child; for a scalar, the value.
    """
    if isinstance(node, LDict):
        value = node.get(key)
        if isinstance(value, (dict, list)) and key in node.key_pos:
            value_at = node.value_pos.get(key)
            key_at = node.key_pos[key]
            if value_at is None or value_at.line != key_at.line:
                return key_at
        return node.value_pos.get(key) or _own(value) or node.pos
    if isinstance(node, LList) and isinstance(key, int) and 0 <= key < len(node.item_pos):
        return node.item_pos[key] or _own(node[key]) or node.pos
    return _own(node)


def _own(node: Any) -> Pos | None:
    return getattr(node, "pos", None)


def position_at(data: Any, path, default: Pos | None = None) -> Pos | None:
    """The position of the deepest known node along `path` (keys and indexes)."""
    best = _own(data) or default
    node = data
    for key in path:
        pos = child_pos(node, key)
        if pos is not None:
            best = pos
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            break
    return best


def copy(node: Any) -> Any:
    """A deep copy that keeps every position."""
    if isinstance(node, dict):
        out = LDict(pos=_own(node))
        for k, v in node.items():
            out[k] = copy(v)
        if isinstance(node, LDict):
            out.key_pos = dict(node.key_pos)
            out.value_pos = dict(node.value_pos)
            out.comments = {k: list(v) for k, v in node.comments.items()}
        return out
    if isinstance(node, list):
        out = LList([copy(v) for v in node], pos=_own(node))
        if isinstance(node, LList):
            out.item_pos = list(node.item_pos)
            out.comments = {k: list(v) for k, v in node.comments.items()}
        return out
    return node


def plain(node: Any) -> Any:
    """The same data as ordinary dicts and lists (for JSON output)."""
    if isinstance(node, dict):
        return {k: plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [plain(v) for v in node]
    return node


def located(node: Any, pos: Pos) -> Any:
    """Wrap plain data so every node carries `pos` (for data built in code or from rule changes)."""
    if isinstance(node, dict):
        out = LDict(pos=pos)
        for k, v in node.items():
            out[k] = located(v, pos)
            out.key_pos[k] = pos
            out.value_pos[k] = pos
        return out
    if isinstance(node, list):
        out = LList([located(v, pos) for v in node], pos=pos)
        out.item_pos = [pos] * len(out)
        return out
    return node


def _mark(mark, source: str) -> Pos:
    return Pos(source, mark.line + 1, mark.column + 1)


class _Loader(yaml.SafeLoader):
    """SafeLoader: builds only plain scalars, maps and lists; never objects."""


def _scalar(node: yaml.ScalarNode, loader: _Loader) -> Any:
    return loader.construct_object(node)


def _build(node: yaml.Node, loader: _Loader, source: str, depth: int) -> Any:
    if depth > MAX_DEPTH:
        raise KallistiError(Finding("yaml-depth", f"nesting deeper than {MAX_DEPTH} levels", _mark(node.start_mark, source)))
    if isinstance(node, yaml.MappingNode):
        out = LDict(pos=_mark(node.start_mark, source))
        for key_node, value_node in node.value:
            key = _scalar(key_node, loader) if isinstance(key_node, yaml.ScalarNode) else None
            kpos = _mark(key_node.start_mark, source)
            if not isinstance(key, (str, int)) or isinstance(key, bool):
                raise KallistiError(Finding("yaml-key", "a key must be a plain name", kpos))
            key = str(key)
            if key in out:
                raise KallistiError(Finding("yaml-duplicate-key", f"key '{key}' is given twice", kpos))
            out[key] = _build(value_node, loader, source, depth + 1)
            out.key_pos[key] = kpos
            out.value_pos[key] = _value_pos(value_node, source)
        return out
    if isinstance(node, yaml.SequenceNode):
        items = [_build(n, loader, source, depth + 1) for n in node.value]
        out = LList(items, pos=_mark(node.start_mark, source))
        out.item_pos = [_value_pos(n, source) for n in node.value]
        return out
    return _scalar(node, loader)


def _value_pos(node: yaml.Node, source: str) -> Pos:
    """The position of a value; for a quoted string, the first character inside the quotes."""
    pos = _mark(node.start_mark, source)
    if isinstance(node, yaml.ScalarNode) and node.style in ("'", '"'):
        return pos.shifted(1)
    return pos


def load_yaml(text: str, source: str) -> Any:
    """Parse YAML text into LDict/LList data with positions; refuse aliases and oversized input."""
    if len(text) > MAX_FILE_BYTES:
        raise KallistiError(Finding("file-too-large", f"file is larger than {MAX_FILE_BYTES} bytes", Pos(source)))
    loader = _Loader(text)
    try:
        for event in yaml.parse(text, Loader=_Loader):
            if isinstance(event, (yaml.AliasEvent,)) or getattr(event, "anchor", None):
                raise KallistiError(
                    Finding("yaml-alias", "YAML anchors and aliases are not allowed in rulesets (use `extends` to share rules)",
                            _mark(event.start_mark, source))
                )
        node = loader.get_single_node()
        if node is None:
            return LDict(pos=Pos(source, 1, 1))
        return _build(node, loader, source, 0)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        pos = _mark(mark, source) if mark else Pos(source)
        raise KallistiError(Finding("yaml-syntax", f"{exc.problem or exc.context}", pos)) from None
    finally:
        loader.dispose()
