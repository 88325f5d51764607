"""Type-check expression trees and compile them to Python closures (no eval, no exec)."""

from __future__ import annotations

from typing import Any

from kallisti.errors import Finding, KallistiError, Pos, did_you_mean
from kallisti.grammar.expressions import (MAX_TOTALS, Attr, Bool, Call, ListLit, Name, Node, Num, Op, Quant, Str,
                                         and_parts, parse_expression)
from kallisti.interpreter.expr_cost import CostModel, children
from kallisti.interpreter.expr_runtime import SEQUENCE_TESTS, comparison, constant, metered, pile_quantifier, quantifier
from kallisti.interpreter.expr_types import (BOOL, BUILD_SCOPE, CARD, CARD_SCOPE, CARDS, COLOR, DECK, DISCARD_SCOPE,
                                            EMPTY_SCOPE, GROUP, HAND_SCOPE, HISTORY_NAMES, INT, INTS, MARK, MARKS, MOVE,
                                            MOVE_SCOPE, MOVES, PILE, PILE_STATE_SCOPE, PILES, PLACES, RANK, RESERVED,
                                            SEQUENCE_SCOPE, STATE_SCOPE, STR, SUIT, SUM_SLOTS, TAKE_SCOPE, Additive,
                                            Compiled, Ctx, RuleRuntimeError, with_article)
from kallisti.interpreter.expr_vocabulary import SLOT_GETTERS, Vocabulary, emptiness_read, totals_only_widen
from kallisti.interpreter import shared_compiled
from kallisti.interpreter.history import NO_MOVE
from kallisti.interpreter.ranknames import WORDS as RANK_WORDS, rank_words

__all__ = [
    # the expression language's types and scopes, and the values compiled expressions are and run with (expr_types.py)
    "BOOL", "CARD", "CARDS", "COLOR", "DECK", "GROUP", "INT", "INTS", "MARK", "MARKS", "MOVE", "MOVES", "PILE", "PILES",
    "RANK", "STR", "SUIT", "BUILD_SCOPE", "CARD_SCOPE", "DISCARD_SCOPE", "EMPTY_SCOPE", "HAND_SCOPE", "MOVE_SCOPE",
    "PILE_STATE_SCOPE", "SEQUENCE_SCOPE", "STATE_SCOPE", "TAKE_SCOPE", "HISTORY_NAMES", "PLACES", "RESERVED",
    "SUM_SLOTS", "Additive", "Compiled", "Ctx", "RuleRuntimeError",
    # the bounds, and the compiler
    "MAX_EVALUATION_STEPS", "MAX_INT_RESULT", "MAX_LOAD_STEPS", "MAX_POSITION_STEPS", "MAX_TOTALS", "Compiler",
]

# The bounds on what rules may compute and cost (kallisti.limits lists them from this module).
MAX_INT_RESULT = 10**18  # arithmetic results beyond this are refused at run time

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


