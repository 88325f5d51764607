"""Safe moves: the moves home the solver may play without trying any other, read off the ruleset.

A move of one card home (to a group the win needs every card in) is played alone only when the proof in
docs/solver.md ("Safe moves: when a move home is played alone") covers it: if the position before it can be won,
so can the position after it. The proof needs conditions of the whole ruleset (R1-R5, checked once by
`SafeMoves.of`, which gives the first that fails), of the card and the groups it may lie in (C1-C3, worked out
once a group and kind), and of the position (P1-P3, at each position):

- R: no `lose` rule, compulsory move, automatic move after each step, refill, divert or discard; no card ever
  leaves home, and cards reach it only by a player's move of one card; the build rules outside home are tabulated;
- C: no stock, hand or redealt group among the groups the card may lie in, no rule that reads the contents of
  those groups or of home, and runs the card may top can move without it;
- P: every card that could be built on the card outside home is home; the home piles that take it are alike
  (one group, one top) and no fewer than the cards outside home they take, and no other home pile could ever
  take one of those cards.

Everything is derived from the tabulated rules and the text of the rules that read the position; no game is
named. A condition the tables cannot decide is taken as failing, so a doubt costs pruning, never a verdict.
"""

from __future__ import annotations

from kallisti.errors import KallistiError, Pos
from kallisti.grammar.expressions import Attr, Bool, Call, ListLit, Name, Num, Op, Quant, Str, parse_expression
from kallisti.interpreter import compiler as C
from kallisti.model.reach import one_card_at_a_time, win_shape

EMPTY = -1  # the "top kind" of an empty pile
CARD_ATTRIBUTES = frozenset({"rank", "suit", "family", "color", "colour", "value", "values", "marks", "pack"})
RULE_KEYS = ("build", "empty", "take", "sequence", "dealing")
VERDICTS = 1 << 16  # verdicts of P1-P3 kept before they are forgotten and worked out again
_BYTE = [bytes((i,)) for i in range(256)]


