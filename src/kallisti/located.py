"""Plain data that remembers where each node was written: dicts and lists with positions."""

from __future__ import annotations

import bisect
import itertools
import re
from typing import Any

import yaml

from kallisti.errors import KallistiError, Finding, Pos
from kallisti.textfiles import MAX_FILE_BYTES

# Limits on untrusted YAML; each refusal is a clear error, never a crash or a hang.
MAX_DEPTH = 40
# Digits a number of a ruleset file may be written with: far beyond any count the schema allows, and far below
# the 4,300 digits past which Python refuses to read a number (a ValueError, not a finding).
MAX_NUMBER_DIGITS = 100
# Counts checked while a file is read, before any node is built: above every count the schema allows anywhere
# (tests/hostile/test_security_bounds.py checks it), so they refuse only a file the schema would refuse, but they
# stop reading it at the first item too many, where the schema would be told of it only once all were built.
MAX_LIST_ITEMS = 1_000  # items of one list (and words or items of one .rules line)
MAX_MAP_KEYS = 1_000  # keys of one map
MAX_NODES = 20_000  # values of one file in all: the largest shipped ruleset has fewer than 600
# Errors reported for one file: past them one `more-errors` finding says how many more there are (or where reading
# stopped), so a file of a hundred thousand faults is not a hundred thousand lines of output.
MAX_FINDINGS = 20


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
        node, best, reached = _step(node, key, best)
        if not reached:
            break
    return best


def _step(node: Any, key, best: Pos | None) -> tuple[Any, Pos | None, bool]:
    """One step of a walk along a path: (the node `key` reaches, the deepest known position so far, whether the node
    holds `key`); past a key the data do not hold, the position stays where it was."""
    pos = child_pos(node, key)
    if pos is not None:
        best = pos
    try:
        return node[key], best, True
    except (KeyError, IndexError, TypeError):
        return node, best, False


class Positions:
    """`position_at(data, path, default)` for the many paths a ruleset's compiling asks about (`at("piles", name,
    "build", 0, "require")`, then the same rule's next clause): each prefix of a path is walked once, its node and
    the position found so far kept. For data that are not modified while it is asked."""

    def __init__(self, data: Any, default: Pos | None = None):
        # path -> (the node it reaches, the deepest known position along it, whether the walk reached that node)
        self._walked: dict[tuple, tuple[Any, Pos | None, bool]] = {(): (data, _own(data) or default, True)}
        self._data, self._default = data, default

    def __call__(self, *path) -> Pos | None:
        try:
            return self._walk(path)[1]
        except TypeError:  # a key that cannot be hashed: walked as position_at walks it
            return position_at(self._data, list(path), self._default)

    def _walk(self, path: tuple) -> tuple[Any, Pos | None, bool]:
        walked = self._walked.get(path)
        if walked is None:
            node, best, reached = self._walk(path[:-1])
            if reached:  # as position_at: a walk stops at the first key the data do not hold
                node, best, reached = _step(node, path[-1], best)
            walked = self._walked[path] = (node, best, reached)
        return walked


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


# libyaml's parser where PyYAML was built with it (its wheels are), else PyYAML's own: the same events and nodes,
# fifteen times faster to read. Either way the constructor is the safe one: plain scalars, maps and lists, never objects.
_BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_BaseLoader):
    """A safe loader: builds only plain scalars, maps and lists; never objects."""


_INT_TAG = "tag:yaml.org,2002:int"


def _scalar(node: yaml.ScalarNode, loader: _Loader, source: str) -> Any:
    if node.tag == _INT_TAG and len(node.value) > MAX_NUMBER_DIGITS:
        raise KallistiError(Finding("number-too-long", f"a number written with more than {MAX_NUMBER_DIGITS} digits",
                                    _mark(node.start_mark, source)))
    try:
        return loader.construct_object(node)
    except (ValueError, KeyError, IndexError, AttributeError):
        # PyYAML's constructors of ints, floats, booleans and dates raise Python's own errors, not a YAMLError, for a
        # value they cannot read: a date that is no date (`2001-13-45`), or a tag on the wrong text (`!!int x`).
        kind = node.tag.rsplit(":", 1)[-1]
        shown = node.value if len(node.value) <= 40 else node.value[:40] + "…"
        raise KallistiError(Finding("yaml-syntax", f"{shown!r} cannot be read as a YAML {kind}",
                                    _mark(node.start_mark, source))) from None


