"""Type-check expression trees and compile them to Python closures (no eval, no exec)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from kallisti.errors import Finding, KallistiError, Pos, did_you_mean
from kallisti.grammar.expressions import (MAX_EXPRESSION_CHARS, Attr, Bool, Call, ListLit, Name, Node, Num, Op, Quant, Str,
                                          parse_expression)
from kallisti.interpreter.history import MAX_HISTORY_MOVES, NO_MOVE, MoveMade
from kallisti.interpreter.ranknames import WORDS as RANK_WORDS, rank_words

# Types of the expression language. A "list:T" is a finite collection of T.
INT, BOOL, RANK, SUIT, COLOR, CARD, PILE, GROUP, STR, MARK, DECK = (
    "int", "bool", "rank", "suit", "color", "card", "pile", "group", "str", "mark", "deck")
CARDS, PILES, INTS, MARKS = "list:card", "list:pile", "list:int", "list:mark"
MOVE, MOVES = "move", "list:move"  # a move made (kallisti.interpreter.history), and the moves since the deal

# Which variables each kind of rule may name, and their types.
BUILD_SCOPE = {"card": CARD, "top": CARD, "pile": PILE, "source": PILE, "cards": CARDS, "count": INT}
EMPTY_SCOPE = {"card": CARD, "pile": PILE, "source": PILE, "cards": CARDS, "count": INT}
TAKE_SCOPE = {"card": CARD, "cards": CARDS, "count": INT, "pile": PILE}
# A window of adjacent cards: `cards` left to right, `card` the first, the `pile` they lie in. A dict of its own (as
# MOVE_SCOPE is): the engine evaluates a discard rule once for each window, not once for each move (see `evaluations`).
DISCARD_SCOPE = dict(TAKE_SCOPE)
SEQUENCE_SCOPE = {"card": CARD, "top": CARD}
CARD_SCOPE = {"card": CARD}
STATE_SCOPE: dict[str, str] = {}
PILE_STATE_SCOPE = {"pile": PILE}  # a rule about one pile in the whole position (dealing, redealing, revealing)
MOVE_SCOPE = dict(BUILD_SCOPE)  # an automatic or compulsory move's pattern: judged for each legal move, never tabulated
# A grouping's condition: the cards of one group of a hand, in any order, and the whole `hand` they come from.
HAND_SCOPE = {"cards": CARDS, "count": INT, "hand": CARDS}
# The names the rules keep for the values a rule judges, in every rule whether or not its scope has them: no
# quantifier's variable may take one (`any(card in tableau: ...)` would read as the moving card).
RESERVED = {"card": "the card a rule judges", "top": "the card it goes on", "cards": "the cards that move",
            "count": "how many cards move", "pile": "the pile a rule judges", "source": "the pile the cards leave",
            "hand": "the whole hand", "moves": "the moves made since the deal", "last_move": "the last move made"}
# The names of the moves made, in every rule but a hand's (kallisti.interpreter.history): what each is and its type.
HISTORY_NAMES = {"moves": MOVES, "last_move": MOVE}

MAX_INT_RESULT = 10**18  # arithmetic results beyond this are refused at run time
MAX_TOTALS = 10_000  # distinct totals one `totals(...)` may make; beyond, the rule fails at run time

# The work a rule may cause, counted in steps: one item a quantifier goes through (one evaluation of its body), one
# card a built-in goes through (a sequence test, `consecutive`, `same_family`, `totals`), one sum `totals` forms, one
# item of a list searched by `in`, one pile a group's `empty` or `piles` looks at, one move a `movable` may try.
# `Compiled.steps` is the most one evaluation may take, and `Ctx.steps` counts the steps evaluations take. Every rule
# is bounded three ways, each when it compiles: one evaluation; all its evaluations while a ruleset loads (a clause
# tabulated over every pair of card kinds is evaluated (kinds + 1)^2 times); all its evaluations in one position of a
# game (a win once, a clause that reads the position once for every move it may judge). At 4 million steps a second,
# about 25 ms, 5 s and 0.5 s.
MAX_EVALUATION_STEPS = 100_000
MAX_LOAD_STEPS = 20_000_000
MAX_POSITION_STEPS = 2_000_000


class Ctx:
    """The values an expression reads while it runs; one instance is reused for many evaluations."""

    __slots__ = ("state", "game", "card", "top", "cards", "count", "pile", "source", "locals", "steps")

    def __init__(self, state=None):
        self.state = state
        self.game = None
        self.card = self.top = self.pile = self.source = -1
        self.cards: list[int] = []
        self.count = 0
        self.locals: dict[str, Any] = {}
        self.steps = 0  # the meter: steps the evaluations made with this context have taken (see MAX_EVALUATION_STEPS)


@dataclass(frozen=True)
class Compiled:
    """A compiled expression: `fn(ctx)` computes it; `uses` names the variables it reads."""

    fn: Callable[[Ctx], Any]
    type: str
    uses: frozenset
    text: str
    reads: frozenset = frozenset()  # what it reads of cards: attributes, and `identity` when it compares cards themselves
    # The groups whose sizes are all it reads of the position, or None when it reads more (piles, cards' faces,
    # moves): while those sizes stay the same, its value does, and a playout need not work it out again.
    sizes: frozenset | None = frozenset()
    # The ranks it names as constants (`last`, `K`, `king`, the 10 of `card.rank == 10`, `first + 1`), by index in the
    # deck's order: what a clause's explanation may name.
    ranks: frozenset = frozenset()
    steps: int = 0  # the most steps one evaluation may take (see MAX_EVALUATION_STEPS)
    # What it reads of the position beyond the cards it judges (see PLACES): the engine judges a move rule once for
    # every pile it may go to only when the rule reads that pile (`pile`, `top`); else once for all of them.
    places: frozenset = frozenset()


# The places of the position an expression may read (`Compiled.places`): `pile`, `top` and `source` when it names that
# value, and `pile.state`, `source.state` when it reads that pile's cards, size or faces too; `position` when it
# reads any other pile's or a group's cards, sizes or faces, or asks the move generator (`movable`). A card's
# `face_up` reads `pile`, `top` and `position`. A group's name, a pile's `index` and a group's `count` read nothing
# of the position: they are fixed.
PLACES = ("pile", "top", "source", "pile.state", "source.state", "position")


@dataclass(frozen=True)
class Additive:
    """A clause that reads the cards it judges only through sums over them of a term of one card (`sum(c in cards:
    c.value)`, `count(c in cards: c.suit == hearts)`), and beyond them reads nothing but `count`: so a window of
    adjacent cards may be judged from running sums, each card added once, rather than by going through the window.

    `terms[i][c]` is the i-th sum's term for card id c; `judge(ctx)` is the clause's value (true or false, before a
    `forbid` is negated) with the i-th sum read from `ctx.locals[SUM_SLOTS[first + i]]` (see `Compiler.additive`)
    and `ctx.count` the window's length; `counts` says whether it reads `count` at all."""

    terms: tuple
    judge: Callable[[Ctx], Any]
    counts: bool = True


