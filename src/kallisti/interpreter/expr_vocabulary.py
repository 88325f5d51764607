"""What rule text may read of cards, piles, groups and moves (the one place that decides it), and what it notes."""

from __future__ import annotations

from kallisti.errors import did_you_mean
from kallisti.grammar.expressions import Attr, Call, ListLit, Name, Node, Op, Quant
from kallisti.interpreter.expr_runtime import constant, metered
from kallisti.interpreter.expr_types import (BOOL, CARD, CARDS, COLOR, DECK, GROUP, INT, INTS, MARKS, MOVE, MOVES, PILE,
                                            PILES, RANK, SUIT, Ctx, RuleRuntimeError, with_article)
from kallisti.interpreter.history import NO_MOVE, MoveMade


class Vocabulary:
    """The part of `Compiler` that compiles an attribute (`card.rank`, `pile.top`, `tableau.size`, `last_move.to`),
    noting what the expression reads."""

    def _reads_history(self) -> None:
        """Note that the expression reads the moves made: that is the position, never a table's or a memo's."""
        self.history_read = True
        self._uses.update(("state", "history"))
        self._places.add("position")
        self._sizes = self._groups = None

    def _note_group(self, name: str | None) -> None:
        """Note that the expression reads the piles of group `name` (`Compiled.groups`); None: of no named group."""
        if name is None:
            self._groups = None
        elif self._groups is not None:
            self._groups.add(name)

    def _attribute(self, node: Attr, obj_fn, obj_type: str, name: str):
        """The one place that decides what rule text may read: the card and pile vocabulary."""
        d = self.deck
        if obj_type == CARD:
            table = {"rank": (d.rank, RANK), "suit": (d.suit, SUIT), "family": (d.family, SUIT), "color": (d.color, COLOR), "colour": (d.color, COLOR),
                     "value": (d.value, INT), "values": (d.values, INTS), "marks": (d.marks, MARKS), "pack": (d.pack, INT)}.get(name)
            if table is not None:
                lookup, typ = table
                self._reads.add("color" if name == "colour" else name)
                if isinstance(node.obj, Name) and node.obj.name in ("card", "top") and node.obj.name not in self._bound:
                    slot = node.obj.name  # the common case, specialised: one closure, one tuple lookup
                    if slot == "card":
                        return (lambda c: lookup[c.card]), typ
                    return (lambda c: lookup[c.top]), typ
                return (lambda c: lookup[obj_fn(c)]), typ
            if name == "face_up":
                self._reads.add("identity")
                self._uses.add("state")
                self._places.update(("pile", "top", "position"))  # see `_card_face_up`
                self._sizes = self._groups = None
                return (lambda c: _card_face_up(c, obj_fn(c))), BOOL
        elif obj_type == PILE:
            self._uses.add("state")
            self._sizes = None
            if name != "index":
                if isinstance(node.obj, Name) and node.obj.name in ("pile", "source") and node.obj.name not in self._bound:
                    self._places.add(node.obj.name + ".state")  # the cards, size or faces of the pile a slot names
                    if name not in _PILE_SHAPE:
                        self._places.add(node.obj.name + ".cards")  # more than its shape: which cards it holds
                else:
                    self._places.add("position")  # of another pile
                    bound = isinstance(node.obj, Name) and node.obj.name in self._bound
                    self._note_group(self._bound_group.get(node.obj.name) if bound else None)
            if name == "played":
                self._reads_history()
                return (lambda c: c.game.trail.played(c.state.piles[obj_fn(c)])
                        if c.game is not None and c.game.trail is not None else []), CARDS
            if name == "movable":
                self._groups = None
                if not self._allow_movable:
                    raise self._error(node, "expr-scope", "`movable` may be read only by win, lose and score conditions",
                                      col=node.name_col)
                def movable(c):
                    # One step: the move generation it asks for evaluates the move rules, each bounded on its own.
                    before = c.steps
                    try:
                        return c.game.can_move_from(obj_fn(c))
                    finally:
                        c.steps = before + 1
                return movable, BOOL
            getter = _PILE_ATTRS.get(name)
            if getter is not None:
                fn, typ = getter
                if name == "index":
                    starts = self.group_start
                    group_of = self.group_of
                    return (lambda c: obj_fn(c) - starts[group_of[obj_fn(c)]] + 1), INT
                if isinstance(node.obj, Name) and node.obj.name in self._bound:  # `p.size` in `any(p in tableau: …)`
                    return _bound_pile_attribute(name, fn, node.obj.name), typ
                return (lambda c: fn(c.state, obj_fn(c))), typ
        elif obj_type == GROUP:
            self._uses.add("state")
            if name != "count":
                self._places.add("position")
                self._note_group(obj_fn.const if hasattr(obj_fn, "const") else None)
            groups = self.groups
            if name == "size" and hasattr(obj_fn, "const"):
                gname = obj_fn.const
                if self._sizes is not None:
                    self._sizes.add(gname)
                return (lambda c: c.state.sizes[gname]), INT
            self._sizes = None
            if name == "size":
                return (lambda c: c.state.sizes[obj_fn(c)]), INT
            if name == "count":
                return (lambda c: len(groups[obj_fn(c)])), INT
            if name == "empty":
                def group_empty(c):
                    piles, held = groups[obj_fn(c)], c.state.piles
                    c.steps += len(piles)
                    return not any(map(held.__getitem__, piles))  # no pile has a card, asked at C speed
                return group_empty, BOOL
            if name == "piles":
                return (lambda c: list(metered(c, groups[obj_fn(c)]))), PILES
        elif obj_type == MOVE:
            found = _MOVE_ATTRS.get(name)
            if found is not None:
                fn, typ = found
                if name == "card":
                    no_card = d.size
                    return (lambda c: (obj_fn(c).cards or (no_card,))[0]), CARD
                return (lambda c: fn(obj_fn(c))), typ
        elif obj_type in (CARDS, PILES, INTS, MARKS, MOVES):
            if name == "size":
                return (lambda c: len(obj_fn(c))), INT
            if obj_type in (CARDS, MOVES) and name in ("top", "bottom"):
                none = d.size if obj_type == CARDS else NO_MOVE
                index = -1 if name == "top" else 0
                return (lambda c: (obj_fn(c) or (none,))[index]), obj_type[5:]
        elif obj_type == DECK:
            if name == "size":
                return constant(d.size), INT
            if name == "packs":
                return constant(d.packs), INT
        known = {CARD: ["rank", "suit", "family", "color", "value", "values", "marks", "pack", "face_up"],
                 PILE: list(_PILE_ATTRS) + ["movable", "played"], GROUP: ["size", "count", "empty", "piles"],
                 DECK: ["size", "packs"], CARDS: ["size", "top", "bottom"], MOVES: ["size", "top", "bottom"],
                 MOVE: list(_MOVE_ATTRS)}.get(
                     obj_type, ["size"] if obj_type.startswith("list:") else [])  # a rank, suit, number… has none
        raise self._error(node, "unknown-attribute", f"{with_article(obj_type)} has no attribute '{name}'", did_you_mean(name, known),
                          col=node.name_col)


