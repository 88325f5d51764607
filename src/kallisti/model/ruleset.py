"""The frozen Ruleset: a resolved ruleset checked and compiled, ready for the engine."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from kallisti.errors import Finding, KallistiError, Pos, did_you_mean
from kallisti.interpreter import compiler as C
from kallisti.interpreter.cards import Deck, shared_deck
from kallisti.model import clean_loads, rule_tables
from kallisti.model.hands import compile_hands
from kallisti.model.modifiers import compile_modifiers, overlay_findings
from kallisti.model.table import compile_table
from kallisti.located import LDict, Positions, plain
from kallisti.model.loader import MAX_CLAUSES, Source, cap_findings, resolve
from kallisti.model import move_tables as tables
from kallisti.model.rule_tables import Clause, Rule
from kallisti.model.says import SaysSeen, booleans_as_words, render_says, says_findings

RULE_SCOPES = {"build": C.BUILD_SCOPE, "empty": C.EMPTY_SCOPE, "take": C.TAKE_SCOPE, "sequence": C.SEQUENCE_SCOPE,
               "dealing": C.PILE_STATE_SCOPE, "discard": C.DISCARD_SCOPE}
MAX_PILES = 400
@dataclass(frozen=True)
class Pattern:
    """A declared automatic or compulsory move: which groups, which kind of move, and a condition."""

    id: str
    kind: str
    sources: frozenset
    targets: frozenset
    when: object  # compiled function or None
    trigger: str
    says: str


@dataclass(frozen=True)
class HonourRule:
    """A rule kept on the player's honour: shown at a moment of play and acknowledged, never checked."""

    id: str
    at: str  # match-start, turn-start, before-deal, before-move or turn-end
    says: str


@dataclass(frozen=True)
class MatchRules:
    """How several players take turns: each turn is one deal, its score added to the player's total."""

    seats: int
    pack: str  # per-seat or shared
    start_score: int
    loses_at: int
    equal_turns: bool
    both_over: str  # higher-loses, first-loses or draw
    max_turns: int
    changes: int  # rule changes Player X may impose after each turn
    revoke: bool  # whether Player X may revoke a change instead
    # Who still plays once a total first reaches `loses_at`: none, round (the round is finished) or others (every
    # other player takes one more turn). Without `last_turns`, `equal_turns` says it: true is round, false none.
    last_turns: str = "round"

    @classmethod
    def from_data(cls, m) -> "MatchRules":
        last = str(m["last_turns"]) if "last_turns" in m else ("round" if bool(m["equal_turns"]) else "none")
        return cls(int(m["seats"]), str(m["pack"]), int(m["start_score"]), int(m["loses_at"]), last == "round",
                   str(m["both_over"]), int(m["max_turns"]), int(m["player_x"]["changes"]), bool(m["player_x"]["revoke"]),
                   last)


@dataclass(frozen=True)
class LossRule:
    id: str
    when: object
    says: str


@dataclass
class Group:
    name: str
    role: str
    tag: str
    piles: range
    deal: object
    prefill: object
    flip: bool
    build: Rule
    empty: Rule
    take: Rule
    sequence: Rule
    turn: dict | None
    redeals: int  # -1: unlimited
    redeal: "Redeal | None"
    dealing: Rule
    divert: "Divert | None"
    refill: dict | None
    top_face_up: bool
    reveal: object  # compiled int expression or None
    discard: "Rule | None" = None  # which windows of adjacent face-up cards may be discarded; None: no discards
    discard_to: str | None = None  # the group whose first pile takes discarded cards
    # Which cards of a pile may leave it (`take_from`): `top` (a run ending at the top), `bottom` (the bottom card),
    # `any` (any one face-up card), `runs` (any run of adjacent face-up cards); the cards above close up.
    take_from: tuple = ("top",)
    # Per card id, whether `prefill` holds, when it reads nothing but the card (`card.rank == first`); else None
    prefill_table: bytes | None = None


@dataclass(frozen=True)
class Redeal:
    """What a redeal does: gather groups (pile by pile) onto the pile, maybe shuffle, deal groups again."""

    gather: tuple
    shuffle: bool
    deal: tuple
    when: object  # compiled condition (state scope, `pile` = this pile)


@dataclass(frozen=True)
class Divert:
    """While dealing into a group, cards for which `when` holds go to a pile of `to` that takes them."""

    when: object
    to: str
    # Per card id, whether `when` holds, when it reads nothing but the card (`card.rank == first`); else None
    table: bytes | None = None


