"""Write ruleset data as `.rules` text: `to_rules(data)` is the canonical form of a ruleset file.

Every value has one canonical spelling, so writing is deterministic and `parse_rules(to_rules(d))`
gives back `d` as plain data. A value the readable phrases cannot say exactly (a boolean rule, a
clause with a `macro` key, an expression that spans lines…) is written on a `set PATH VALUE` line
in the flow syntax, so nothing is lost. Comments kept by the reader (`LDict.comments`,
`LList.comments`) are written back before the line of their key or item. The small values are
spelled in write_values.py and the phrases of each part of a ruleset in write_phrases.py; this module
writes the document and the statements of rule changes (`change_text`).
"""

from __future__ import annotations

import textwrap

from kallisti.grammar.rules_words import TOP_KEYS
from kallisti.grammar.write_phrases import (cripple_text, deck_phrases, grouping_text, hands_phrases, honour_text,
                                            layout_text, lose_text, lose_value, match_phrases, pattern_text,
                                            pattern_value, pile_phrases, rule_block)
from kallisti.grammar.write_values import (CHANGE_ID, CLAUSE_ID, DOTTED_PATH, FILE_REF, SAYS, SAYS_AFTER_COLON,
                                           STATEMENT_WORDS, STEP, WIDTH, _WORD, Unwritable, bare_expression,
                                           expr_value, flow, plain_text, quote, says_mark, short_path)
# What `kallisti convert` and `kallisti new` read here besides the writer's own names.
from kallisti.grammar.write_phrases import rule_phrase  # noqa: F401


def change_text(p) -> str:
    """A patch as a rule-change statement (`forbid foundation.build x: …`), or as a flow map when no
    statement says it exactly; parse_change reads it back as the same patch."""
    return _change_line(p).replace(SAYS, "  ").replace(SAYS_AFTER_COLON, " ")


def _change_line(p) -> str:
    try:
        text = _change_statement(p)
    except Unwritable:
        text = None
    return text if text is not None else flow(p)


def _change_statement(p) -> str | None:
    if not isinstance(p, dict) or len(p) == 0:
        return None
    verbs = [v for v in ("set", "add", "delete", "require", "forbid", "replace", "remove", "revoke") if v in p]
    if "replace" in p:  # its clause's kind is a key too
        verbs = [v for v in verbs if v not in ("require", "forbid")]
    if len(verbs) != 1:
        return None
    verb = verbs[0]
    target = p[verb]
    if not isinstance(target, str):
        return None
    if verb == "revoke":
        if set(p) != {"revoke"}:
            return None
        return f"revoke {target if CHANGE_ID.fullmatch(target) else quote(target)}"
    if verb == "add" and set(p) == {"add", "value"} and target.startswith("honour."):
        text = honour_text(target[len("honour."):], p["value"])
        if text is not None:
            return text
    head, _, item = target.partition(".")
    if verb == "add" and set(p) == {"add", "value"} and head in ("auto", "compulsory", "lose") and CLAUSE_ID.fullmatch(item) \
            and isinstance(p["value"], dict) and "id" not in p["value"]:
        # a new move pattern or loss condition, declared as in a ruleset file
        text = lose_text({"id": item, **p["value"]}) if head == "lose" else pattern_text(head, {"id": item, **p["value"]})
        if text is not None:
            return text
    if not DOTTED_PATH.fullmatch(target):
        return None
    from kallisti.grammar.rules_paths import path_parts, resolve_path, value_kind

    path = short_path(target)
    if resolve_path(path) != target:
        return None
    if verb in ("set", "add"):
        if set(p) != {verb, "value"}:
            return None
        how = value_kind(path_parts(target))
        v = p["value"]
        if how == "expr":
            value = expr_value(v)
        elif how == "pile":
            value = _pile_value(v)
        elif how in ("pattern", "lose"):
            # the words of a pattern or loss condition, or a map; anything else only the raw map can say
            value = (pattern_value(v) if how == "pattern" else lose_value(v)) or (flow(v) if isinstance(v, dict) else None)
            if value is None:
                return None
        else:
            value = flow(v)
        return f"{verb} {path} {value}"
    if verb == "delete":
        return f"delete {path}" if set(p) == {"delete"} else None
    cid = p.get("id")
    if not isinstance(cid, str) or not CLAUSE_ID.fullmatch(cid):
        return None
    if verb == "remove":
        return f"remove {path} {cid}" if set(p) == {"remove", "id"} else None
    if "says" in p and not isinstance(p["says"], str):
        return None
    if verb in ("require", "forbid"):
        if set(p) - {verb, "id", "expr", "says"} or "expr" not in p or not bare_expression(p["expr"]):
            return None
        return f"{verb} {path} {cid}: {p['expr']}{says_mark(p)}"
    kinds = [k for k in ("require", "forbid", "expr") if k in p]
    if len(kinds) != 1 or set(p) - {"replace", "id", kinds[0], "says"} or not bare_expression(p[kinds[0]]):
        return None
    kind = "" if kinds[0] == "expr" else f" {kinds[0]}"  # `expr`: the clause keeps its kind
    return f"replace {path} {cid}{kind}: {p[kinds[0]]}{says_mark(p)}"


