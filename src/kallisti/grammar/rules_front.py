"""The `.rules` front end: kallisti's own ruleset syntax, read into the same located data as YAML.

`parse_rules(text, source)` returns an LDict equal (as plain data) to what the YAML loader gives for
the same ruleset, with a Pos(source, line, column) for every key and value; expression strings are
the exact text written, positioned at their first character.

Reading happens in two steps. The layout step (`layout`, in rules_lines.py, the reader of lines
and blocks) splits the text into lines, takes off comments, and groups indented lines under the line
they belong to: continuation lines of a pile group, of `deck:` or of `match:`, the items of a rule
block, the statements of `add:` and `changes:`, and the free text of `description:`. Each line is
then parsed on its own by the LALR grammar rules.lark (which imports the expression grammar), so a
bad line gives one finding and the lines after it are still read: every finding of a file is
reported at once. This module turns each statement's tree into located data; the phrases of a pile
group are read in pile_phrases.py (the one place a pile key is read), those of `deck:`, `match:` and
`hands:` in deck_phrases.py, values in rules_values.py, and the paths of `set` in rules_paths.py.

Comments: the comment lines just before a line (and a comment at the end of the line) are kept in
the `comments` attribute of the LDict or LList holding the first key or item that line sets, as
text without the leading `# `. Comments after the last line are kept under the key "".
"""

from __future__ import annotations

import re

from lark import Token, Tree

from kallisti.errors import Finding, KallistiError, Pos
from kallisti.grammar.changes import change_from_line
from kallisti.grammar.deck_phrases import apply_deck_items, apply_hand_items, apply_match_items
from kallisti.grammar.pile_phrases import apply_pile_items
from kallisti.grammar.rules_lines import Line, LineError, finding, kind, layout, parse_line
from kallisti.grammar.rules_paths import parse_value, path_parts, resolve_path
from kallisti.grammar.rules_values import (append, clause, expr_text, honour_rule, lose_fields, name_of, pattern_fields,
                                           phrase_text, put, token_value, unquote)
from kallisti.located import MAX_FILE_BYTES, MAX_FINDINGS, LDict, LList


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
