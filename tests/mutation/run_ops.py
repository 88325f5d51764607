"""Operators that let cards onto foundations unjudged: runs the rules let land as a unit, which `validate` proves
(`run-onto-foundation`), and an engine that does not judge moves onto foundations, which only play shows
(`check-foundation-build`)."""

from __future__ import annotations

import copy
from contextlib import contextmanager
from unittest import mock

from kallisti.interpreter.game import Game
from kallisti.model.ruleset import load_ruleset
from kallisti.model.runs import verified_groups

from .base import (RANK_STEP, Shipped, as_text, clause_expr, live_rules, monotone, operator, pick, piles, refuses_all,
                   standalone)

ONE_CARD = ("require", "count == 1")
OPPOSITE = {"up": "down", "down": "up"}


def one_card(rule: list) -> bool:
    """Whether a rule lets only one card through at a time, by a `count == 1` clause (or lets nothing through)."""
    return refuses_all(rule) or any(clause_expr(c) == ONE_CARD for c in rule)


def steps(rule: list) -> set[str]:
    """The directions, `up` or `down`, in which the rule requires each card to be one rank from the card under it."""
    return {RANK_STEP[" ".join(text.split())] for kind, text in map(clause_expr, rule)
            if kind == "require" and " ".join(text.split()) in RANK_STEP}


def foundations(data: dict) -> list[tuple[str, str]]:
    """(name, direction) of each foundation group that builds strictly up or down in rank."""
    return [(name, way) for name, g in piles(data).items() if g["role"] == "foundation" and (way := monotone(g))]


@operator("run-onto-foundation", "run-onto-foundation")
def run_onto_foundation(game, rng):
    """A run is let onto a foundation that builds strictly up (down) in rank, as a unit judged by its bottom card
    alone, in one of two ways: a foundation rule's `count == 1` clause is dropped in a game where a group gives runs
    whose cards need not step the foundation's way (the `build` clause, any such run; the `empty` clause, when the
    runs are of any cards); or, in a game whose foundations take runs as they come, a tableau group that builds one
    rank at a time the other way and moves one card at a time comes to move runs in that order (`take: any run`,
    `sequence` its build rule). Either way a run's upper card lands on the card under it one rank the wrong way,
    which the foundation's build rule refuses."""
    data = game.data
    givers = [(n, g) for n, g in piles(data).items() if not one_card(g["take"])]
    out = []
    for name, way in foundations(data):
        group = piles(data)[name]
        for key in ("build", "empty"):
            if not any(clause_expr(c) == ONE_CARD for c in group[key]):
                continue
            fits = [n for n, g in givers if way not in steps(g["sequence"]) and (key == "build" or not g["sequence"])]
            if fits:
                mutant = game.fresh()
                piles(mutant)[name][key] = [c for c in group[key] if clause_expr(c) != ONE_CARD]
                out.append(standalone(mutant, f"piles.{name}.{key} loses its one-card clause, so runs of "
                                              f"piles.{fits[0]} land on it"))
        if givers or any(one_card(group[key]) for key in ("build", "empty")):
            continue
        for other, g in piles(data).items():
            if g["role"] == "tableau" and monotone(g) == OPPOSITE[way] and one_card(g["take"]) and not refuses_all(g["take"]):
                mutant = game.fresh()
                piles(mutant)[other]["take"] = []
                piles(mutant)[other]["sequence"] = copy.deepcopy(g["build"])
                out.append(standalone(mutant, f"piles.{other} moves runs built {monotone(g)}, which land on piles.{name}"))
    return pick(rng, out)


@contextmanager
def foundation_blind_engine():
    """The engine with a fault: besides the legal moves, it offers to move any face-up top card of a pile whose group
    lets cards go onto any pile of a foundation group, whatever that group's rules say."""
    legal = Game.legal_moves
    targets: dict[int, list[int]] = {}  # by ruleset: the piles of its foundations that the check judges

    def faulty(self):
        moves = legal(self)
        offered = set(moves)
        st = self.state
        key = id(self.rules)
        if key not in targets:
            targets[key] = [p for name in verified_groups(self.rules) for p in self.rules.groups[name].piles]
        for src, pile in enumerate(st.piles):
            if not pile or len(pile) <= st.down[src] or self.group_list[self.gindex[src]].take.never:
                continue
            for dst in targets[key]:
                m = self.encode(src, dst, 1)
                if dst != src and m not in offered:
                    moves.append(m)
        return moves

    with mock.patch.object(Game, "legal_moves", faulty):
        yield


@operator("foundation-blind-engine", "check-foundation-build", plays=True)
def foundation_blind_engine_op(game: Shipped, rng):
    """An engine mutant, not a ruleset one: the game is played as shipped by an engine that, besides the legal moves,
    offers to move any available top card onto any foundation pile without asking the foundation's rules
    (`Game.legal_moves` patched). No ruleset can make a correct engine put a card on a foundation its rules refuse
    (`validate` keeps runs off them), so this is how the foundation check is tested. Only games with a foundation that
    the check judges card by card (`kallisti.model.runs.verified_groups`) and a group that gives up cards are played
    so."""
    if not live_rules(game.data, ("take",)) or not verified_groups(load_ruleset(game.path)):
        return []
    return [as_text(game.text(game.syntax), game.syntax, "as shipped, played by an engine blind to foundation rules",
                    foundation_blind_engine)]