class SafeMoves:
    """The safe-move rule of one ruleset; build it with `SafeMoves.of`."""

    def __init__(self, rules, home: list[str]):
        deck = rules.deck
        self.rules = rules
        self.kinds = list(deck.representative)
        self.rep = deck.representative
        self.copies = [0] * (max(self.kinds) + 1)
        for c in range(deck.size):
            self.copies[deck.kind[c]] += 1
        names = list(rules.groups)
        self.home_groups = frozenset(home)
        self.home_index = frozenset(names.index(g) for g in home)
        self.home_piles = frozenset(p for g in home for p in rules.groups[g].piles)
        self.home_order = sorted(self.home_piles)
        # The moves `pick` looks at, each with its source: one card from a pile outside home to a home pile.
        P = rules.pile_count
        self.home_moves = {(P + src) * P + dst: src for src in range(P) if src not in self.home_piles
                           for dst in self.home_order}
        # Verdicts of P1-P3, which read only the cards home and the kind of the card: kept by those, as bytes (the
        # cards home, card ids pile by pile or the solver's key of the home piles, then the kind), when card ids
        # and kinds fit a byte. Bytes and booleans, which the garbage collector need not follow.
        self.small = deck.size < 255 and max(deck.kind[:deck.size], default=0) < 255
        self.verdicts: dict[bytes, bool] = {}
        self.take_max = dict(zip(names, rules.move_tables()[2]))
        # Per home group (by index) and top kind (EMPTY for an empty pile): the kinds its tables let on.
        self.admits: dict[tuple[int, int], frozenset] = {}
        self.preds: dict[int, dict[int, tuple]] = {}  # home group -> kind -> the top kinds it goes on
        for g in home:
            gi, group = names.index(g), rules.groups[g]
            self.admits[(gi, EMPTY)] = frozenset(self._empty_admits(group.empty))
            preds: dict[int, list] = {k: [] for k in self.kinds}
            for t in self.kinds:
                on = frozenset(self._pair_admits(group.build, t))
                self.admits[(gi, t)] = on
                for k in on:
                    preds[k].append(t)
            self.preds[gi] = {k: tuple(v) for k, v in preds.items()}
        outside = [g for g in names if g not in self.home_groups]
        # Kinds that may be built on each kind outside home, or lie on it in a run that may move (P1).
        self.blockers: dict[int, frozenset] = {}
        for k in self.kinds:
            out = set()
            for g in outside:
                group = rules.groups[g]
                out |= self._pairs_onto(group.build, k)
                if self.take_max[g] >= 2:
                    out |= self._pairs_onto(group.sequence, k)
            self.blockers[k] = frozenset(out)
        # The groups outside home a card of each kind may be moved into (C1).
        self.holders = {k: frozenset(g for g in outside if self._pair_admits_somewhere(rules.groups[g].build, k)
                                     or k in self._empty_admits(rules.groups[g].empty)) for k in self.kinds}
        self.stocks = frozenset(g for g, group in rules.groups.items()
                                if group.turn is not None or group.redeal is not None)
        self.hands = frozenset(g for g, group in rules.groups.items() if group.top_face_up)
        self.redealt = frozenset(x for group in rules.groups.values() if group.redeal is not None
                                 for x in (*group.redeal.gather, *group.redeal.deal))
        self.reads = _rule_reads(rules)
        self.runs_shrink = _runs_shrink(rules, self.home_groups, self.take_max)
        self.group_index = rules.gindex
        self.group_names = names
        self._static: dict[tuple[int, int], tuple | None] = {}

    # -- building ------------------------------------------------------------------------------
    @classmethod
    def of(cls, rules) -> tuple[SafeMoves | None, str]:
        """The safe-move rule of `rules`, or None and the first condition of the ruleset that fails."""
        if rules.reads_history:
            return None, "its rules read the moves made, which a proof from the position alone cannot see"
        win = win_shape(" ".join(str(rules.data.get("win", "")).split()), rules.groups) if rules.win else None
        if win is None or not win.everything_on:
            return None, "the win does not ask for every card in some groups"
        home = list(dict.fromkeys(win.everything_on))
        why = _ruleset_fails(rules, home)
        if why:
            return None, why
        return cls(rules, home), ""

    def _pair_admits(self, rule, top_kind: int):
        """The kinds `rule` (a build rule) may let on a card of `top_kind`, by its tables (more when it has none)."""
        if rule.never:
            return ()
        if rule.always or rule.pair_table is None:
            return self.kinds
        table, stride, t = rule.pair_table, rule.stride, self.rep[top_kind]
        return [k for k in self.kinds if table[self.rep[k] * stride + t]]

    def _pairs_onto(self, rule, kind: int) -> set:
        return set(self._pair_admits(rule, kind))

    def _pair_admits_somewhere(self, rule, kind: int) -> bool:
        """Whether `rule` may let a card of `kind` on some card."""
        if rule.never:
            return False
        if rule.always or rule.pair_table is None:
            return True
        table, stride, c = rule.pair_table, rule.stride, self.rep[kind]
        return any(table[c * stride + self.rep[t]] for t in self.kinds)

    def _empty_admits(self, rule):
        """The kinds an empty pile may take by `rule` (every kind when its tables cannot say)."""
        if rule.never:
            return ()
        if rule.always or rule.card_table is None:
            return self.kinds
        return [k for k in self.kinds if rule.card_table[self.rep[k]]]

    # -- the card and the groups it may lie in ---------------------------------------------------
    def static(self, source_group: int, kind: int) -> tuple | None:
        """For a card of `kind` on a pile of group `source_group`: None when C1-C3 fail, else the home piles that
        must all hold a card (those of the home groups whose `empty` rule reads the position)."""
        key = (source_group, kind)
        if key not in self._static:
            self._static[key] = self._compute_static(self.group_names[source_group], kind)
        return self._static[key]

    def _compute_static(self, source: str, kind: int) -> tuple | None:
        differ = self.home_groups | {source} | self.holders[kind]  # groups whose contents the proof's lines differ in
        if differ & (self.stocks | self.hands | self.redealt):
            return None  # C1
        rules = self.rules
        if not self.runs_shrink:
            for g in differ - self.home_groups:
                if self.take_max[g] >= 2 and self._pair_admits_somewhere(rules.groups[g].sequence, kind):
                    return None  # C3: a run this card may top could not be moved without it
        must_fill: list[int] = []
        for group, key, read in self.reads:
            if read is not None and not (read & differ):
                continue
            if key == "empty" and group in self.home_groups:
                must_fill += rules.groups[group].piles  # consulted only while one of its piles is empty
                continue
            return None  # C2
        return tuple(must_fill)

    # -- the position -------------------------------------------------------------------------------
    def pick(self, game, moves: list[int], home: bytes | None = None, home_of=None) -> int | None:
        """The first move of `moves` that is safe in the game's position, or None.

        `home`, when given, is the solver's key of the home groups' piles in this position (their cards as kinds,
        pile by pile; `PositionKeys.home_part`), or `home_of` a function of no argument that gives it (or None),
        asked only once a verdict is needed: P1-P3 read only the cards home by kind and each home pile's group
        and top kind, which it determines, so the answers are kept by it."""
        home_moves = self.home_moves
        if home_moves.keys().isdisjoint(moves):
            return None  # no move goes home (most positions): told at C speed
        piles, kind_of, gindex = game.state.piles, game.kind, self.group_index
        statics = self._static
        at = None  # the cards home, as the verdicts are kept by them
        for m in moves:
            src = home_moves.get(m)
            if src is None:
                continue  # a deal, a redeal, a discard, a run, or a move that does not go home from outside
            kind = kind_of[piles[src][-1]]
            key = (gindex[src], kind)
            must_fill = statics[key] if key in statics else self.static(*key)
            if must_fill is None or must_fill and any(not piles[p] for p in must_fill):
                continue
            if self.small:
                if at is None:
                    if home is None and home_of is not None:
                        home = home_of()
                    at = home if home is not None else b"\xff".join([bytes(piles[p]) for p in self.home_order])
                    at = (b"k" if home is not None else b"c") + at  # the two ways to write the cards home apart
                verdict = self.verdicts.get(at + _BYTE[kind])
                if verdict is None:
                    if len(self.verdicts) >= VERDICTS:
                        self.verdicts.clear()
                    verdict = self.verdicts[at + _BYTE[kind]] = self.safe(kind, *self._home_now(game))
            else:
                verdict = self.safe(kind, *self._home_now(game))
            if verdict:
                return m
        return None

    def _home_now(self, game) -> tuple[list[int], list[tuple[int, int, int]]]:
        """How many cards of each kind are home, and each home pile's (pile, group, top kind)."""
        counts = [0] * len(self.copies)
        tops = []
        kind_of, piles, gindex = game.kind, game.state.piles, self.group_index
        for p in self.home_order:
            pile = piles[p]
            for c in pile:
                counts[kind_of[c]] += 1
            tops.append((p, gindex[p], kind_of[pile[-1]] if pile else EMPTY))
        return counts, tops

    def safe(self, kind: int, counts: list[int], tops: list[tuple[int, int, int]]) -> bool:
        """P1-P3 for a card of `kind` going home, given the home cards and tops."""
        copies = self.copies
        for b in self.blockers[kind]:  # P1
            if counts[b] != copies[b]:
                return False
        admits = self.admits
        takers = [(p, g, t) for p, g, t in tops if kind in admits[(g, t)]]
        if not takers:
            return False
        _, g0, t0 = takers[0]
        if any(g != g0 or t != t0 for _, g, t in takers[1:]):
            return False  # P2: the piles that take it are not alike
        taken = admits[(g0, t0)]
        wanted = sum(copies[k] - counts[k] for k in taken)  # the cards outside home those piles take
        if wanted > len(takers):
            return False  # P2: fewer such piles than cards for them
        chosen = {p for p, _, _ in takers}
        others = [(p, g, t) for p, g, t in tops if p not in chosen]
        if wanted >= 2:
            for _, g, t in others:
                if not taken.isdisjoint(admits[(g, t)]):
                    return False  # P3: another home pile takes one of them now
            groups, kinds = {g for _, g, _ in others} | {g0}, taken
        else:
            groups, kinds = {g for _, g, _ in others}, (kind,)
        for g in groups:  # P3: no home pile can come to take one of them later
            preds = self.preds[g]
            for k in kinds:
                for t in preds[k]:
                    if counts[t] != copies[t]:
                        return False
        return True


