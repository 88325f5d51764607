"""Pile rules as the engine judges them: their clauses, and the tables of what the clauses that read only the cards
let through, over every card or pair of cards, kept for every ruleset that shares them."""

from __future__ import annotations

from dataclasses import dataclass

from kallisti.errors import Pos
from kallisti.interpreter import compiler as C
from kallisti.interpreter.cards import Deck
from kallisti.model.clause_checks import judges

MAX_TABLES = 2048
# A table of a pair rule has (cards + 1)² bytes: 11 KB for two packs, 8.3 MB for the largest deck the schema allows
# (2,880 cards). Counting tables alone let the cache grow to gigabytes with a large deck, so it is bounded in bytes
# too: this holds thousands of tables of ordinary decks, or seven of the largest.
MAX_TABLE_BYTES = 64_000_000
_tables: dict[tuple, bytes] = {}  # rule tables by (deck, kind of table, clauses), the least recently used first


def _keep_table(key: tuple, table: bytes) -> None:
    """Keep a table for the rulesets that share its clauses, forgetting the least recently used ones to stay within
    MAX_TABLES tables and MAX_TABLE_BYTES bytes; a table larger than MAX_TABLE_BYTES alone is not kept."""
    if len(table) > MAX_TABLE_BYTES:
        return
    if key in _tables:  # kept already (a rule of one clause is kept under its clause's key): now the most recently used
        _tables[key] = _tables.pop(key)
        return
    kept = table_cache_bytes()
    while _tables and (len(_tables) >= MAX_TABLES or kept + len(table) > MAX_TABLE_BYTES):
        kept -= len(_tables.pop(next(iter(_tables))))
    _tables[key] = table


def table_cache_bytes() -> int:
    """The bytes of the rule tables kept for sharing (at most MAX_TABLE_BYTES)."""
    return sum(map(len, _tables.values()))


@dataclass(frozen=True)
class Clause:
    id: str
    kind: str  # "require" or "forbid"
    fn: object
    text: str
    says: str
    pos: Pos
    macro: str | None
    uses: frozenset = frozenset()  # the variables the clause reads
    ranks: frozenset = frozenset()  # the ranks its expression names as constants (see Compiled.ranks)
    reads: frozenset = frozenset({"identity"})  # what it reads of cards (see Compiled.reads): unknown, all of them

    def holds(self, ctx) -> bool:
        """Whether this clause lets the move through."""
        value = self.fn(ctx)
        return bool(value) if self.kind == "require" else not value

    def describe(self) -> str:
        if self.says:
            return self.says
        return f"{'requires' if self.kind == 'require' else 'forbids'} {self.text}"