def _build(node: yaml.Node, loader: _Loader, source: str, depth: int, notes: "_Notes | None" = None,
           key: str | None = None) -> Any:
    if depth > MAX_DEPTH:
        raise KallistiError(Finding("yaml-depth", f"nesting deeper than {MAX_DEPTH} levels", _mark(node.start_mark, source)))
    if isinstance(node, yaml.MappingNode):
        out = LDict(pos=_mark(node.start_mark, source))
        for key_node, value_node in node.value:
            key = _scalar(key_node, loader, source) if isinstance(key_node, yaml.ScalarNode) else None
            kpos = _mark(key_node.start_mark, source)
            if not isinstance(key, (str, int)) or isinstance(key, bool):
                raise KallistiError(Finding("yaml-key", "a key must be a plain name", kpos))
            key = str(key)
            if key in out:
                raise KallistiError(Finding("yaml-duplicate-key", f"key '{key}' is given twice", kpos))
            if notes is not None:
                notes.anchor(key_node, out, key)
                notes.scalar(key_node)
            out[key] = _build(value_node, loader, source, depth + 1, notes, key)
            out.key_pos[key] = kpos
            out.value_pos[key] = _value_pos(value_node, source)
        return out
    if isinstance(node, yaml.SequenceNode):
        out = LList(pos=_mark(node.start_mark, source))
        for i, item in enumerate(node.value):
            if notes is not None:
                notes.anchor(item, out, i)
            out.append(_build(item, loader, source, depth + 1, notes))
        out.item_pos = [_value_pos(n, source) for n in node.value]
        return out
    if notes is not None:
        notes.scalar(node, key)
    return _scalar(node, loader, source)


# ---- comments --------------------------------------------------------------------------------------
# YAML's parser drops comments, so they are recovered from the text: every key and list item is an
# anchor on the line where it starts, every scalar covers a stretch of text (where a `#` is not a
# comment). The comment lines before a line, and a comment at its end, go to the first key or item
# that line holds (`LDict.comments[key]`, `LList.comments[index]`), as the .rules reader keeps them:
# the text after `#` less one space. Comments after the last line are kept under the key "".
#
# A comment at the end of a line may also cut short an unquoted (plain) text: in `says: wild (modifier #3)` the value is
# `wild (modifier`. Where the text is evidently prose — the value of a key of PROSE_KEYS, or a text that runs over
# several lines — that is the warning `text-cut-by-comment`; a comment after any other one-line value
# (`build: up in suit  # why`) is an ordinary comment.
_BREAK = re.compile(r"\r\n|[\n\r\x85\u2028\u2029]")  # the line breaks YAML counts
PROSE_KEYS = frozenset({"says", "description"})  # keys whose values are sentences, which may hold a `#`