def _ruleset_fails(rules, home: list[str]) -> str:
    """The first condition R1-R5 of the whole ruleset that fails, or ''."""
    if rules.lose:
        return "a `lose` rule"
    if rules.compulsory:
        return "compulsory moves"
    if any(p.trigger == "each-move" for p in rules.auto):
        return "automatic moves after each step"
    for name, g in rules.groups.items():
        if g.refill is not None:
            return f"piles.{name} is refilled"
        if g.divert is not None:
            return f"piles.{name} diverts dealt cards"
        if g.discard is not None and not g.discard.never:
            return f"piles.{name} discards"
        if g.take_from != ("top",) and not g.take.never:
            return f"piles.{name} gives cards from below the top"
        if g.turn is not None and g.turn["to"] in home:
            return f"piles.{name} deals into home"
        if g.redeal is not None and set(home) & {*g.redeal.gather, *g.redeal.deal}:
            return f"piles.{name} redeals home"
    for name in home:
        g = rules.groups[name]
        if not g.take.never:
            return f"cards may leave piles.{name}"
        if g.turn is not None or g.redeal is not None:
            return f"piles.{name} deals"
    deck = rules.deck
    take_max = dict(zip(rules.groups, rules.move_tables()[2]))
    for name, g in rules.groups.items():
        if name in home:
            continue
        if not g.build.never and not g.build.always and g.build.pair_table is None:
            return f"piles.{name}.build is not tabulated"
        if take_max[name] >= 2 and not g.sequence.always and not g.sequence.never and g.sequence.pair_table is None:
            return f"piles.{name}.sequence is not tabulated"
    # R5: a run of two or more cards never lands on a home pile.
    runs_from = [rules.groups[n] for n in rules.groups if n not in home and take_max[n] >= 2]
    for name in home:
        g = rules.groups[name]
        bottoms: set[int] = set()
        reps = deck.representative
        if not one_card_at_a_time(deck, g.build):
            bottoms |= {k for k in reps if g.build.always or g.build.pair_table is None or
                        any(g.build.pair_table[reps[k] * g.build.stride + t] for t in reps.values())}
        if not one_card_at_a_time(deck, g.empty):
            bottoms |= {k for k in reps if g.empty.always or g.empty.card_table is None or g.empty.card_table[reps[k]]}
        for r in runs_from:
            seq = r.sequence
            if seq.never:
                continue
            for b in bottoms:
                if seq.always or seq.pair_table is None or \
                        any(seq.pair_table[c * seq.stride + reps[b]] for c in reps.values()):
                    return f"a run may land on piles.{name}"
    return ""