def totals_only_widen(node: Node, positive: bool = True) -> bool:
    """Whether every `totals(...)` in the expression is asked only `X in totals(...)` or `any(t in totals(...): ...)`
    where it is not negated: then more possible totals can only make the expression true, never false."""
    def is_totals(n):
        return isinstance(n, Call) and n.func == "totals"

    if is_totals(node):
        return False  # totals used as a value of its own (compared, counted): not a widening question
    if isinstance(node, Op):
        if node.op == "op_not":
            return totals_only_widen(node.args[0], not positive)
        if node.op in ("op_and", "op_or"):
            return all(totals_only_widen(a, positive) for a in node.args)
        if node.op == "rel_in" and is_totals(node.args[1]):
            return positive and totals_only_widen(node.args[0]) and all(no_totals(a) for a in node.args[1].args)
        return all(no_totals(a) for a in node.args)
    if isinstance(node, Quant):
        if node.func == "any" and is_totals(node.iterable):
            return positive and all(no_totals(a) for a in node.iterable.args) and totals_only_widen(node.body, positive)
        if node.func in ("any", "all"):
            return no_totals(node.iterable) and totals_only_widen(node.body, positive)
        return no_totals(node.iterable) and no_totals(node.body)
    return no_totals(node)


def no_totals(node: Node) -> bool:
    """Whether `totals` appears nowhere in the expression."""
    if isinstance(node, Call):
        return node.func != "totals" and all(no_totals(a) for a in node.args)
    if isinstance(node, Op):
        return all(no_totals(a) for a in node.args)
    if isinstance(node, Quant):
        return no_totals(node.iterable) and no_totals(node.body)
    if isinstance(node, Attr):
        return no_totals(node.obj)
    if isinstance(node, ListLit):
        return all(no_totals(i) for i in node.items)
    return True