class _Notes:
    def __init__(self, text: str, source: str = "<yaml>"):
        self.text = text
        self.source = source
        self.anchors: dict[int, tuple[Any, Any]] = {}
        self.spans: list[tuple[int, int]] = []
        self.plain: dict[int, tuple[yaml.ScalarNode, str | None]] = {}  # a plain text's end index -> (node, its key)
        self.warnings: list[Finding] = []  # texts cut short by a comment

    def anchor(self, node: yaml.Node, container, key) -> None:
        self.anchors.setdefault(node.start_mark.line, (container, key))

    def scalar(self, node: yaml.ScalarNode, key: str | None = None) -> None:
        if not node.style and node.end_mark.index > node.start_mark.index:
            self.plain[node.end_mark.index] = (node, key)
        start, end = node.start_mark.index, node.end_mark.index
        if node.style in ("|", ">"):  # the header line (`>`, `|-`…) may end in a comment; the text starts below it
            found = _BREAK.search(self.text, start)
            start = found.end() if found else end
        if end > start:
            self.spans.append((start, end))

    def attach(self, root: Any) -> None:
        text = self.text
        if "#" not in text:
            return
        self.spans.sort()
        starts = [s for s, _ in self.spans]

        def in_scalar(i: int) -> bool:
            k = bisect.bisect_right(starts, i) - 1
            return k >= 0 and i < self.spans[k][1]

        pending: list[str] = []
        line_start, no = 0, 0
        for brk in itertools.chain(_BREAK.finditer(text), [None]):
            line_end = brk.start() if brk else len(text)
            body = text[line_start:line_end]
            hash_at = -1
            i = body.find("#")
            while i >= 0:
                if (i == 0 or body[i - 1] in " \t") and not in_scalar(line_start + i):
                    hash_at = i
                    break
                i = body.find("#", i + 1)
            if hash_at >= 0:
                note = _note(body[hash_at + 1:])
                if body[:hash_at].strip():
                    self._cut(body, line_start, no, hash_at)  # a comment at the end of a line may cut a text short
                if not body[:hash_at].strip():
                    pending.append(note)  # a comment line
                elif no in self.anchors:
                    container, key = self.anchors[no]
                    container.comments.setdefault(key, []).extend(pending + [note])
                    pending = []
                else:
                    pending.append(note)  # the end of a line that starts no key: kept for the next one
            elif no in self.anchors and pending:
                container, key = self.anchors[no]
                container.comments.setdefault(key, []).extend(pending)
                pending = []
            if brk is None:
                break
            line_start, no = brk.end(), no + 1
        if pending and isinstance(root, LDict):
            root.comments.setdefault("", []).extend(pending)

    def _cut(self, body: str, line_start: int, no: int, hash_at: int) -> None:
        """Warn when the comment at `hash_at` of this line ends a plain text that is evidently prose."""
        before = body[:hash_at]
        found = self.plain.get(line_start + len(before.rstrip(" \t")))
        if found is None:
            return
        node, key = found
        if key not in PROSE_KEYS and node.start_mark.line == node.end_mark.line:
            return
        kept = " ".join(str(node.value).split())
        kept = kept if len(kept) <= 40 else "…" + kept[-39:]
        dropped = body[hash_at:].rstrip()
        dropped = dropped if len(dropped) <= 40 else dropped[:39] + "…"
        what = f"the text of `{key}`" if key is not None else "this text"
        self.warnings.append(Finding(
            "text-cut-by-comment", f"{what} is not quoted, so ` #` starts a comment: the text ends at '{kept}', and "
            f"'{dropped}' is dropped", Pos(self.source, no + 1, hash_at + 1), severity="warning",
            suggestion="quote the whole text to keep the `#` in it, or put the comment on a line of its own"))


def _note(after_hash: str) -> str:
    """A comment's text: what follows `#`, less one space and trailing blanks."""
    return (after_hash[1:] if after_hash.startswith(" ") else after_hash).rstrip()


def _value_pos(node: yaml.Node, source: str) -> Pos:
    """The position of a value; for a quoted string, the first character inside the quotes."""
    pos = _mark(node.start_mark, source)
    if isinstance(node, yaml.ScalarNode) and node.style in ("'", '"'):
        return pos.shifted(1)
    return pos


def _refuse_before_building(text: str, source: str, loader: type = _Loader) -> None:
    """Read the text's events once, before any node is built, refusing an anchor or alias, an explicit tag, nesting
    deeper than MAX_DEPTH, a list of more than MAX_LIST_ITEMS items, a map of more than MAX_MAP_KEYS keys and more than
    MAX_NODES values in all, each at the first event too many. The depth is checked here, on the event stream, because
    PyYAML composes nodes recursively (`[[[…` five hundred deep is a RecursionError) and its scanner slows down with
    every open bracket; the counts, because composing and building a node costs far more than reading its event:
    stopping at the first event too many bounds all of it."""
    try:
        _read_events(text, source, loader)
    except yaml.MarkedYAMLError as exc:
        # libyaml's scanner looks ahead through a run of brackets and stops at its own limit (1,000 levels) before
        # the events reach MAX_DEPTH: PyYAML's parser, which does not look ahead, finds the first level too deep.
        if loader is not yaml.SafeLoader and "nesting depth" in str(exc.problem):
            _read_events(text, source, yaml.SafeLoader)
        raise