SUM_SLOTS = ("#sum0", "#sum1", "#sum2", "#sum3")  # where `Additive.judge` reads its sums (no rule can name them)


def _const(value):
    """A constant's closure, marked so that operators can fold it."""
    fn = lambda c: value  # noqa: E731
    fn.const = value
    return fn


class RuleRuntimeError(Exception):
    """An expression failed while running (e.g. arithmetic overflow); the move is refused."""


class Compiler:
    """Compiles expressions against one ruleset's deck and pile groups."""

    def __init__(self, deck, groups: dict[str, range], group_of: list[str]):
        self.deck = deck
        self.groups = groups  # group name -> range of global pile indexes
        self.group_of = group_of  # global pile index -> group name
        self.group_start = {name: r.start for name, r in groups.items()}
        self.constants: dict[str, tuple[str, Any]] = {}
        for i, r in enumerate(deck.ranks):
            if r.isidentifier():
                self.constants[r] = (RANK, i)
        for i, s in enumerate(deck.suits):
            self.constants[s.name] = (SUIT, i)
        for i, c in enumerate(deck.colors):
            self.constants[c] = (COLOR, i)
        for m in deck.mark_names:
            self.constants[m] = (MARK, m)
        self.constants["first"] = (RANK, 0)
        self.constants["last"] = (RANK, len(deck.ranks) - 1)
        self.constants["ranks"] = (INT, len(deck.ranks))
        self._known_places: dict[tuple, frozenset] = {}  # `places` of the rules' clauses, by (text, scope)
        self.history_read = False  # whether any expression it compiled reads the moves made (`Ruleset.reads_history`)
        # Every rank also has its word (`king`, `ten`, `ace`), a constant like the others unless the word already names
        # a rank, suit, colour or mark of the deck; a pile group of that name hides it (and is no `reserved-name`).
        self.rank_words = {w: i for w, i in rank_words(deck.ranks).items() if w not in self.constants}
        for word, i in self.rank_words.items():
            self.constants[word] = (RANK, i)

    # -- public -------------------------------------------------------------------------
    def compile(self, text, pos: Pos, scope: dict[str, str], want: str | None = BOOL) -> Compiled:
        """Parse and compile `text`; raise KallistiError (with a position inside the text) on any fault."""
        if isinstance(text, bool):
            text = "true" if text else "false"
        text = str(text)
        node = parse_expression(text, pos)
        self._start(text, pos)
        # `pile.movable` asks the move generator, so only rules read outside move generation may use it.
        self._allow_movable = scope is STATE_SCOPE
        fn, typ = self._compile(node, dict(scope))
        if want is not None and typ != want:
            raise self._error(node, "expr-type", f"this expression is {_a(typ)}; {_a(want)} is needed here")
        if "totals" in self._reads and not _totals_only_widen(node):
            self._reads.add("values")  # totals read in a way that more totals could make false: values as such
        steps = self.steps(node)
        self._check_cost(node, steps, scope, frozenset(self._uses))
        return Compiled(fn, typ, frozenset(self._uses), text, frozenset(self._reads), self._sizes_read(), frozenset(self._ranks),
                        steps, frozenset(self._places))

    def conjuncts(self, text, pos: Pos, scope: dict[str, str]) -> list[Compiled]:
        """The top-level `and` parts of a condition, each compiled alone (with what it reads), for judging them apart."""
        text = str(text)
        parts, todo = [], [parse_expression(text, pos)]
        while todo:
            node = todo.pop(0)
            if isinstance(node, Op) and node.op == "op_and":
                todo[:0] = list(node.args)
                continue
            parts.append(node)
        out = []
        for node in parts:
            self._start(text, pos)
            self._allow_movable = False
            fn, typ = self._compile(node, dict(scope))
            if "totals" in self._reads and not _totals_only_widen(node):
                self._reads.add("values")
            out.append(Compiled(fn, typ, frozenset(self._uses), text, frozenset(self._reads), self._sizes_read(),
                                frozenset(self._ranks), self.steps(node), frozenset(self._places)))
        return out

    def places(self, text, pos: Pos, scope: dict[str, str]) -> frozenset:
        """What the expression reads of the position (`Compiled.places`), for an expression this compiler compiled
        before in this scope (a rule's clause): worked out once for each text and scope."""
        key = (str(text), id(scope))
        found = self._known_places.get(key)
        if found is None:
            found = self._known_places[key] = self.compile(text, pos, scope, want=None).places
        return found

    def additive(self, text, pos: Pos, scope: dict[str, str], first: int = 0) -> Additive | None:
        """The clause `text` as an `Additive`, when it is one: every use of the judged cards (`cards`) is the collection
        of a `sum` or `count` quantifier whose body reads nothing but its variable's own attributes (rank, suit,
        value…), and beyond those it reads nothing but `count` (and constants). Its judge reads the sums from the
        slots SUM_SLOTS[first:], so that several clauses may share one context; None when there are not slots enough
        for them, when the clause is not additive, or when a term fails for some card."""
        node = parse_expression(str(text), pos)
        sums: list[Quant] = []  # in the order they are written
        todo = [node]
        while todo:
            n = todo.pop()
            if isinstance(n, Quant) and n.func in ("sum", "count") and isinstance(n.iterable, Name) \
                    and n.iterable.name == "cards":
                sums.append(n)
                continue
            todo.extend(reversed(_children(n)))
        if not sums or first + len(sums) > len(SUM_SLOTS):
            return None
        deck, ctx, terms = self.deck, Ctx(), []
        for quant in sums:
            self._start(str(text), pos)
            self._allow_movable = False
            self._bound.append(quant.var)
            try:
                body, typ = self._compile(quant.body, {**scope, quant.var: CARD})
            except KallistiError:
                return None
            finally:
                self._bound.pop()
            if self._uses or self._places:
                return None  # the term reads more than its card
            counting = quant.func == "count"
            try:
                term = []
                for c in range(deck.size):
                    ctx.locals[quant.var] = c
                    v = body(ctx)
                    term.append((1 if v else 0) if counting else v)
            except RuleRuntimeError:
                return None
            if not all(isinstance(v, int) for v in term):
                return None
            terms.append(tuple(term))
        self._start(str(text), pos)
        self._allow_movable = False
        for quant, slot in zip(sums, SUM_SLOTS[first:]):
            self._standins[id(quant)] = ((lambda c, slot=slot: c.locals[slot]), INT)
        try:
            judge, typ = self._compile(node, dict(scope))
        except KallistiError:
            return None
        finally:
            self._standins = {}
        if typ != BOOL or not self._uses <= {"count"} or self._places:
            return None
        return Additive(tuple(terms), judge, "count" in self._uses)

    # -- helpers ------------------------------------------------------------------------
    def _start(self, text: str, pos: Pos) -> None:
        """Forget what the last expression compiled read, before compiling the next."""
        self._text, self._pos, self._uses, self._reads = text, pos, set(), set()
        self._ranks: set[int] = set()
        self._sizes: set | None = set()
        self._types: dict[int, str] = {}  # the type of each node compiled, by id, for the cost model
        self._bound: list[str] = []  # the variables of the quantifiers around the node being compiled
        self._places: set[str] = set()
        self._standins: dict[int, tuple] = {}  # nodes compiled as something else (`additive`): id -> (closure, type)

    def _sizes_read(self) -> frozenset | None:
        return None if self._sizes is None else frozenset(self._sizes)

    def _error(self, node: Node, code: str, message: str, suggestion: str | None = None, col: int | None = None) -> KallistiError:
        col = node.col if col is None else col
        excerpt = f"    {self._text}\n    {' ' * col}^" if "\n" not in self._text else None
        return KallistiError(Finding(code, message, self._pos.shifted(col), suggestion=suggestion, excerpt=excerpt))

    def _compile(self, node: Node, scope: dict[str, str]):
        if self._standins and id(node) in self._standins:
            fn, typ = self._standins[id(node)]
            self._types[id(node)] = typ
            return fn, typ
        method = getattr(self, "_c_" + type(node).__name__)
        fn, typ = method(node, scope)
        self._types[id(node)] = typ
        return fn, typ

    def _c_Num(self, node: Num, scope):
        return _const(node.value), INT

    def _c_Str(self, node: Str, scope):
        v = node.value
        return (lambda c: v), STR

    def _c_Bool(self, node: Bool, scope):
        return _const(node.value), BOOL

    def _c_Name(self, node: Name, scope):
        name = node.name
        if name in self._bound:  # a quantifier's variable: its item, never a slot of the context
            return (lambda c: c.locals[name]), scope[name]
        if name in scope:
            self._uses.add(name)
            if name in ("pile", "top", "source"):
                self._places.add(name)
            typ = scope[name]
            if name in ("card", "top", "cards", "count", "pile", "source"):
                getter = _SLOT_GETTERS[name]
                return getter, typ
            return (lambda c: c.locals[name]), typ
        if name in self.groups:
            self._uses.add("state")
            return _const(name), GROUP
        if name in HISTORY_NAMES and "hand" not in scope:
            self._reads_history()
            if name == "moves":
                return (lambda c: c.game.trail.recent() if c.game is not None and c.game.trail is not None else []), MOVES
            return (lambda c: c.game.trail.last() if c.game is not None and c.game.trail is not None else NO_MOVE), MOVE
        if name == "deck":
            return (lambda c: None), DECK
        if name in self.constants:
            typ, v = self.constants[name]
            if typ == RANK:
                self._ranks.add(v)
            return _const(v), typ
        choices = list(scope) + list(self.groups) + list(self.constants) + ["deck"]
        if name in RANK_WORDS and name not in self.groups:
            raise self._error(node, "unknown-rank", f"'{name}' names no rank of this deck; the ranks are "
                              f"{' '.join(self.deck.ranks)}", did_you_mean(name, self.rank_words))
        if name in _SLOT_GETTERS:
            raise self._error(node, "unknown-name", f"'{name}' has no meaning in this rule; it may name {', '.join(scope) or 'only groups and constants'}")
        raise self._error(node, "unknown-name", f"unknown name '{name}'", did_you_mean(name, choices))

    def _reads_history(self) -> None:
        """Note that the expression reads the moves made: that is the position, never a table's or a memo's."""
        self.history_read = True
        self._uses.update(("state", "history"))
        self._places.add("position")
        self._sizes = None

    def _c_Attr(self, node: Attr, scope):
        obj_fn, obj_type = self._compile(node.obj, scope)
        return self._attribute(node, obj_fn, obj_type, node.name)

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
                self._sizes = None
                return (lambda c: _card_face_up(c, obj_fn(c))), BOOL
        elif obj_type == PILE:
            self._uses.add("state")
            self._sizes = None
            if name != "index":
                if isinstance(node.obj, Name) and node.obj.name in ("pile", "source") and node.obj.name not in self._bound:
                    self._places.add(node.obj.name + ".state")  # the cards, size or faces of the pile a slot names
                else:
                    self._places.add("position")  # of another pile
            if name == "played":
                self._reads_history()
                return (lambda c: c.game.trail.played(c.state.piles[obj_fn(c)])
                        if c.game is not None and c.game.trail is not None else []), CARDS
            if name == "movable":
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
                return (lambda c: fn(c.state, obj_fn(c))), typ
        elif obj_type == GROUP:
            self._uses.add("state")
            if name != "count":
                self._places.add("position")
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
                    return all(not held[i] for i in piles)
                return group_empty, BOOL
            if name == "piles":
                return (lambda c: list(_metered(c, groups[obj_fn(c)]))), PILES
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
                return _const(d.size), INT
            if name == "packs":
                return _const(d.packs), INT
        known = {CARD: ["rank", "suit", "family", "color", "value", "values", "marks", "pack", "face_up"],
                 PILE: list(_PILE_ATTRS) + ["movable", "played"], GROUP: ["size", "count", "empty", "piles"],
                 DECK: ["size", "packs"], CARDS: ["size", "top", "bottom"], MOVES: ["size", "top", "bottom"],
                 MOVE: list(_MOVE_ATTRS)}.get(
                     obj_type, ["size"] if obj_type.startswith("list:") else [])  # a rank, suit, number… has none
        raise self._error(node, "unknown-attribute", f"{_a(obj_type)} has no attribute '{name}'", did_you_mean(name, known),
                          col=node.name_col)

    def _c_ListLit(self, node: ListLit, scope):
        parts = [self._compile(item, scope) for item in node.items]
        types = {t for _, t in parts}
        if len(types) > 1:
            raise self._error(node, "expr-type", "a list's items must all be of one type")
        typ = "list:" + (types.pop() if types else INT)
        fns = [f for f, _ in parts]
        if all(isinstance(i, (Num, Name)) for i in node.items):
            try:
                frozen = tuple(f(None) for f in fns)  # constants: fold once, a list still (its order, its repeats)
                return (lambda c: frozen), typ
            except AttributeError:
                pass
        return (lambda c: [f(c) for f in fns]), typ

    def _c_Call(self, node: Call, scope):
        if node.func in ("abs", "min", "max"):
            parts = [self._compile(a, scope) for a in node.args]
            if not parts or any(t != INT for _, t in parts) or (node.func == "abs" and len(parts) != 1):
                raise self._error(node, "expr-type", f"{node.func}() takes {'one number' if node.func == 'abs' else 'numbers'}")
            fns = [f for f, _ in parts]
            if node.func == "abs":
                f0 = fns[0]
                return (lambda c: abs(f0(c))), INT
            builtin = min if node.func == "min" else max
            return (lambda c: builtin(f(c) for f in fns)), INT
        if node.func in _SEQUENCE_TESTS:
            parts = [self._compile(a, scope) for a in node.args]
            if len(parts) != 1 or parts[0][1] != CARDS:
                raise self._error(node, "expr-type", f"{node.func}() takes one list of cards, e.g. {node.func}(cards)")
            cards_fn = parts[0][0]
            self._reads.add(_READS[node.func])
            test = _SEQUENCE_TESTS[node.func](self.deck)
            return (lambda c: test(_metered(c, cards_fn(c)))), BOOL
        if node.func in _CARD_LIST_FUNCTIONS:
            parts = [self._compile(a, scope) for a in node.args]
            if len(parts) != 1 or parts[0][1] != CARDS:
                raise self._error(node, "expr-type", f"{node.func}() takes one list of cards, e.g. {node.func}(cards)")
            cards_fn = parts[0][0]
            self._reads.add(_READS[node.func])
            fn, typ = _CARD_LIST_FUNCTIONS[node.func](self.deck)
            if node.func == "totals":
                return (lambda c: fn(cards_fn(c), c)), typ  # it meters its own work
            return (lambda c: fn(_metered(c, cards_fn(c)))), typ
        if node.func in ("all", "any", "count", "sum"):
            raise self._error(node, "expr-syntax", f"{node.func}() needs a variable: {node.func}(x in COLLECTION: CONDITION)")
        raise self._error(node, "unknown-function", f"unknown function '{node.func}'",
                          did_you_mean(node.func, ["abs", "min", "max", "all", "any", "count", "sum", *_SEQUENCE_TESTS,
                                                   *_CARD_LIST_FUNCTIONS]))

    def _c_Quant(self, node: Quant, scope):
        func = node.func
        if func not in ("all", "any", "count", "sum"):  # a misspelt name first: its body's type means nothing yet
            raise self._error(node, "unknown-function", f"'{func}' is not a quantifier", did_you_mean(func, ["all", "any", "count", "sum"])
                              or "use all, any, count or sum")
        self._check_variable(node, scope)
        it_fn, it_type = self._compile(node.iterable, scope)
        if it_type == GROUP:
            groups = self.groups
            src = it_fn
            it_fn, it_type = (lambda c: groups[src(c)]), PILES
        if not it_type.startswith("list:"):
            raise self._error(node.iterable, "expr-type", f"cannot go through {_a(it_type)}; a group, a pile's cards or a list is needed")
        inner = dict(scope)
        inner[node.var] = it_type[5:]
        self._bound.append(node.var)
        try:
            body_fn, body_type = self._compile(node.body, inner)
        finally:
            self._bound.pop()
        want = INT if node.func == "sum" else BOOL
        if body_type != want:
            raise self._error(node.body, "expr-type", f"the body of {node.func}() must be {_a(want)}")
        return _quantifier(func, node.var, it_fn, body_fn), (BOOL if func in ("all", "any") else INT)

    def _check_variable(self, node: Quant, scope) -> None:
        """A quantifier's variable may not take a name with a fixed meaning in the rules: a name the rules keep for
        what a rule judges (`card`, `pile`…, in every rule, so that `card` always means the card a rule judges), a
        group, the deck, a rank, suit, colour or mark. It may take an enclosing quantifier's variable's name, which it
        hides inside its body only."""
        var = node.var
        if var in RESERVED:
            what = f"a name the rules keep for {RESERVED[var]}"
        elif var in self.groups:
            what = f"the pile group '{var}'"
        elif var == "deck":
            what = "the deck"
        elif var in self.constants:
            typ = self.constants[var][0]
            what = {RANK: "a rank", SUIT: "a suit", COLOR: "a colour", MARK: "a mark"}.get(typ, "the number of ranks")
            what += " of this deck"
        else:
            return
        taken = set(RESERVED) | set(scope) | set(self._bound) | set(self.groups) | set(self.constants) | {"deck"}
        it = node.iterable
        base = "p" if (isinstance(it, Name) and it.name in self.groups) or (isinstance(it, Attr) and it.name == "piles") \
            else "c" if (isinstance(it, Name) and it.name in ("cards", "hand")) or (isinstance(it, Attr) and it.name == "cards") \
            else "x"
        other = next(n for n in [base] + [f"{base}{i}" for i in range(2, len(taken) + 3)] if n not in taken)
        raise self._error(node, "reserved-variable", f"the quantifier's variable '{var}' is already {what}; "
                          "a quantifier's variable needs a name of its own", f"call it '{other}'", col=node.var_col)

    # -- the cost model ------------------------------------------------------------------
    def steps(self, node: Node) -> int:
        """The most steps one evaluation of `node` (just compiled) may take with this ruleset's deck and piles: the
        worst `Ctx.steps` can count. A quantifier takes its collection's steps and, for each item, one step and its
        body's; `and` and `or` are counted as evaluating both sides."""
        if isinstance(node, Quant):
            return self.steps(node.iterable) + self._items(node.iterable) * (1 + self.steps(node.body))
        return self._own_steps(node) + sum(self.steps(k) for k in _children(node))

    def _own_steps(self, node: Node) -> int:
        """The steps of `node` itself, without those of its parts."""
        if isinstance(node, Call) and len(node.args) == 1:
            if node.func in _SEQUENCE_TESTS or node.func in ("consecutive", "same_family"):
                return self._items(node.args[0])
            if node.func == "totals":
                return self._totals_bound(self._items(node.args[0]))[1]
        elif isinstance(node, Op) and node.op in ("rel_in", "rel_not_in"):
            if self._types.get(id(node.args[1]), "").startswith("list:"):
                return self._items(node.args[1])
        elif isinstance(node, Attr):
            if node.name in ("empty", "piles") and self._types.get(id(node.obj)) == GROUP:
                return self._items(node.obj)
            if node.name == "movable":
                return self._most_moves()
        return 0

    def _items(self, node: Node) -> int:
        """The most items the collection `node` may hold (a group: its piles)."""
        d = self.deck
        if isinstance(node, ListLit):
            return len(node.items)
        if isinstance(node, Name) and node.name in self.groups:
            return len(self.groups[node.name])
        if isinstance(node, Attr):
            if node.name == "piles" and isinstance(node.obj, Name) and node.obj.name in self.groups:
                return len(self.groups[node.obj.name])
            if node.name == "values":
                return max(len(v) for v in d.values)
            if node.name == "marks":
                return len(d.mark_names)
        if isinstance(node, Call) and node.func == "totals" and len(node.args) == 1:
            return self._totals_bound(self._items(node.args[0]))[0]
        if self._types.get(id(node)) == CARDS:
            return d.size  # the moving cards, a pile's, a hand: cards of the deck, each at most once
        if self._types.get(id(node)) == MOVES:
            return MAX_HISTORY_MOVES
        return max(d.size + 1, len(self.group_of), MAX_EXPRESSION_CHARS)  # no list a rule makes is longer

    def _totals_bound(self, n: int) -> tuple[int, int]:
        """(the most totals, the most steps) of `totals()` of at most n cards: a step a card, then, for each card of
        several values, a step for each sum it forms with each total so far. After k such cards there are at most
        MAX_TOTALS totals, at most the product of their numbers of values, and at most 1 + the sum of their spreads
        (the totals are whole numbers between the smallest and the largest sum)."""
        several = sorted(((len(v), max(v) - min(v)) for v in self.deck.values if len(v) > 1), reverse=True)[:n]
        most = max((k for k, _ in several), default=1)
        spreads = sorted((spread for _, spread in several), reverse=True)
        made, product, spread, steps = 1, 1, 0, n
        for k, (choices, _) in enumerate(several):
            steps += made * most
            product, spread = product * choices, spread + spreads[k]
            made = min(MAX_TOTALS, product, 1 + spread)
        return made, steps

    def _most_moves(self) -> int:
        """The most moves one position may offer: a move of each face-up run (at most one a card, one a pile) to each
        pile, a deal and a redeal from each pile, a discard of each window of adjacent cards."""
        n, p = self.deck.size, len(self.group_of)
        return p * (n + p) + 2 * p + n * (n + 1) // 2

    def evaluations(self, scope: dict, uses: frozenset) -> tuple[tuple[int, str], tuple[int, str]]:
        """How often the engine evaluates a rule of `scope` that reads `uses`: ((times while the ruleset loads, why),
        (times in one position of a game, why)). A pile rule that reads no more than the card, the card under it and
        the count is tabulated or judged at load for every combination of them (and then only looked up); one that
        reads the position is evaluated for each move it may judge."""
        from kallisti.model.clause_checks import MAX_CASES  # the most cases the clause check tries for one rule

        d = self.deck
        n, p, kinds = d.size, len(self.group_of), len(d.representative) + 1  # the kinds, and "no card"
        move_rules = (BUILD_SCOPE, EMPTY_SCOPE, TAKE_SCOPE, SEQUENCE_SCOPE, DISCARD_SCOPE)
        load, position = (0, ""), (1, "once a position")
        if any(scope is s for s in move_rules) and uses <= {"card", "top", "count"}:
            times = (kinds if "card" in uses else 1) * (kinds if "top" in uses else 1) * (n if "count" in uses else 1)
            if {"top", "count"} <= uses:
                times = min(times, MAX_CASES)
            if "count" not in uses:
                pairs = "top" in uses or scope is BUILD_SCOPE or scope is SEQUENCE_SCOPE
                table = kinds * kinds if pairs else n + 1
                load = (times + table, "tabulated over every pair of card kinds, and judged for each" if pairs
                        else "tabulated over every card, and judged for each kind")
                return load, (0, "")
            load = (times, "judged for every kind of card and count it reads")
        if scope is STATE_SCOPE:
            return (1, "once"), position
        if scope is PILE_STATE_SCOPE:
            return load, (p, "once for each pile")
        if scope is CARD_SCOPE:
            return (n + 1, "once for each card"), (p * (n + 1), "once for each card and pile of a deal")
        if scope is BUILD_SCOPE or scope is EMPTY_SCOPE:
            return load, (p * (n + p), "once for each run and pile it may go to")
        if scope is TAKE_SCOPE or scope is SEQUENCE_SCOPE:
            return load, (n + p, "once for each run that may move")
        if scope is DISCARD_SCOPE:
            return load, (n * (n + 1) // 2, "once for each window of adjacent cards")
        if scope is MOVE_SCOPE:
            return load, (self._most_moves(), "once for each move")
        return load, position  # a hand's condition, at most `hands.budget` times a hand; any other rule

    def _check_cost(self, node: Node, steps: int, scope: dict, uses: frozenset) -> None:
        """Refuse, at the part that does most of the work, a rule that may take more steps than its bounds allow."""
        (at_load, load_why), (in_position, position_why) = self.evaluations(scope, uses)
        suggestion = "nest fewer quantifiers, or go through shorter lists"
        if steps > MAX_EVALUATION_STEPS:
            message = f"one evaluation of this expression may take {steps:,} steps; at most {MAX_EVALUATION_STEPS:,}"
        elif steps * at_load > MAX_LOAD_STEPS:
            message = (f"this rule is evaluated {at_load:,} times as the ruleset loads ({load_why}), {steps:,} steps each: "
                       f"{steps * at_load:,} steps; at most {MAX_LOAD_STEPS:,}")
        elif steps * in_position > MAX_POSITION_STEPS:
            message = (f"this rule may be evaluated {in_position:,} times in one position ({position_why}), {steps:,} "
                       f"steps each: {steps * in_position:,} steps; at most {MAX_POSITION_STEPS:,}")
        else:
            return
        raise self._error(self._heaviest(node), "expr-too-costly", message, suggestion)

    def _heaviest(self, node: Node) -> Node:
        """The outermost quantifier, or else the part, that does most of the work of `node`."""
        while not isinstance(node, Quant):
            kids = [k for k in _children(node) if self.steps(k)]
            if self._own_steps(node) or not kids:
                return node
            node = max(kids, key=self.steps)
        return node

    def _c_Op(self, node: Op, scope):
        op = node.op
        if op in ("op_and", "op_or"):
            (a, ta), (b, tb) = (self._compile(x, scope) for x in node.args)
            for t, x in ((ta, node.args[0]), (tb, node.args[1])):
                if t != BOOL:
                    raise self._error(x, "expr-type", f"'{op[3:]}' needs true/false on both sides, not {_a(t)}")
            if op == "op_and":
                return (lambda c: a(c) and b(c)), BOOL
            return (lambda c: a(c) or b(c)), BOOL
        if op == "op_not":
            a, ta = self._compile(node.args[0], scope)
            if ta != BOOL:
                raise self._error(node.args[0], "expr-type", f"'not' needs true/false, not {_a(ta)}")
            return (lambda c: not a(c)), BOOL
        if op == "arith_neg":
            a, ta = self._compile(node.args[0], scope)
            if ta != INT:
                raise self._error(node, "expr-type", f"cannot negate {_a(ta)}")
            return (lambda c: -a(c)), INT
        left, right = node.args
        (a, ta), (b, tb) = self._compile(left, scope), self._compile(right, scope)
        if op.startswith("rel_"):
            return self._relation(node, op, a, ta, left, b, tb, right)
        return self._arith(node, op, a, ta, b, tb)

    def _rank_literal(self, node: Node) -> int:
        """A number written where a rank is meant: the rank of that name (`10` is the ten)."""
        name = str(node.value)
        if name not in self.deck.ranks:
            raise self._error(node, "unknown-rank", f"{name} is not a rank of this deck", f"the ranks are {' '.join(self.deck.ranks)}")
        v = self.deck.ranks.index(name)
        self._ranks.add(v)
        return v

    def _relation(self, node, op, a, ta, left, b, tb, right):
        if op in ("rel_in", "rel_not_in"):
            if ta == CARD:
                self._reads.add("identity")  # a card looked for among others: which physical card it is matters
            if ta == RANK and tb == INTS and isinstance(right, ListLit) and all(isinstance(i, Num) for i in right.items):
                ranks = frozenset(self._rank_literal(i) for i in right.items)  # numbers in a rank list name ranks
                b, tb = _const(ranks), "list:" + RANK
            if not tb.startswith("list:") or (tb[5:] != ta and not (ta == INT and tb == INTS)):
                if tb.startswith("list:") and tb[5:] == RANK and ta == INT and isinstance(left, Num):
                    v = self._rank_literal(left)
                    a, ta = (lambda c: v), RANK
                elif tb == GROUP and ta == PILE:
                    groups = self.groups
                    if hasattr(b, "const"):
                        members = groups[b.const]
                        fn = (lambda c: a(c) in members) if op == "rel_in" else (lambda c: a(c) not in members)
                    else:
                        fn = (lambda c: a(c) in groups[b(c)]) if op == "rel_in" else (lambda c: a(c) not in groups[b(c)])
                    return fn, BOOL
                else:
                    raise self._error(node, "expr-type", f"cannot test {_a(ta)} for membership in {_a(tb)}")
            if hasattr(b, "const"):  # a set of constants (ranks written as numbers): one lookup
                members = b.const
                return ((lambda c: a(c) in members) if op == "rel_in" else (lambda c: a(c) not in members)), BOOL
            if op == "rel_in":
                return (lambda c: a(c) in _metered(c, b(c))), BOOL
            return (lambda c: a(c) not in _metered(c, b(c))), BOOL
        # A number compared with a rank names that rank.
        if ta == RANK and tb == INT and isinstance(right, Num):
            b, tb = _const(self._rank_literal(right)), RANK
        elif tb == RANK and ta == INT and isinstance(left, Num):
            a, ta = _const(self._rank_literal(left)), RANK
        if ta != tb:
            raise self._error(node, "expr-type", f"cannot compare {_a(ta)} with {_a(tb)}")
        if ta == CARD:
            self._reads.add("identity")
        if op in ("rel_lt", "rel_le", "rel_gt", "rel_ge") and ta not in (INT, RANK):
            raise self._error(node, "expr-type", f"{_a(ta)} has no order; only numbers and ranks do")
        return _relation_fn(op, a, b), BOOL

    def _arith(self, node, op, a, ta, b, tb):
        if op in ("arith_add", "arith_sub"):
            if ta == INT and tb == INT:
                typ = INT
            elif ta == RANK and tb == INT:
                typ = RANK
            elif ta == INT and tb == RANK and op == "arith_add":
                typ = RANK
            elif ta == RANK and tb == RANK and op == "arith_sub":
                typ = INT
            else:
                raise self._error(node, "expr-type", f"cannot {'add' if op == 'arith_add' else 'subtract'} {_a(tb)} {'to' if op == 'arith_add' else 'from'} {_a(ta)}")
            if hasattr(a, "const") and hasattr(b, "const"):  # constants: fold once (`last - 1` names a rank)
                v = a.const + b.const if op == "arith_add" else a.const - b.const
                if typ == RANK and 0 <= v < len(self.deck.ranks):
                    self._ranks.add(v)
                return _const(v), typ
            if op == "arith_add":
                return (lambda c: a(c) + b(c)), typ
            return (lambda c: a(c) - b(c)), typ
        if ta != INT or tb != INT:
            raise self._error(node, "expr-type", f"'{ {'arith_mul': '*', 'arith_div': '//', 'arith_mod': '%'}[op]}' needs numbers, not {_a(ta)} and {_a(tb)}")
        if op == "arith_mul":
            def mul(c):
                v = a(c) * b(c)
                if -MAX_INT_RESULT <= v <= MAX_INT_RESULT:
                    return v
                raise RuleRuntimeError(f"a product exceeds {MAX_INT_RESULT} in `{self_text}`")
            self_text = self._text
            return mul, INT
        if op == "arith_div":
            return (lambda c: (a(c) // d) if (d := b(c)) else 0), INT
        return (lambda c: (a(c) % d) if (d := b(c)) else 0), INT


def _children(node: Node) -> tuple:
    """The parts of an expression node."""
    if isinstance(node, (Op, Call)):
        return node.args
    if isinstance(node, ListLit):
        return node.items
    if isinstance(node, Attr):
        return (node.obj,)
    if isinstance(node, Quant):
        return (node.iterable, node.body)
    return ()


def _metered(c: Ctx, items):
    """`items`, counted on the meter as gone through one by one."""
    c.steps += len(items)
    return items


def _quantifier(func: str, var: str, it_fn, body_fn):
    """The closure of a quantifier: `var` takes each item of `it_fn(c)` in turn, for `body_fn`. The variable hides an
    outer value of the same name only inside the body, and is restored however the loop ends; each item gone through
    is a step on the meter."""
    missing = object()

    def restore(c, saved, n):
        c.steps += n
        if saved is missing:
            c.locals.pop(var, None)
        else:
            c.locals[var] = saved

    if func == "all":
        def every(c):
            held = c.locals
            saved, n = held.get(var, missing), 0
            try:
                for item in it_fn(c):
                    n += 1
                    held[var] = item
                    if not body_fn(c):
                        return False
                return True
            finally:
                restore(c, saved, n)
        return every
    if func == "any":
        def some(c):
            held = c.locals
            saved, n = held.get(var, missing), 0
            try:
                for item in it_fn(c):
                    n += 1
                    held[var] = item
                    if body_fn(c):
                        return True
                return False
            finally:
                restore(c, saved, n)
        return some
    counting = func == "count"

    def total(c):
        held = c.locals
        saved, n, t = held.get(var, missing), 0, 0
        try:
            for item in it_fn(c):
                n += 1
                held[var] = item
                v = body_fn(c)
                t += (1 if v else 0) if counting else v
            return t
        finally:
            restore(c, saved, n)
    return total


def _pairwise(test):
    """A sequence test over a list of cards: `test(lower, upper)` for every card and the one after it."""
    return lambda cards: all(test(cards[i], cards[i + 1]) for i in range(len(cards) - 1))


# Built-in tests of a list of cards, bottom card first (as `cards` and `pile.cards` are).
_SEQUENCE_TESTS = {
    "descending": lambda d: _pairwise(lambda a, b: d.rank[b] == d.rank[a] - 1),
    "ascending": lambda d: _pairwise(lambda a, b: d.rank[b] == d.rank[a] + 1),
    "same_suit": lambda d: _pairwise(lambda a, b: d.suit[b] == d.suit[a]),
    "same_color": lambda d: _pairwise(lambda a, b: d.color[b] == d.color[a]),
    "alternating_colors": lambda d: _pairwise(lambda a, b: d.color[b] != d.color[a]),
}


def _totals(d):
    """Every total a list of cards can make, choosing one of each card's values (an ace 1 or 11), smallest first."""
    values = d.values

    def totals(cards, meter: Ctx | None = None):
        """`meter`, a context, counts the steps: a step a card, and a step for each sum formed."""
        base, choices = 0, []
        for c in cards:
            options = values[c]
            if len(options) == 1:
                base += options[0]
            else:
                choices.append(options)
        steps = len(cards)
        try:
            if not choices:  # most sets: one total, no set arithmetic
                return [base]
            sums = {base}
            for options in choices:
                steps += len(sums) * len(options)
                sums = {t + v for t in sums for v in options}
                if len(sums) > MAX_TOTALS:
                    raise RuleRuntimeError(f"totals() makes more than {MAX_TOTALS} totals")
            return sorted(sums)
        finally:
            if meter is not None:
                meter.steps += steps

    return totals, INTS


def _consecutive(d):
    """Whether the cards' ranks, in any order, are distinct and follow one another in the rank order."""
    rank = d.rank

    def consecutive(cards):
        ranks = sorted(rank[c] for c in cards)
        return all(b == a + 1 for a, b in zip(ranks, ranks[1:]))

    return consecutive, BOOL


def _same_family(d):
    """Whether the cards all belong to one suit family (paired suits count as one)."""
    family = d.family
    return (lambda cards: len({family[c] for c in cards}) <= 1), BOOL


# Built-in functions of a list of cards in any order (hands are sets, not sequences): (function, result type).
_CARD_LIST_FUNCTIONS = {"totals": _totals, "consecutive": _consecutive, "same_family": _same_family}

# The card attribute each built-in reads (what a wild card's stand-ins must differ in to matter). `totals` is
# read on its own: a condition that only asks whether some total qualifies may judge a card of several
# possible values as one card holding all of them.
_READS = {"descending": "rank", "ascending": "rank", "same_suit": "suit", "same_color": "color",
          "alternating_colors": "color", "totals": "totals", "consecutive": "rank", "same_family": "family"}


def _totals_only_widen(node: Node, positive: bool = True) -> bool:
    """Whether every `totals(...)` in the expression is asked only `X in totals(...)` or `any(t in totals(...): ...)`
    where it is not negated: then more possible totals can only make the expression true, never false."""
    def is_totals(n):
        return isinstance(n, Call) and n.func == "totals"

    if is_totals(node):
        return False  # totals used as a value of its own (compared, counted): not a widening question
    if isinstance(node, Op):
        if node.op == "op_not":
            return _totals_only_widen(node.args[0], not positive)
        if node.op in ("op_and", "op_or"):
            return all(_totals_only_widen(a, positive) for a in node.args)
        if node.op == "rel_in" and is_totals(node.args[1]):
            return positive and _totals_only_widen(node.args[0]) and all(_no_totals(a) for a in node.args[1].args)
        return all(_no_totals(a) for a in node.args)
    if isinstance(node, Quant):
        if node.func == "any" and is_totals(node.iterable):
            return positive and all(_no_totals(a) for a in node.iterable.args) and _totals_only_widen(node.body, positive)
        if node.func in ("any", "all"):
            return _no_totals(node.iterable) and _totals_only_widen(node.body, positive)
        return _no_totals(node.iterable) and _no_totals(node.body)
    return _no_totals(node)


def _no_totals(node: Node) -> bool:
    """Whether `totals` appears nowhere in the expression."""
    if isinstance(node, Call):
        return node.func != "totals" and all(_no_totals(a) for a in node.args)
    if isinstance(node, Op):
        return all(_no_totals(a) for a in node.args)
    if isinstance(node, Quant):
        return _no_totals(node.iterable) and _no_totals(node.body)
    if isinstance(node, Attr):
        return _no_totals(node.obj)
    if isinstance(node, ListLit):
        return all(_no_totals(i) for i in node.items)
    return True


def _a(typ: str) -> str:
    """A type with its article, for messages: `a card`, `an int`, `a list of cards`."""
    if typ.startswith("list:"):
        return f"a list of {typ[5:]}s"
    word = {"int": "number", "bool": "true/false value"}.get(typ, typ)
    return f"{'an' if word[0] in 'aeiou' else 'a'} {word}"


def _card_face_up(c: Ctx, card: int) -> bool:
    """Whether a card is face up: moving cards are; a pile's top is unless it lies face down."""
    if card == c.top and c.pile >= 0:
        st = c.state
        return len(st.piles[c.pile]) > st.down[c.pile]
    return True


_SLOT_GETTERS = {
    "card": lambda c: c.card,
    "top": lambda c: c.top,
    "cards": lambda c: c.cards,
    "count": lambda c: c.count,
    "pile": lambda c: c.pile,
    "source": lambda c: c.source,
}

_PILE_ATTRS = {
    "size": (lambda st, p: len(st.piles[p]), INT),
    "empty": (lambda st, p: not st.piles[p], BOOL),
    "top": (lambda st, p: st.piles[p][-1] if st.piles[p] else st.no_card, CARD),
    "face_up": (lambda st, p: len(st.piles[p]) - st.down[p], INT),
    "face_down": (lambda st, p: st.down[p], INT),
    "cards": (lambda st, p: st.piles[p], CARDS),
    "index": (None, INT),
}

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


def _relation_fn(op, a, b):
    """A comparison closure; a constant right-hand side is folded in."""
    if hasattr(b, "const"):
        v = b.const
        return _FOLDED[op](a, v)
    return _RELATIONS[op](a, b)


_FOLDED = {
    "rel_eq": lambda a, v: (lambda c: a(c) == v),
    "rel_ne": lambda a, v: (lambda c: a(c) != v),
    "rel_lt": lambda a, v: (lambda c: a(c) < v),
    "rel_le": lambda a, v: (lambda c: a(c) <= v),
    "rel_gt": lambda a, v: (lambda c: a(c) > v),
    "rel_ge": lambda a, v: (lambda c: a(c) >= v),
}

_RELATIONS = {
    "rel_eq": lambda a, b: (lambda c: a(c) == b(c)),
    "rel_ne": lambda a, b: (lambda c: a(c) != b(c)),
    "rel_lt": lambda a, b: (lambda c: a(c) < b(c)),
    "rel_le": lambda a, b: (lambda c: a(c) <= b(c)),
    "rel_gt": lambda a, b: (lambda c: a(c) > b(c)),
    "rel_ge": lambda a, b: (lambda c: a(c) >= b(c)),
}