def _card_face_up(c: Ctx, card: int) -> bool:
    """Whether a card is face up: moving cards are; a pile's top is unless it lies face down."""
    if card == c.top and c.pile >= 0:
        st = c.state
        return len(st.piles[c.pile]) > st.down[c.pile]
    return True


SLOT_GETTERS = {
    "card": lambda c: c.card,
    "top": lambda c: c.top,
    "cards": lambda c: c.cards,
    "count": lambda c: c.count,
    "pile": lambda c: c.pile,
    "source": lambda c: c.source,
}


# The pile attributes that read only its shape: how many cards it holds, and how many of them lie face down.
def emptiness_read(node: Quant) -> bool | None:
    """Whether the body of a quantifier over piles asks only whether its pile is empty (`p.empty`: True) or has cards
    (`not p.empty`: False); None for any other body."""
    body, var = node.body, node.var
    negated = isinstance(body, Op) and body.op == "op_not"
    if negated:
        body = body.args[0]
    if isinstance(body, Attr) and body.name == "empty" and isinstance(body.obj, Name) and body.obj.name == var:
        return not negated
    return None


_PILE_SHAPE = frozenset({"size", "empty", "face_up", "face_down"})

_PILE_ATTRS = {
    "size": (lambda st, p: len(st.piles[p]), INT),
    "empty": (lambda st, p: not st.piles[p], BOOL),
    "top": (lambda st, p: st.piles[p][-1] if st.piles[p] else st.no_card, CARD),
    "face_up": (lambda st, p: len(st.piles[p]) - st.down[p], INT),
    "face_down": (lambda st, p: st.down[p], INT),
    "cards": (lambda st, p: st.piles[p], CARDS),
    "index": (None, INT),
}


def _bound_pile_attribute(name: str, fn, var: str):
    """The closure of an attribute of a quantifier's variable that goes through piles: the pile read straight from
    the variable, and the commonest attributes straight off the state (a quantifier judges one a pile)."""
    if name == "size":
        return lambda c: len(c.state.piles[c.locals[var]])
    if name == "empty":
        return lambda c: not c.state.piles[c.locals[var]]
    if name == "cards":
        return lambda c: c.state.piles[c.locals[var]]
    return lambda c: fn(c.state, c.locals[var])


def _move_pile(which: str):
    """A move's pile (`source` or `to`); a rule that reads one before any move was made fails (the move is refused)."""
    index = MoveMade._fields.index(which)

    def pile(made):
        p = made[index]
        if p < 0:
            raise RuleRuntimeError(f"no move has been made yet, so last_move has no {which} (test moves.size > 0 first)")
        return p
    return pile


# What a rule may read of a move made (`last_move`, an item of `moves`); `card`, its bottom card, is made in
# `_attribute` (an empty move's is the deck's no-card, as an empty list's `top` is).
_MOVE_ATTRS = {
    "cards": (lambda made: list(made.cards), CARDS),
    "card": (None, CARD),
    "count": (lambda made: len(made.cards), INT),
    "source": (_move_pile("source"), PILE),
    "to": (_move_pile("to"), PILE),
    "dealt": (lambda made: made.dealt, BOOL),
}