class Rule:
    """A list of clauses; a move passes when every require clause holds and no forbid clause does.

    The clauses that read only intrinsic attributes of `card` (and `top`) are tabulated once over
    all cards, so the engine answers them with one index instead of running closures (the common
    "down in suit" becomes a single bytes lookup); the other clauses, the `residual`, run only for
    the moves the table lets through.
    """

    def __init__(self, path: str, group: str, kind: str, clauses: list[Clause], uses: frozenset, deck: Deck):
        self.path, self.group, self.kind = path, group, kind
        self.clauses = tuple(clauses)
        self.uses = uses
        self.always = not clauses
        self.never = any(c.kind == "forbid" and c.text.strip() == "true" for c in clauses)
        self.stride = deck.size + 1
        self.pair_table: bytes | None = None
        self.card_table: bytes | None = None
        self.residual: tuple[Clause, ...] = ()
        if self.always or self.never:
            return
        tabled = [c for c in clauses if c.uses <= {"card", "top"}]
        self.residual = tuple(c for c in clauses if c not in tabled)
        if not tabled:
            return
        pairs = any("top" in c.uses for c in tabled) or kind in ("build", "sequence")
        # A table depends only on the deck and the clauses' expressions: rulesets that share them (the
        # variants a match compiles as rule changes come and go) share the table.
        key = (deck.signature, pairs, tuple((c.kind, c.text) for c in tabled))
        table = _tables.get(key)
        if table is None:  # clause by clause unless a pair table is over a megabyte: each clause's would crowd the cache
            table = self._combined(deck, tabled, pairs) if not pairs or self.stride ** 2 < 1 << 20 else \
                self._tabulate_pairs(deck, tabled)
            _keep_table(key, table)
        else:
            _tables[key] = _tables.pop(key)  # now the most recently used
        if pairs:
            self.pair_table = table
        else:
            self.card_table = table

    @staticmethod
    def _passes(clauses, ctx) -> bool:
        for clause in clauses:
            if not clause.holds(ctx):
                return False
        return True

    def _combined(self, deck: Deck, clauses, pairs: bool) -> bytes:
        """The `and` of its clauses' own tables, kept by deck and text (a change adding a clause tabulates it alone).
        When a clause alone fails for some cell, the rule is tabulated whole, in order, where an earlier clause refusing
        a move spares the later ones: it fails (or not) as it always did."""
        try:
            own = [self._clause_table(deck, clause, pairs) for clause in clauses]
        except C.RuleRuntimeError:
            return self._tabulate_pairs(deck, clauses) if pairs else self._tabulate_cards(deck, clauses)
        if len(own) == 1:
            return own[0]
        # Each cell is 0 or 1, so the bytes read as one integer `and` cell by cell.
        size = len(own[0])
        joint = int.from_bytes(own[0], "little")
        for table in own[1:]:
            joint &= int.from_bytes(table, "little")
        return joint.to_bytes(size, "little")

    def _clause_table(self, deck: Deck, clause: Clause, pairs: bool) -> bytes:
        """One clause's table, kept with the rules' tables; a clause that reads only the card (or only the top card) is
        judged once for each, its verdicts spread over the other."""
        key = (deck.signature, pairs, ((clause.kind, clause.text),))
        table = _tables.get(key)
        if table is not None:
            _tables[key] = _tables.pop(key)
            return table
        if not pairs:
            table = self._tabulate_cards(deck, [clause])
        elif "top" not in clause.uses:  # one verdict a card (its judge's): its row is that verdict throughout
            table = b"".join(bytes([verdict]) * self.stride for verdict in self._by_judge(deck, clause, "card"))
        elif "card" not in clause.uses:  # one verdict a top card: every row is the same
            table = self._by_judge(deck, clause, "top") * self.stride
        else:
            table = self._tabulate_pairs(deck, [clause], judges(deck, clause.reads))
        _keep_table(key, table)
        return table

    def _tabulate_pairs(self, deck: Deck, clauses, judge: list[int] | None = None) -> bytes:
        """The table of every (card, top) pair: the clauses judged once per pair of judges (`judges`; by default the
        first card of each kind: twins behave alike), in the order of the cards, each card's row its judge's row."""
        ctx = C.Ctx()
        judge = judges(deck, frozenset({"identity"})) if judge is None else judge
        reps = list(dict.fromkeys(judge))  # the judges, in the order of the cards
        rows: dict[int, bytes] = {}
        for c in reps:
            verdicts = {}
            for t in reps:
                ctx.card, ctx.top = c, t
                verdicts[t] = int(self._passes(clauses, ctx))
            rows[c] = bytes(verdicts[judge[t]] for t in range(self.stride))
        return b"".join(rows[judge[c]] for c in range(self.stride))

    def _tabulate_cards(self, deck: Deck, clauses) -> bytes:
        ctx = C.Ctx()
        out = bytearray(deck.size + 1)
        for c in range(deck.size + 1):
            ctx.card = c
            out[c] = int(self._passes(clauses, ctx))
        return bytes(out)

    def _by_judge(self, deck: Deck, clause: Clause, slot: str) -> bytes:
        """A clause that reads one of `card` and `top` (`slot`), judged once per judge (`judges`), as `_tabulate_pairs`
        judges it, the verdict of each card its judge's."""
        ctx, judge = C.Ctx(), judges(deck, clause.reads)
        verdicts: dict[int, int] = {}
        for c in dict.fromkeys(judge):
            setattr(ctx, slot, c)
            verdicts[c] = int(clause.holds(ctx))
        return bytes(verdicts[judge[c]] for c in range(self.stride))

    def failing(self, ctx) -> Clause | None:
        """The first clause that refuses the move in `ctx`, or None when the rule allows it."""
        for clause in self.clauses:
            if not clause.holds(ctx):
                return clause
        return None

    def allows(self, ctx) -> bool:
        if self.always:
            return True
        if self.never:
            return False
        if self.pair_table is not None:
            if not self.pair_table[ctx.card * self.stride + ctx.top]:
                return False
        elif self.card_table is not None and not self.card_table[ctx.card]:
            return False
        return not self.residual or self._passes(self.residual, ctx)

    def residual_allows(self, ctx) -> bool:
        """The clauses beyond the table, for a move the table has already let through."""
        return self._passes(self.residual, ctx)