def _read_events(text: str, source: str, loader: type) -> None:
    """The event pass of `_refuse_before_building`, with the loader's parser."""
    open_: list[list] = []  # per open collection: [is a map, items or keys so far, a map's next event is a key]
    nodes = 0
    for event in yaml.parse(text, Loader=loader):
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            raise KallistiError(Finding("yaml-alias", "YAML anchors and aliases are not allowed in rulesets (use `extends` "
                                        "to share rules)", _mark(event.start_mark, source)))
        if isinstance(event, yaml.CollectionEndEvent):
            open_.pop()
            continue
        if not isinstance(event, yaml.NodeEvent):
            continue
        if event.tag is not None:
            # SafeLoader builds nothing from `!!python/object/apply:…`, but a tag is never needed in a ruleset: the
            # text says what it means without one, and a tag only makes the schema refuse the value later, elsewhere.
            raise KallistiError(Finding("yaml-tag", f"YAML tags ({_tag_name(event.tag)}) are not allowed in rulesets",
                                        _mark(event.start_mark, source), suggestion="write the value without the tag"))
        nodes += 1
        if nodes > MAX_NODES:
            raise KallistiError(Finding("too-many-items", f"the file holds more than {MAX_NODES:,} values",
                                        _mark(event.start_mark, source)))
        if open_:
            parent = open_[-1]
            if not parent[0]:
                parent[1] += 1
                if parent[1] > MAX_LIST_ITEMS:
                    raise KallistiError(Finding("too-many-items", f"a list of more than {MAX_LIST_ITEMS:,} items",
                                                _mark(event.start_mark, source)))
            elif parent[2]:
                parent[1] += 1
                if parent[1] > MAX_MAP_KEYS:
                    raise KallistiError(Finding("too-many-keys", f"a map of more than {MAX_MAP_KEYS:,} keys",
                                                _mark(event.start_mark, source)))
            if parent[0]:
                parent[2] = not parent[2]
        if isinstance(event, yaml.CollectionStartEvent):
            if len(open_) > MAX_DEPTH:  # the root collection is level 0, as `_build` counts
                raise KallistiError(Finding("yaml-depth", f"nesting deeper than {MAX_DEPTH} levels", _mark(event.start_mark, source)))
            open_.append([isinstance(event, yaml.MappingStartEvent), 0, True])


def _tag_name(tag: str) -> str:
    """A tag as it is written: `!!str` for YAML's own, the text for another (shortened)."""
    short = "!!" + tag[len("tag:yaml.org,2002:"):] if tag.startswith("tag:yaml.org,2002:") else tag
    return f"`{short}`" if len(short) <= 40 else f"`{short[:39]}…`"


def load_yaml(text: str, source: str, warnings: list | None = None) -> Any:
    """Parse YAML text into LDict/LList data with positions (and the comments of each key and item,
    in `comments`); refuse aliases and oversized input. A comment that cuts a text short is a warning, added to
    `warnings` when it is given."""
    if len(text) > MAX_FILE_BYTES:
        raise KallistiError(Finding("file-too-large", f"file is larger than {MAX_FILE_BYTES} bytes", Pos(source)))
    loader = _Loader(text)
    try:
        _refuse_before_building(text, source)
        node = loader.get_single_node()
        notes = _Notes(text, source) if "#" in text else None
        data = LDict(pos=Pos(source, 1, 1)) if node is None else _build(node, loader, source, 0, notes)
        if notes is not None:
            notes.attach(data)
            if warnings is not None:
                warnings.extend(notes.warnings)
        return data
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        pos = _mark(mark, source) if mark else Pos(source)
        raise KallistiError(Finding("yaml-syntax", f"{exc.problem or exc.context}", pos)) from None
    except yaml.reader.ReaderError as exc:  # a character YAML refuses (a NUL): not a MarkedYAMLError
        # libyaml reads the text as UTF-8 and gives the offset in bytes; PyYAML's reader, in characters
        at = exc.position if _BaseLoader is yaml.SafeLoader else len(text.encode()[:exc.position].decode(errors="ignore"))
        line = text.count("\n", 0, at) + 1
        column = at - (text.rfind("\n", 0, at) + 1) + 1
        raise KallistiError(Finding("yaml-syntax", f"YAML does not allow the character U+{exc.character:04X}",
                                    Pos(source, line, column))) from None
    except yaml.YAMLError as exc:  # any other refusal of the YAML library is still a finding, never a traceback
        raise KallistiError(Finding("yaml-syntax", str(exc).splitlines()[0] if str(exc) else "the YAML parser refuses the text",
                                    Pos(source))) from None
    finally:
        loader.dispose()
