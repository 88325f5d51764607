"""Verdicts kept from one listing to the next: a pile's runs by its cards, spaces closed by their gates, a rule's
verdicts past its gates or while the piles it reads stand, and sources every checked rule refuses."""

from __future__ import annotations

from itertools import compress

from kallisti.interpreter.expr_types import RuleRuntimeError
from kallisti.interpreter.rule_reads import MEMO_LIMIT

# Piles whose runs `run_memo` keeps before it is emptied and refilled: each is a pile's cards and a list of runs, a
# few hundred bytes, kept for the life of the ruleset (random playouts of 20 deals of Spider see ~2,200 piles).
MAX_RUNS_MEMO = 1 << 13


class KeptVerdicts:
    """The part of `Game` that reads verdicts kept by the move indexes' tables (move_index.py) where judging every
    rule again would give the same: the move generator (move_gen.py) asks it first."""

    # Whether `_all_moves` lists runs through its loop that reads their kinds' `dests` and `checked` lists alone, the
    # latter's verdicts read off (off: through the loop that also asks about spaces and general targets, which a test
    # compares with).
    READ_OFF_RUNS = True

    def _targets_idle(self) -> bool:
        """Whether the general targets take cards into spaces alone and none of them has a space open now (`_space_open`:
        its empty rule may close every space in a position): a run's general targets then add no move (and judge
        nothing), so runs are listed as if they had none."""
        groups, empties = self.space_only_targets, self.empties
        if groups is None:
            return False
        for tg in groups:
            if empties[tg] and self._space_open(tg):
                return False
        return True

    def _space_open(self, tg: int) -> bool:
        """Whether a space of group tg may take a card in this position: the clauses its empty rule runs first that
        read nothing of the move (`space_gates`) hold (Miss Milligan's reserve takes cards once the stock is dealt
        out). A clause that fails leaves it open: the moves are judged as ever, and the failure noted each time."""
        ctx = self.ctx
        try:
            for clause in self.space_gates[tg]:  # a loop, not a generator: asked at most listings
                if not clause.holds(ctx):
                    return False
        except RuleRuntimeError:
            pass
        return True

    def _gated_verdict(self, tg: int, src: int, n: int) -> bool | None:
        """Group tg's empty rule on the top n cards of pile src, when it keeps verdicts past its space gates
        (`gated_counts`): False where a gate does not hold (judged once a listing, `gates_now`), else its other
        clauses' verdict by source and count, kept. None where a clause fails: judged the general way, its failure
        noted."""
        now = self.gates_now
        if now is None:
            now = self.gates_now = {}
        held, rule, gates = now.get(tg), self.group_list[tg].empty, self.space_gates[tg]
        try:
            if held is None:
                held = now[tg] = rule._passes(gates, self.ctx)
            if not held:
                return False
            memo, key = self.gated_counts[tg], src * self.window_span + n
            ok = memo.get(key)
            if ok is None:
                ok = rule._passes(rule.residual[len(gates):], self._move_ctx(src, n))
                if len(memo) >= MEMO_LIMIT:
                    memo.clear()
                memo[key] = ok
        except RuleRuntimeError:
            return None
        return ok

    def _space_sources(self, space_targets):
        """The simple sources `_all_moves` goes through when the only targets beyond the `dests` lists are the spaces
        of `space_targets` (no open space, no pile filed in `checked`): in their order, those with a `dests` list to go
        to and those the spaces may take a card from, the others listing nothing. A space target's verdicts kept by
        source (`space_counts`) tell which sources its spaces refuse: the rest are kept in `space_takers`, worked out
        again when a verdict was added. Every source when a target keeps no verdicts by source."""
        takers, span, sources = self.space_takers, self.window_span, self.simple_sources
        chosen = list(map(bool, self.source_dests))
        for tg, _, kept in space_targets:
            if kept is None:
                return sources
            known = takers.get(tg)
            # Verdicts are only added (or all forgotten, past MEMO_LIMIT), and a kept refusal is the rule's for good.
            if known is None or known[0] != len(kept):
                known = takers[tg] = (len(kept), [i for src, _, i in sources if kept.get(src * span + 1) is not False])
            for i in known[1]:
                chosen[i] = True
        return compress(sources, chosen)

    def _refuses_single(self, checked_builds: list[int], checked_spaces: list[int]) -> list[bool]:
        """Per pile, whether every rule filed in `checked` (the build rules of `checked_builds`' groups and the empty
        rules of `checked_spaces`') refuses one card from it, whatever the card and wherever it
        would go: those rules then keep verdicts by source and count alone (`kept_checked`), judged here once for each
        pile, so that `_all_moves` passes over the checked lists of a simple source they all refuse (a foundation's
        card, which no other foundation takes) rather than reading the same refusals off pile by pile. False for every
        pile otherwise, and for a pile where a rule fails (judged as ever, its failure noted then)."""
        if not self.kept_checked:
            return [False] * self.P
        groups, ctx = self.group_list, self.ctx
        rules = [groups[tg].build for tg in checked_builds] + [groups[tg].empty for tg in checked_spaces]
        refused = []
        for p in range(self.P):
            ctx.count, ctx.source = 1, p
            try:
                refused.append(not any(rule.residual_allows(ctx) for rule in rules))
            except RuleRuntimeError:
                refused.append(False)
        return refused

    def _kept_runs(self, src: int, limit: int, seq, counts) -> list[tuple]:
        """`_runs` of a source whose runs are a function of its own cards (`run_plan`), kept for it until it changes
        (`runs`) and, when `run_memo` is on, by its cards and its face-down cards for any later position where it holds
        them again. A rule that failed is judged again, its failure noted again: those runs are not kept."""
        memo = self.run_memo
        if memo is not None:
            key = (src, self.down[src], self.cards_key(self.piles[src]))
            found = memo.get(key)
            if found is not None:
                self.runs[src] = found
                return found
        failures = self.failures
        found = self._runs(src, limit, seq, counts)
        if failures == self.failures:
            self.runs[src] = found
            if memo is not None:
                if len(memo) >= MAX_RUNS_MEMO:
                    memo.clear()
                memo[key] = found
        return found

    def _stand_watches(self) -> bool:
        """Make every watch of a rule (`GroupWatch`) forget the verdicts kept before a change of the piles it watches:
        once a listing, before any is read off (`_all_moves`). False, for `stale`."""
        for watch in self.watches:
            watch.stand(self.state)
        return False

    def _read_off(self, out, lst, src: int, head: int, key: int, builds, spaces) -> None:
        """The moves of a simple source's card onto the piles of its checked list `lst`, each pile's verdict read off
        its rule's kept verdicts by `key` (per pile, its build rule's in `builds`, its empty rule's in `spaces`); a
        pile not judged yet is judged by `_checked_targets`, as ever."""
        piles = self.piles
        for d in lst:
            if d != src:
                ok = (builds[d] if piles[d] else spaces[d]).get(key)
                if ok:
                    out.append(head + d)
                elif ok is None:
                    self._checked_targets(out, (d,), src, 1, head)