def _pile_value(v) -> str:
    """A whole pile group after `set piles.G` / `add piles.G`: pile phrases when they say everything."""
    if isinstance(v, dict):
        phrases, blocks, rest = pile_phrases(v)
        if not blocks and not rest and phrases:
            return ", ".join(t for _, t in phrases)
        return flow(v)
    raise Unwritable("a pile group must be a map")


# ---- the document ---------------------------------------------------------------------------------
class _Writer:
    def __init__(self):
        self.out: list[str] = []

    def emit(self, ind: str, text: str) -> None:
        """Write a line; a quoted `says` text that would make it long goes on a continuation line."""
        for mark, gap in ((SAYS, "  "), (SAYS_AFTER_COLON, " ")):
            if mark in text:
                head, says = text.split(mark, 1)
                if len(ind) + len(head) + len(gap) + len(says) > WIDTH:
                    self.out.append(ind + head)
                    self.out.append(ind + STEP + says)
                    return
                text = f"{head}{gap}{says}"
        self.out.append(ind + text)

    def comments(self, ind: str, node, key) -> None:
        notes = getattr(node, "comments", {}).get(key) if hasattr(node, "comments") else None
        for note in notes or ():
            self.out.append(f"{ind}# {note}".rstrip() if note else f"{ind}#")

    def blank(self) -> None:
        if self.out and self.out[-1].strip():
            self.out.append("")

    def items(self, ind: str, head: str, node, phrases: list[tuple[str, str]]) -> None:
        """A line of phrases, continued on indented lines when it grows long; a phrase with comments
        starts a continuation line, below its comments."""
        line, has = head, False
        seen = set()
        for key, text in phrases:
            noted = key not in seen and bool(getattr(node, "comments", {}).get(key))
            seen.add(key)
            if noted or has and len(ind) + len(line) + 2 + len(text) > WIDTH:
                self.emit(ind, line)
                self.comments(ind + STEP, node, key)
                line = STEP + text
            elif has:
                line = f"{line}, {text}"
            else:
                line = f"{line} {text}"
            has = True
        self.emit(ind, line)

    def set_line(self, ind: str, container, key, path: str, value) -> None:
        from kallisti.grammar.rules_paths import path_parts, value_kind

        self.comments(ind, container, key)
        how = value_kind(path_parts(path))
        if how == "expr":
            text = expr_value(value)
        elif how == "pile":
            text = _pile_value(value)
        else:
            text = flow(value)
        if not DOTTED_PATH.fullmatch(path):
            raise Unwritable(f"the path {path!r} cannot be written")
        self.emit(ind, f"set {short_path(path)} {text}")

    def document(self, d: dict, ind: str) -> None:
        if not isinstance(d, dict):
            raise Unwritable("a ruleset is a map of keys")
        head = len(self.out)
        for key in ("game", "extends", "description"):
            if key in d:
                self.comments(ind, d, key)
                getattr(self, "w_" + key)(d, ind)
        if "deck" in d:
            self.w_deck(d, ind)
        if len(self.out) > head:
            self.blank()
        if "piles" in d:
            self.w_piles(d, ind)
            self.blank()
        for key in ("auto", "compulsory"):
            if key in d:
                self.w_patterns(d, key, ind)
        if "lose" in d:
            self.w_lose(d, ind)
        for key, lead in (("win", "win when"), ("score", "score")):
            if key in d:
                v = d[key]
                if isinstance(v, str) and bare_expression(v):
                    self.comments(ind, d, key)
                    self.emit(ind, f"{lead} {v}")
                else:
                    self.set_line(ind, d, key, key, v)
        if "honour" in d or "match" in d or "hands" in d:
            self.blank()
        if "honour" in d:
            self.w_honour(d, ind)
        if "match" in d:
            self.w_match(d, ind)
        if "hands" in d:
            self.w_hands(d, ind)
        for key in ("table", "modifiers"):
            if key in d:
                self.set_line(ind, d, key, key, d[key])  # no phrases yet: a flow map
        if "layout" in d:
            self.blank()
            self.w_layout(d, ind)
        if "add" in d:
            self.blank()
            block = None
            if isinstance(d["add"], dict) and all(k in TOP_KEYS for k in d["add"]):
                inner = _Writer()
                try:
                    inner.document(d["add"], ind + STEP)
                    block = inner.out
                except Unwritable:
                    block = None
            if block is not None:
                self.comments(ind, d, "add")
                self.emit(ind, "add:")
                self.out += block
                while self.out and not self.out[-1].strip():
                    self.out.pop()
            else:
                self.set_line(ind, d, "add", "add", d["add"])
        if "changes" in d:
            self.blank()
            changes = d["changes"]
            if isinstance(changes, list):
                self.comments(ind, d, "changes")
                self.emit(ind, "changes:")
                for i, p in enumerate(changes):
                    self.comments(ind + STEP, changes, i)
                    self.emit(ind + STEP, _change_line(p))
            else:
                self.set_line(ind, d, "changes", "changes", changes)
        others = [k for k in d if k not in TOP_KEYS and k != ""]
        if others:
            raise Unwritable(f"{', '.join(map(repr, others))} {'is not a key' if len(others) == 1 else 'are not keys'} of a ruleset file")
        if ind == "" and getattr(d, "comments", {}).get(""):
            self.blank()
            self.comments(ind, d, "")

    def w_game(self, d, ind):
        if isinstance(d["game"], str):
            self.emit(ind, f"game: {plain_text(d['game'])}")
        else:
            self.emit(ind, f"set game {flow(d['game'])}")

    def w_extends(self, d, ind):
        v = d["extends"]
        if isinstance(v, str):
            self.emit(ind, f"extends {v if FILE_REF.fullmatch(v) else quote(v)}")
        else:
            self.emit(ind, f"set extends {flow(v)}")

    def w_description(self, d, ind):
        v = d["description"]
        if not isinstance(v, str):
            self.emit(ind, f"set description {flow(v)}")
            return
        block = _description_block(v)
        if block is not None:
            self.emit(ind, "description:")
            for line in block:
                self.out.append(ind + STEP + line if line else "")
        elif v and "\n" not in v:
            self.emit(ind, f"description: {plain_text(v)}")
        else:
            self.emit(ind, f"description: {quote(v)}")

    def w_deck(self, d, ind):
        deck = d["deck"]
        self.comments(ind, d, "deck")
        if not isinstance(deck, dict):
            self.emit(ind, f"set deck {flow(deck)}")
            return
        phrases, rest = deck_phrases(deck)
        self.items(ind, "deck:", deck, phrases)
        for key in rest:
            self.set_line(ind, deck, key, f"deck.{key}", deck[key])

    def w_match(self, d, ind):
        match = d["match"]
        self.comments(ind, d, "match")
        if not isinstance(match, dict):
            self.emit(ind, f"set match {flow(match)}")
            return
        phrases, rest = match_phrases(match)
        self.items(ind, "match:", match, phrases)
        for key in rest:
            self.set_line(ind, match, key, f"match.{key}", match[key])

    def w_hands(self, d, ind):
        hands = d["hands"]
        self.comments(ind, d, "hands")
        if not isinstance(hands, dict):
            self.emit(ind, f"set hands {flow(hands)}")
            return
        phrases, rest = hands_phrases(hands)
        self.items(ind, "hands:", hands, phrases)
        for key, text_of in (("groupings", grouping_text), ("cripples", cripple_text)):
            if key not in rest:
                continue
            box = hands[key]
            texts = [text_of(k, v) for k, v in box.items()] if isinstance(box, dict) and box else [None]
            if any(t is None for t in texts):
                continue  # written with `set` below
            rest.remove(key)
            for k, text in zip(box, texts):
                self.comments(ind, box, k)
                self.emit(ind, text)
        for key in rest:
            self.set_line(ind, hands, key, f"hands.{key}", hands[key])

    def w_honour(self, d, ind):
        honour = d["honour"]
        texts = [honour_text(k, v) for k, v in honour.items()] if isinstance(honour, dict) else [None]
        if any(t is None for t in texts):
            self.set_line(ind, d, "honour", "honour", honour)
            return
        self.comments(ind, d, "honour")
        if not honour:
            self.emit(ind, "honour: none")
            return
        for key, text in zip(honour, texts):
            self.comments(ind, honour, key)
            self.emit(ind, text)

    def w_layout(self, d, ind):
        layout = d["layout"]
        texts = [layout_text(k, v) for k, v in layout.items()] if isinstance(layout, dict) else [None]
        if any(t is None for t in texts):
            self.set_line(ind, d, "layout", "layout", layout)
            return
        self.comments(ind, d, "layout")
        if not layout:
            self.emit(ind, "layout: none")
            return
        for key, text in zip(layout, texts):
            self.comments(ind, layout, key)
            self.emit(ind, text)

    def w_piles(self, d, ind):
        piles = d["piles"]
        if not isinstance(piles, dict) or not piles:
            self.comments(ind, d, "piles")
            self.emit(ind, f"set piles {flow(piles)}")
            return
        self.comments(ind, d, "piles")
        for g, group in piles.items():
            if not isinstance(g, str) or not _WORD.fullmatch(g) or g in STATEMENT_WORDS or not isinstance(group, dict):
                self.set_line(ind, piles, g, f"piles.{g}", group)
                continue
            phrases, blocks, rest = pile_phrases(group)
            self.comments(ind, piles, g)
            self.items(ind, f"{g}:", group, phrases)
            for key in blocks:
                self.comments(ind, group, key)
                self.emit(ind, f"{g} {key}:")
                rule = group[key]
                for i, line in enumerate(rule_block(rule)):
                    self.comments(ind + STEP, rule, i)
                    self.emit(ind + STEP, line)
            for key in rest:
                self.set_line(ind, group, key, f"piles.{g}.{key}", group[key])

    def w_patterns(self, d, key, ind):
        items = d[key]
        texts = [pattern_text(key, p) for p in items] if isinstance(items, list) else [None]
        self._list(d, key, ind, items, texts)

    def w_lose(self, d, ind):
        items = d["lose"]
        texts = [lose_text(p) for p in items] if isinstance(items, list) else [None]
        self._list(d, "lose", ind, items, texts)

    def _list(self, d, key, ind, items, texts):
        if any(t is None for t in texts):
            self.set_line(ind, d, key, key, items)
            return
        if not items:
            self.comments(ind, d, key)
            self.emit(ind, f"{key}: none")
            return
        for i, text in enumerate(texts):
            if i == 0 and not getattr(items, "comments", {}).get(0):
                self.comments(ind, d, key)
            self.comments(ind, items, i)
            self.emit(ind, text)


def _description_block(v: str) -> list[str] | None:
    """The lines of a description block (folded text ending in a newline), or None when it cannot be one."""
    if not v.endswith("\n") or v.endswith("\n\n") or not v.strip():
        return None
    return fold_paragraphs(v[:-1], WIDTH - len(STEP))


def fold_paragraphs(core: str, width: int) -> list[str] | None:
    """Lines that fold back into `core` (paragraphs split by newlines, blank lines between), or None
    when folding would change the text (edge spaces, double spaces, unprintable characters)."""
    segments = core.split("\n")
    if not segments[0] or not segments[-1]:
        return None
    lines: list[str] = []
    for i, seg in enumerate(segments):
        if i:
            lines.append("")
        if not seg:
            continue
        if seg != seg.strip() or "  " in seg or not seg.isprintable():
            return None
        lines += textwrap.wrap(seg, width, break_long_words=False, break_on_hyphens=False)
    return lines


def to_rules(data) -> str:
    """Ruleset file data (as the YAML loader or parse_rules gives it) as canonical `.rules` text."""
    w = _Writer()
    w.document(data, "")
    while w.out and not w.out[-1].strip():
        w.out.pop()
    return "\n".join(w.out) + "\n"