class Compiler(Vocabulary, CostModel):
    """Compiles expressions against one ruleset's deck and pile groups.

    Its parts are in modules of their own: what rule text may read of cards, piles, groups and moves
    (`expr_vocabulary.py`) and the cost model (`expr_cost.py`); the types, scopes and values of the language are in
    `expr_types.py`, the pieces of the closures in `expr_runtime.py`. The bounds stay here, with the checks that
    enforce them (`_check_cost`, `_totals_bound`, `_totals`, `_arith`).
    """

    def __init__(self, deck, groups: dict[str, range], group_of: list[str], shared: bool = False):
        """`shared`: the deck's tables never grow (no stand-ins: the rules score no hands), so that what compiles here
        compiles alike for every ruleset of the same cards and pile groups, and is compiled once for them all."""
        self.deck = deck
        # What an expression compiles against, beyond its text and scope (None: nothing compiled is shared).
        self._context = (deck.signature, tuple((name, r.start, r.stop) for name, r in groups.items())) if shared else None
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
        """Parse and compile `text`; raise KallistiError (with a position inside the text) on any fault. In a shared
        context, what compiled before is given again (the variants rule changes make share nearly all their rules):
        closures keep no position, and what fails is compiled afresh each time."""
        if isinstance(text, bool):
            text = "true" if text else "false"
        text = str(text)
        named = shared_compiled.scope_name(scope)
        if self._context is None or named is None:
            return self._compiled(text, pos, scope, want)
        key = (self._context, text, named, want)
        kept = shared_compiled.kept(key)
        if kept is None:
            before, self.history_read = self.history_read, False
            try:
                kept = (self._compiled(text, pos, scope, want), self.history_read)
            finally:
                self.history_read = before or self.history_read
            shared_compiled.keep(key, kept)
        compiled, reads_history = kept
        self.history_read = self.history_read or reads_history
        return compiled

    def _compiled(self, text: str, pos: Pos, scope: dict[str, str], want: str | None) -> Compiled:
        """`text` parsed and compiled (see `compile`)."""
        node = parse_expression(text, pos)
        self._start(text, pos)
        # `pile.movable` asks the move generator, so only rules read outside move generation may use it.
        self._allow_movable = scope is STATE_SCOPE
        fn, typ = self._compile(node, dict(scope))
        if want is not None and typ != want:
            raise self._error(node, "expr-type", f"this expression is {with_article(typ)}; {with_article(want)} is needed here")
        if "totals" in self._reads and not totals_only_widen(node):
            self._reads.add("values")  # totals read in a way that more totals could make false: values as such
        steps = self.steps(node)
        self._check_cost(node, steps, scope, frozenset(self._uses))
        return Compiled(fn, typ, frozenset(self._uses), text, frozenset(self._reads), self._sizes_read(), frozenset(self._ranks),
                        steps, frozenset(self._places), self._groups_read())

    def conjuncts(self, text, pos: Pos, scope: dict[str, str]) -> list[Compiled]:
        """The top-level `and` parts of a condition, each compiled alone (with what it reads), for judging them apart."""
        text = str(text)
        out = []
        for node in and_parts(parse_expression(text, pos)):
            self._start(text, pos)
            self._allow_movable = False
            fn, typ = self._compile(node, dict(scope))
            if "totals" in self._reads and not totals_only_widen(node):
                self._reads.add("values")
            out.append(Compiled(fn, typ, frozenset(self._uses), text, frozenset(self._reads), self._sizes_read(),
                                frozenset(self._ranks), self.steps(node), frozenset(self._places), self._groups_read()))
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
            todo.extend(reversed(children(n)))
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
        self._groups: set[str] | None = set()  # see `Compiled.groups`, None once it reads any other place
        self._bound_group: dict[str, str | None] = {}  # a quantifier's variable -> the group it goes through, if named
        self._standins: dict[int, tuple] = {}  # nodes compiled as something else (`additive`): id -> (closure, type)

    def _sizes_read(self) -> frozenset | None:
        return None if self._sizes is None else frozenset(self._sizes)

    def _groups_read(self) -> frozenset | None:
        return None if self._groups is None else frozenset(self._groups)

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
        return constant(node.value), INT

    def _c_Str(self, node: Str, scope):
        v = node.value
        return (lambda c: v), STR

    def _c_Bool(self, node: Bool, scope):
        return constant(node.value), BOOL

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
                getter = SLOT_GETTERS[name]
                return getter, typ
            return (lambda c: c.locals[name]), typ
        if name in self.groups:
            self._uses.add("state")
            return constant(name), GROUP
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
            return constant(v), typ
        choices = list(scope) + list(self.groups) + list(self.constants) + ["deck"]
        if name in RANK_WORDS and name not in self.groups:
            raise self._error(node, "unknown-rank", f"'{name}' names no rank of this deck; the ranks are "
                              f"{' '.join(self.deck.ranks)}", did_you_mean(name, self.rank_words))
        if name in SLOT_GETTERS:
            raise self._error(node, "unknown-name", f"'{name}' has no meaning in this rule; it may name {', '.join(scope) or 'only groups and constants'}")
        raise self._error(node, "unknown-name", f"unknown name '{name}'", did_you_mean(name, choices))

    def _c_Attr(self, node: Attr, scope):
        obj_fn, obj_type = self._compile(node.obj, scope)
        return self._attribute(node, obj_fn, obj_type, node.name)

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
        if node.func in SEQUENCE_TESTS:
            parts = [self._compile(a, scope) for a in node.args]
            if len(parts) != 1 or parts[0][1] != CARDS:
                raise self._error(node, "expr-type", f"{node.func}() takes one list of cards, e.g. {node.func}(cards)")
            cards_fn = parts[0][0]
            self._reads.add(_READS[node.func])
            test = SEQUENCE_TESTS[node.func](self.deck)
            return (lambda c: test(metered(c, cards_fn(c)))), BOOL
        if node.func in _CARD_LIST_FUNCTIONS:
            parts = [self._compile(a, scope) for a in node.args]
            if len(parts) != 1 or parts[0][1] != CARDS:
                raise self._error(node, "expr-type", f"{node.func}() takes one list of cards, e.g. {node.func}(cards)")
            cards_fn = parts[0][0]
            self._reads.add(_READS[node.func])
            fn, typ = _CARD_LIST_FUNCTIONS[node.func](self.deck)
            if node.func == "totals":
                return (lambda c: fn(cards_fn(c), c)), typ  # it meters its own work
            return (lambda c: fn(metered(c, cards_fn(c)))), typ
        if node.func in ("all", "any", "count", "sum"):
            raise self._error(node, "expr-syntax", f"{node.func}() needs a variable: {node.func}(x in COLLECTION: CONDITION)")
        raise self._error(node, "unknown-function", f"unknown function '{node.func}'",
                          did_you_mean(node.func, ["abs", "min", "max", "all", "any", "count", "sum", *SEQUENCE_TESTS,
                                                   *_CARD_LIST_FUNCTIONS]))

    def _c_Quant(self, node: Quant, scope):
        func = node.func
        if func not in ("all", "any", "count", "sum"):  # a misspelt name first: its body's type means nothing yet
            raise self._error(node, "unknown-function", f"'{func}' is not a quantifier", did_you_mean(func, ["all", "any", "count", "sum"])
                              or "use all, any, count or sum")
        self._check_variable(node, scope)
        it_fn, it_type = self._compile(node.iterable, scope)
        named = None  # the group gone through, when named (its piles are fixed)
        if it_type == GROUP:
            groups = self.groups
            src = it_fn
            named = src.const if hasattr(src, "const") else None
            it_fn, it_type = (lambda c: groups[src(c)]), PILES
        if not it_type.startswith("list:"):
            raise self._error(node.iterable, "expr-type", f"cannot go through {with_article(it_type)}; a group, a pile's cards or a list is needed")
        inner = dict(scope)
        inner[node.var] = it_type[5:]
        self._bound.append(node.var)
        outer = self._bound_group.get(node.var)
        self._bound_group[node.var] = named
        try:
            body_fn, body_type = self._compile(node.body, inner)
        finally:
            self._bound.pop()
            self._bound_group[node.var] = outer
        want = INT if node.func == "sum" else BOOL
        if body_type != want:
            raise self._error(node.body, "expr-type", f"the body of {node.func}() must be {with_article(want)}")
        empty = emptiness_read(node) if named is not None and func in ("all", "any") else None
        if empty is not None:  # `all(p in tableau: not p.empty)`: each pile's emptiness read off directly
            return pile_quantifier(func, self.groups[named], empty, named), BOOL
        return quantifier(func, node.var, it_fn, body_fn), (BOOL if func in ("all", "any") else INT)

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

    # -- the bounds of the cost model (kallisti.interpreter.expr_cost) ------------------------
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

    def _c_Op(self, node: Op, scope):
        op = node.op
        if op in ("op_and", "op_or"):
            (a, ta), (b, tb) = (self._compile(x, scope) for x in node.args)
            for t, x in ((ta, node.args[0]), (tb, node.args[1])):
                if t != BOOL:
                    raise self._error(x, "expr-type", f"'{op[3:]}' needs true/false on both sides, not {with_article(t)}")
            if op == "op_and":
                return (lambda c: a(c) and b(c)), BOOL
            return (lambda c: a(c) or b(c)), BOOL
        if op == "op_not":
            a, ta = self._compile(node.args[0], scope)
            if ta != BOOL:
                raise self._error(node.args[0], "expr-type", f"'not' needs true/false, not {with_article(ta)}")
            return (lambda c: not a(c)), BOOL
        if op == "arith_neg":
            a, ta = self._compile(node.args[0], scope)
            if ta != INT:
                raise self._error(node, "expr-type", f"cannot negate {with_article(ta)}")
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
                b, tb = constant(ranks), "list:" + RANK
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
                    raise self._error(node, "expr-type", f"cannot test {with_article(ta)} for membership in {with_article(tb)}")
            if hasattr(b, "const"):  # a set of constants (ranks written as numbers): one lookup
                members = b.const
                return ((lambda c: a(c) in members) if op == "rel_in" else (lambda c: a(c) not in members)), BOOL
            if op == "rel_in":
                return (lambda c: a(c) in metered(c, b(c))), BOOL
            return (lambda c: a(c) not in metered(c, b(c))), BOOL
        # A number compared with a rank names that rank.
        if ta == RANK and tb == INT and isinstance(right, Num):
            b, tb = constant(self._rank_literal(right)), RANK
        elif tb == RANK and ta == INT and isinstance(left, Num):
            a, ta = constant(self._rank_literal(left)), RANK
        if ta != tb:
            raise self._error(node, "expr-type", f"cannot compare {with_article(ta)} with {with_article(tb)}")
        if ta == CARD:
            self._reads.add("identity")
        if op in ("rel_lt", "rel_le", "rel_gt", "rel_ge") and ta not in (INT, RANK):
            raise self._error(node, "expr-type", f"{with_article(ta)} has no order; only numbers and ranks do")
        return comparison(op, a, b), BOOL

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
                raise self._error(node, "expr-type", f"cannot {'add' if op == 'arith_add' else 'subtract'} {with_article(tb)} {'to' if op == 'arith_add' else 'from'} {with_article(ta)}")
            if hasattr(a, "const") and hasattr(b, "const"):  # constants: fold once (`last - 1` names a rank)
                v = a.const + b.const if op == "arith_add" else a.const - b.const
                if typ == RANK and 0 <= v < len(self.deck.ranks):
                    self._ranks.add(v)
                return constant(v), typ
            if op == "arith_add":
                return (lambda c: a(c) + b(c)), typ
            return (lambda c: a(c) - b(c)), typ
        if ta != INT or tb != INT:
            raise self._error(node, "expr-type", f"'{ {'arith_mul': '*', 'arith_div': '//', 'arith_mod': '%'}[op]}' needs numbers, not {with_article(ta)} and {with_article(tb)}")
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