def _runs_shrink(rules, home, take_max) -> bool:
    """C3: whether a run whose top card is taken away can still move as the run did: every take clause of a group
    runs may leave, and every build and empty clause outside home, reads `count` only in a way that allows one card
    fewer whenever it allows a count, and none reads the moving `cards`."""
    deck = rules.deck
    clauses = []
    for name, g in rules.groups.items():
        if name in home:
            continue
        clauses += list(g.build.clauses) + list(g.empty.clauses)
        if take_max[name] >= 2:
            clauses += list(g.take.clauses)
    return all(_count_closed(deck, c) for c in clauses)


def _count_closed(deck, clause) -> bool:
    uses = clause.uses
    if "cards" in uses:
        return False
    if "count" not in uses:
        return True
    if not uses <= {"count", "card"}:
        return False
    ctx = C.Ctx()
    for card in (deck.representative.values() if "card" in uses else (0,)):
        ctx.card = card
        try:
            before = None
            for n in range(1, deck.size + 1):
                ctx.count = n
                now = clause.holds(ctx)
                if now and before is False:
                    return False
                before = now
        except C.RuleRuntimeError:
            return False
    return True


def _rule_reads(rules) -> list[tuple[str, str, frozenset | None]]:
    """Every rule that judges a move, a deal or a redeal: (group, key, the groups whose contents it reads, or None
    when that cannot be told)."""
    out = []
    groups = set(rules.groups)
    for name, g in rules.groups.items():
        for key in RULE_KEYS:
            rule = getattr(g, key)
            if rule is None or rule.always or rule.never:
                continue
            read: set | None = set()
            for clause in rule.clauses:
                part = expression_reads(clause.text, name, groups)
                if part is None:
                    read = None
                    break
                read |= part
            out.append((name, key, None if read is None else frozenset(read)))
        if g.redeal is not None:
            spec = rules.pile_data[name].get("redeal") or {}
            out.append((name, "redeal", expression_reads(str(spec.get("when", "pile.empty")), name, groups)))
    return out


def expression_reads(text: str, own: str, groups) -> frozenset | None:
    """The groups whose piles' contents (sizes, cards, faces) an expression may read; `pile` is a pile of `own`.
    None when it cannot be told: it reads the contents of `source`, or whether a card lies face up."""
    try:
        node = parse_expression(text, Pos("<rule>"))
    except KallistiError:
        return None
    out: set[str] = set()

    def walk(node, env) -> bool:
        if isinstance(node, (Num, Str, Bool, Name)):
            return True  # a value: contents are read only through an attribute or a quantifier
        if isinstance(node, Attr):
            if node.name in ("face_up", "movable"):
                return False
            obj = node.obj
            if not isinstance(obj, Name):
                return walk(obj, env)  # an attribute of a value worked out from what `obj` reads
            n = obj.name
            if n in env:
                bound = env[n]
                if bound is not None:
                    out.add(bound)  # a pile of that group
                    return True
                return node.name in CARD_ATTRIBUTES  # an item of a list: only a card's own attributes are known
            if n in groups:
                if node.name != "count":
                    out.add(n)
                return True
            if n == "pile":
                out.add(own)
                return True
            if n == "source":
                return False
            return True  # card, top, cards, deck: the moving cards, the target's top, constants
        if isinstance(node, (Op, Call)):
            return all(walk(a, env) for a in node.args)
        if isinstance(node, ListLit):
            return all(walk(a, env) for a in node.items)
        if isinstance(node, Quant):
            it, bound = node.iterable, None
            if isinstance(it, Name) and it.name in groups:
                bound = it.name
            elif isinstance(it, Attr) and it.name == "piles" and isinstance(it.obj, Name) and it.obj.name in groups:
                bound = it.obj.name
            elif not walk(it, env):
                return False
            return walk(node.body, {**env, node.var: bound})
        return False

    return frozenset(out) if walk(node, {}) else None