# Proofs that the game can never be won. A ruleset file with one is an error; a rule change made
# during play may do it on purpose (Player X's whole aim), so there it is a warning.
UNWINNABLE = frozenset({"win-unreachable", "foundation-capacity"})
# Errors that prove how the rules play out, and leave them whole: `kallisti check` still plays a ruleset whose only
# errors are these (loading it `despite` them), so that play shows the fault too.
PLAYABLE = UNWINNABLE | {"run-onto-foundation"}


class Ruleset:
    """A checked, compiled, immutable ruleset. Build one with `load_ruleset`, or from resolved data;
    `during_play` is for rules changed in a game, which may leave it unwinnable (see UNWINNABLE); errors whose codes
    are in `despite` (some of PLAYABLE) do not stop the load."""

    def __init__(self, data: LDict, sources: list[Source] | None = None, during_play: bool = False,
                 despite: frozenset = frozenset(), checked: bool = True):
        booleans_as_words(data)  # `win: false` in YAML, `set win false` in a change: the expression `false`
        self.data = data
        self.sources = sources or []
        self.name = str(data["game"])
        self.description = str(data.get("description", ""))
        findings: list[Finding] = [f for source in self.sources for f in source.warnings]  # read in the files' text
        default = data.pos or Pos("<ruleset>")

        at = Positions(data, default)  # at(*path): a node's position (default is known, so never None)

        # Only rules that score hands make stand-in cards, growing the deck's tables: the others share deck and compiling.
        shared = not any(k in data for k in ("hands", "table", "modifiers"))
        try:
            self.deck = shared_deck(data["deck"]) if shared else Deck(data["deck"])
            self.shuffle = str(data["deck"]["shuffle"])
        except KallistiError as exc:
            raise KallistiError([Finding(f.code, f.message, at("deck"), suggestion=f.suggestion) for f in exc.findings]) from None
        self.pile_data = data.get("piles", {})  # a ruleset that only scores hands has no piles
        self.groups: dict[str, Group] = {}
        group_of: list[str] = []
        ranges: dict[str, range] = {}
        start = 0
        for name, g in self.pile_data.items():
            ranges[name] = range(start, start + g["count"])
            group_of += [name] * g["count"]
            start += g["count"]
        if start > MAX_PILES:
            raise KallistiError(Finding("too-many-piles", f"{start} piles; at most {MAX_PILES}", at("piles")))
        self.pile_count = start
        self.group_of = tuple(group_of)
        self.compiler = C.Compiler(self.deck, ranges, group_of, shared)
        said: list[SaysSeen] = []  # every explanation with the ranks its expression names, for says_findings
        clause_total = 0
        tags = {}
        for name, g in self.pile_data.items():
            if g["tag"] in tags:
                findings.append(Finding("duplicate-tag", f"piles {tags[g['tag']]} and {name} share the tag '{g['tag']}'", at("piles", name, "tag")))
            tags[g["tag"]] = name
            if (name in self.compiler.constants and name not in self.compiler.rank_words) or \
                    name in ("deck", "card", "top", "pile", "source", "cards", "count"):
                findings.append(Finding("reserved-name", f"'{name}' is a word of the rule language; name the group otherwise", at("piles", name)))
            rules = {}
            for key, scope in RULE_SCOPES.items():
                if key not in g:
                    rules[key] = None  # only `discard` may be absent
                    continue
                clauses, uses = [], set()
                seen = set()
                for i, cl in enumerate(g[key]):
                    kind = "require" if "require" in cl else "forbid"
                    cpos = at("piles", name, key, i, kind)
                    if cl["id"] in seen:
                        findings.append(Finding("duplicate-clause", f"piles.{name}.{key} has two clauses with id '{cl['id']}'", at("piles", name, key, i)))
                    seen.add(cl["id"])
                    try:
                        comp = self.compiler.compile(cl[kind], cpos, scope)
                    except KallistiError as exc:
                        findings.extend(exc.findings)
                        continue
                    uses |= comp.uses
                    says = render_says(cl.get("says", ""), self.deck, at("piles", name, key, i, "says"), findings)
                    said.append(SaysSeen(f"piles.{name}.{key} clause {cl['id']}", cl.get("says", ""), comp.ranks,
                                         at("piles", name, key, i, "says")))
                    clauses.append(Clause(cl["id"], kind, comp.fn, comp.text, says, cpos, cl.get("macro"), comp.uses, comp.ranks, comp.reads))
                clause_total += len(clauses)
                try:
                    rules[key] = Rule(f"piles.{name}.{key}", name, key, clauses, frozenset(uses), self.deck)
                except C.RuleRuntimeError as exc:
                    # Tabulating runs the rule on every pair of cards: one that fails for some card fails here.
                    where = at("piles", name, key)
                    for clause in clauses:  # point at the clause that fails
                        try:
                            Rule("", name, key, [clause], clause.uses, self.deck)
                        except C.RuleRuntimeError:
                            where = clause.pos
                            break
                    findings.append(Finding("rule-error", f"piles.{name}.{key} fails for some cards: {exc}", where))
                    rules[key] = Rule(f"piles.{name}.{key}", name, key, [], frozenset(), self.deck)
            prefill = prefill_table = None
            if "prefill" in g:
                try:
                    prefill = self.compiler.compile(g["prefill"], at("piles", name, "prefill"), C.CARD_SCOPE).fn
                except KallistiError as exc:
                    findings.extend(exc.findings)
                else:
                    prefill_table = self._card_table(g["prefill"], at("piles", name, "prefill"))
            turn = dict(g["turn"]) if "turn" in g else None
            if turn is not None:
                self._check_group_name(data, turn["to"], ("piles", name, "turn", "to"), findings, at)
            redeal = divert = refill = reveal = None
            if "redeal" in g or (turn is not None and g["redeals"] != 0):
                # Without a `redeal` spec, a redeal turns the cards dealt out back over onto this pile.
                spec = g.get("redeal") or {"gather": [turn["to"]]}
                for key in ("gather", "deal"):
                    for i, other in enumerate(spec.get(key, [])):
                        self._check_group_name(data, other, ("piles", name, "redeal", key, i), findings, at)
                when = self._compile_or_note(spec.get("when", "pile.empty"), at("piles", name, "redeal", "when"),
                                             C.PILE_STATE_SCOPE, findings)
                redeal = Redeal(tuple(spec.get("gather", [])), bool(spec.get("shuffle", False)), tuple(spec.get("deal", [])), when)
            if "divert" in g:
                self._check_group_name(data, g["divert"]["to"], ("piles", name, "divert", "to"), findings, at)
                when = self._compile_or_note(g["divert"]["when"], at("piles", name, "divert", "when"), C.CARD_SCOPE, findings)
                divert = Divert(when, g["divert"]["to"], when and self._card_table(g["divert"]["when"],
                                                                       at("piles", name, "divert", "when")))
            if "refill" in g:
                refill = dict(g["refill"])
                self._check_group_name(data, refill["from"], ("piles", name, "refill", "from"), findings, at)
            if "reveal" in g:
                reveal = self._compile_or_note(g["reveal"], at("piles", name, "reveal"), C.PILE_STATE_SCOPE, findings, want=C.INT)
            self.groups[name] = Group(
                name, g["role"], g["tag"], ranges[name], g["deal"], prefill, bool(g["flip"]), rules["build"], rules["empty"],
                rules["take"], rules["sequence"], turn, -1 if g["redeals"] == "unlimited" else int(g["redeals"]), redeal,
                rules["dealing"], divert, refill, bool(g["top_face_up"]), reveal, rules["discard"], g.get("discard_to"),
                tuple(dict.fromkeys(g.get("take_from", ["top"]))), prefill_table)
            if "discard_to" in g:
                self._check_group_name(data, g["discard_to"], ("piles", name, "discard_to"), findings, at)
            if ("discard" in g) != ("discard_to" in g):
                has, lacks = ("discard", "discard_to") if "discard" in g else ("discard_to", "discard")
                findings.append(Finding("discard-pair", f"piles.{name} has `{has}` but no `{lacks}`: a group that discards "
                                        "needs both the rule and the group the cards go to", at("piles", name, has),
                                        suggestion=f"add `{lacks}` to piles.{name}"))
        if clause_total > MAX_CLAUSES:
            findings.append(Finding("too-many-clauses", f"{clause_total} clauses; at most {MAX_CLAUSES}", at("piles")))
        self.auto = tuple(self._patterns(data, "auto", findings, at, said))
        self.compulsory = tuple(self._patterns(data, "compulsory", findings, at, said))
        self.lose: list[LossRule] = []
        for i, item in enumerate(data["lose"]):
            try:
                comp = self.compiler.compile(item["when"], at("lose", i, "when"), C.STATE_SCOPE)
                says = render_says(item.get("says", item["id"]), self.deck, at("lose", i, "says"), findings)
                said.append(SaysSeen(f"lose.{item['id']}", item.get("says", ""), comp.ranks, at("lose", i, "says")))
                self.lose.append(LossRule(item["id"], comp.fn, says))
            except KallistiError as exc:
                findings.extend(exc.findings)
        self.win = self.score = None
        self.win_sizes: frozenset | None = None  # the groups whose sizes are all the win reads (see Compiled.sizes)
        for key, want in (("win", C.BOOL), ("score", C.INT)):
            if key not in data:
                continue  # no piles, no win: the ruleset scores hands only
            try:
                compiled = self.compiler.compile(data[key], at(key), C.STATE_SCOPE, want)
            except KallistiError as exc:
                findings.extend(exc.findings)
                continue
            setattr(self, key, compiled.fn)
            if key == "win":
                self.win_sizes = compiled.sizes
        self.honour = tuple(HonourRule(hid, str(h["at"]), str(h["says"])) for hid, h in data["honour"].items())
        self.match = MatchRules.from_data(data["match"]) if "match" in data else None
        self.hands = compile_hands(data["hands"], self.compiler, at, findings) if "hands" in data else None
        self.table = compile_table(data["table"], self.hands, self.deck.size, at, findings) if "table" in data else None
        self.modifiers = compile_modifiers(data["modifiers"], self.deck, at, findings) if "modifiers" in data else ()
        self.stock_groups = tuple(name for name, g in self.groups.items() if g.turn is not None or g.redeal is not None)
        if checked:  # not for texts a load found clean before (model/clean_loads.py): the checks could find nothing
            findings += self._check(at, findings, said)
        if during_play:
            findings = [replace(f, severity="warning") if f.code in UNWINNABLE else f for f in findings]
        self.findings = [f for f in findings if f.severity == "warning"]
        if any(f.severity == "error" and f.code not in despite for f in findings):
            raise KallistiError(findings)  # the warnings too: `validate` reports every finding
        self.tag_of = {}
        for name, g in self.groups.items():
            for i, p in enumerate(g.piles):
                self.tag_of[p] = g.tag if len(g.piles) == 1 else f"{g.tag}{i + 1}"
        self.pile_of_tag = {tag: p for p, tag in self.tag_of.items()}
        self.gindex = tuple(list(self.groups).index(self.group_of[p]) for p in range(self.pile_count))
        self._move_tables = None
        self._table_bytes: int | None = None
        # The ends of the trial deals of rule changes that make the moves these rules make (interpreter/amend.py), by
        # (deal, move cap): changes of the score alone score them again rather than play them again.
        self.trial_games: dict[tuple, object] = {}
        self.card_move_cache: dict[int, tuple] = {}  # the engine's decoded card moves, shared by its games
        self.engine_tables: dict | None = None  # the engine's move-generation tables, built by the first game
        # Where the opening deal puts each card (interpreter/state.py: `deal_layout`), made by the first deal.
        self.deal_layout: object = None
        # Whether some rule reads the moves made (`moves`, `last_move`, a pile's `played`): its games keep them.
        self.reads_history = self.compiler.history_read

    def move_tables(self):
        """Per group, computed once: which top kinds each card may go on, which cards a space takes,
        and how many cards may leave at once (when the take rule reads only `count`)."""
        if self._move_tables is None:
            self._move_tables = tables.move_tables(self, rule_tables.MAX_TABLES)
        return self._move_tables

    def table_bytes(self) -> int:
        """The bytes of its rules' tables (each once; a table it shares with other rulesets is counted in each): counted
        once, for the tables are made with the rules (the cache of compiled changes asks at each ruleset it keeps)."""
        if self._table_bytes is None:
            self._table_bytes = self._count_table_bytes()
        return self._table_bytes

    def _count_table_bytes(self) -> int:
        tables = {}
        for g in self.groups.values():
            for rule in (g.build, g.empty, g.take, g.sequence, g.dealing, g.discard):
                for table in (getattr(rule, "pair_table", None), getattr(rule, "card_table", None)):
                    if table is not None:
                        tables[id(table)] = len(table)
        return sum(tables.values())

    def _check_group_name(self, data, name, path, findings, at) -> None:
        if name not in self.pile_data:
            where = ".".join(str(p) for p in path)
            findings.append(Finding("unknown-pile", f"{where} names no group '{name}'", at(*path),
                                    suggestion=did_you_mean(name, self.pile_data)))

    def _check(self, at, findings: list[Finding], said: list[SaysSeen]) -> list[Finding]:
        """What the checks find in the compiled ruleset: its layout, its modifiers' overlays (unless compiling has
        found an error already), its rules' meaning and its explanations."""
        from kallisti.model.checks import layout_findings, semantic_findings  # checks read the half-built ruleset

        found = layout_findings(self, at)  # before the modifiers' overlays, which would each repeat a bad hint
        if self.modifiers and not any(f.severity == "error" for f in findings + found):
            found += overlay_findings(self, at)
        return found + semantic_findings(self, at) + says_findings(self.deck, said)

    def _card_table(self, text, pos) -> bytes | None:
        """Per card id, whether a condition of a card (compiled before in CARD_SCOPE) holds for it, when it reads
        nothing but the card; None when it reads the position too, or fails for some card."""
        compiled = self.compiler.compile(text, pos, C.CARD_SCOPE, C.BOOL)
        if not compiled.uses <= {"card"}:
            return None
        ctx, verdicts = C.Ctx(), bytearray(self.deck.size)
        try:
            for c in range(self.deck.size):
                ctx.card = c
                verdicts[c] = bool(compiled.fn(ctx))
        except C.RuleRuntimeError:
            return None
        return bytes(verdicts)

    def _compile_or_note(self, text, pos, scope, findings, want=C.BOOL):
        """A compiled expression's function, or None with its findings noted."""
        try:
            return self.compiler.compile(text, pos, scope, want).fn
        except KallistiError as exc:
            findings.extend(exc.findings)
            return None

    def _patterns(self, data, key, findings, at, said):
        out = []
        for i, item in enumerate(data[key]):
            srcs = item.get("from", [])
            dsts = item.get("to", [])
            srcs = [srcs] if isinstance(srcs, str) else list(srcs)
            dsts = [dsts] if isinstance(dsts, str) else list(dsts)
            for field_, names in (("from", srcs), ("to", dsts)):
                listed = isinstance(item.get(field_), list)
                for j, n in enumerate(names):
                    if n != "any" and n not in self.pile_data:
                        where = at(key, i, field_, j) if listed else at(key, i, field_)
                        findings.append(Finding("unknown-pile", f"{key}[{i}].{field_} names no group '{n}'", where,
                                                suggestion=did_you_mean(n, self.pile_data)))
            when = None
            says = render_says(item.get("says", item["id"]), self.deck, at(key, i, "says"), findings)
            if "when" in item:
                try:
                    comp = self.compiler.compile(item["when"], at(key, i, "when"), C.MOVE_SCOPE)
                    when = comp.fn
                    said.append(SaysSeen(f"{key}.{item['id']}", item.get("says", ""), comp.ranks, at(key, i, "says")))
                except KallistiError as exc:
                    findings.extend(exc.findings)
            all_groups = frozenset(self.pile_data)
            out.append(Pattern(item["id"], item.get("kind", "move"),
                               all_groups if "any" in srcs or not srcs else frozenset(srcs),
                               all_groups if "any" in dsts or not dsts else frozenset(dsts),
                               when, item.get("trigger", "each-move"), says))
        return out

    def plain(self) -> dict:
        """The resolved ruleset as plain data (what saves store and `convert` writes)."""
        return plain(self.data)


def load_ruleset(ref: str | Path, text: str | None = None, despite: frozenset = frozenset()) -> Ruleset:
    """Load, resolve, check and compile a ruleset given by a shipped game's name or a file path (errors with the
    codes `despite` do not stop it)."""
    key = clean_loads.key_for(ref, text, despite)
    if key is not None and clean_loads.known(key):  # these texts loaded clean before: read and compile them only
        data, sources = resolve(ref, text, checked=False)
        return Ruleset(data, sources, despite=despite, checked=False)
    data, sources = resolve(ref, text)
    try:
        rules = Ruleset(data, sources, despite=despite)
    except KallistiError as exc:
        raise KallistiError(cap_findings(exc.findings)) from None
    if key is not None and not rules.findings:
        clean_loads.remember(key)
    return rules
