"""Move text (`t3 f1 2`, `d`, `l 2-4`) to moves and back, and one-line explanations of refused moves."""

from __future__ import annotations

import re

from kallisti.interpreter.compiler import RuleRuntimeError
from kallisti.model.macros import macro_wording
from kallisti.unsafe import QuotingError


class MoveRefused(QuotingError):
    """A move the rules do not allow; the message says which rule and clause refused it."""


def describe(game, m: int, exact: bool = False) -> str:
    """The command that makes exactly move m, e.g. `t3 f1`, `t3 t5 2`, `d`.

    The card count is written when it is more than one, or when one card is meant but a longer
    run could make the same trip (`t3 t5` alone would move the run); `exact` writes it whenever
    the source may move runs at all, without looking at the position (for logs).
    """
    kind, src, dst, n = game.decode(m)
    tag = game.rules.tag_of
    if kind == "deal":
        return "d" if len(game.stock_piles) == 1 else f"d {tag[src]}"
    if kind == "redeal":
        return "d" if len(game.stock_piles) == 1 else f"d {tag[src]}"
    if kind == "discard":
        _, start, length = game.window(m)
        return f"{tag[src]} {start + 1}-{start + length}" if length > 1 else f"{tag[src]} {start + 1}"
    if m >= game.reach_base:  # cards from below the top: `c1@1 f`, the place counted from the pile's bottom
        start = game.reach_window(m)[1]
        return f"{tag[src]}@{start + 1} {tag[dst]}" + (f" {n}" if n > 1 else "")
    text = f"{tag[src]} {tag[dst]}"
    if n > 1:
        text += f" {n}"
    elif game.take_max[game.gindex[src]] > 1:
        if exact or any(game.decode(o)[:3] == ("move", src, dst) and game.decode(o)[3] > 1 for o in game.legal_moves()):
            text += " 1"
    return text


def narrate(game, m: int) -> str:
    """A sentence for a move just about to be made, e.g. `7♠ from t3 to f1`."""
    kind, src, dst, n = game.decode(m)
    tag = game.rules.tag_of
    if kind == "deal":
        return f"deal from {tag[src]}"
    if kind == "redeal":
        return f"redeal {tag[src]}"
    if kind == "discard":
        _, start, length = game.window(m)
        cards = " ".join(game.deck.name(c) for c in game.state.piles[src][start:start + length])
        return f"discard {cards} from {tag[src]} to {tag[dst]}"
    pile = game.state.piles[src]
    start = game.reach_window(m)[1] if m >= game.reach_base else len(pile) - n
    cards = " ".join(game.deck.name(c) for c in pile[start:start + n])
    return f"{cards} from {tag[src]} to {tag[dst]}"


def _pile_choices(game, token: str) -> list[int]:
    """Piles a tag names: `t3` is one pile; `f` names every pile of a group."""
    rules = game.rules
    if token in rules.pile_of_tag:
        return [rules.pile_of_tag[token]]
    for g in rules.groups.values():
        if g.tag == token:
            return list(g.piles)
    tags = sorted(set(rules.pile_of_tag) | {g.tag for g in rules.groups.values()})
    raise MoveRefused(f"'{token}' names no pile; the piles are {' '.join(sorted(rules.pile_of_tag, key=_tag_order))}"
                      if tags else f"'{token}' names no pile")


def _tag_order(tag: str):
    head = tag.rstrip("0123456789")
    tail = tag[len(head):]
    return (head, int(tail) if tail else 0)


def parse_move(game, text: str) -> int:
    """The legal move that `text` names, or MoveRefused saying why it is not allowed."""
    words = text.split()
    legal = game.legal_moves()
    if not words:
        raise MoveRefused("no move given")
    if words[0] == "d":
        stocks = game.stock_piles if len(words) == 1 else _pile_choices(game, words[1])
        for m in legal:
            kind, src, _, _ = game.decode(m)
            if kind in ("deal", "redeal") and src in stocks:
                return m
        return _refuse_deal(game, stocks, legal)
    if len(words) == 2 and _WINDOW.fullmatch(words[1]):
        return _parse_discard(game, words, legal)
    if len(words) not in (2, 3):
        raise MoveRefused("a move is SRC DST [N], e.g. `t3 f1` or `t3 t5 2`")
    if "@" in words[0]:
        return _parse_reach(game, words, legal)
    sources = _pile_choices(game, words[0])
    targets = _pile_choices(game, words[1])
    count = None
    if len(words) == 3:
        if not _COUNT.fullmatch(words[2]) or int(words[2]) < 1:
            raise MoveRefused(f"'{words[2]}' is not a number of cards")
        count = int(words[2])
    # Among the legal moves the words allow, take the one moving the most cards (a whole run); of those, the
    # lowest move: from the lowest-numbered source to the lowest-numbered target that takes the cards (`t7 f`:
    # the first foundation that accepts the card), as an automatic move chooses. Never the first one listed:
    # the order of the legal moves follows the history of the game's move indexes, not the position alone.
    best = best_n = None
    for m in legal:
        kind, src, dst, n = game.decode(m)
        if kind == "move" and m < game.reach_base and src in sources and dst in targets and (count is None or n == count):
            if best is None or n > best_n or (n == best_n and m < best):
                best, best_n = m, n
    if best is not None:
        return best
    raise MoveRefused(explain(game, sources[0], targets[0] if len(targets) == 1 else _first_target(game, targets), count or 1))


# Numbers typed in a move: ASCII digits only (`str.isdigit` takes `²`, which `int` refuses) and few of them (a
# line of thousands of digits is a ValueError, not a number); no pile holds more than a few thousand cards.
_COUNT = re.compile(r"[0-9]{1,6}")
_WINDOW = re.compile(r"[0-9]{1,6}(-[0-9]{1,6})?")


def _parse_reach(game, words: list[str], legal: list[int]) -> int:
    """`c1@1 f [N]`: move the card at place 1 of c1 (counted from its bottom), with the N-1 above it, to f."""
    pile_word, _, place = words[0].partition("@")
    piles = _pile_choices(game, pile_word)
    if len(piles) != 1 or not _COUNT.fullmatch(place) or int(place) < 1:
        raise MoveRefused(f"'{words[0]}' is not a card of one pile: write the pile and the card's place from its bottom, "
                          f"e.g. `{game.rules.tag_of[piles[0]]}@1`")
    src, start = piles[0], int(place) - 1
    targets = _pile_choices(game, words[1])
    count = 1
    if len(words) == 3:
        if not _COUNT.fullmatch(words[2]) or int(words[2]) < 1:
            raise MoveRefused(f"'{words[2]}' is not a number of cards")
        count = int(words[2])
    pile, tag = game.state.piles[src], game.rules.tag_of[src]
    if start + count > len(pile):
        raise MoveRefused(f"{tag} holds {len(pile)} card{'s' if len(pile) != 1 else ''}: there are not {count} from "
                          f"place {start + 1}")
    if start < game.state.down[src]:
        raise MoveRefused(f"card {start + 1} of {tag} is face down")
    for dst in targets:
        m = game.encode_reach(src, start, count, dst)
        if m in legal:
            return m
    group = game.group_list[game.gindex[src]]
    if start + count < len(pile) and group.take_from == ("top",):
        raise MoveRefused(f"only cards from the top of {tag} may move (piles.{group.name}.take_from is top)")
    if start + count < len(pile) and not any(
            (start, count) == w for w in game._windows(group, src, max(count, game.take_max[game.gindex[src]]))):
        modes = ", ".join(group.take_from)
        raise MoveRefused(f"{_cards(game.deck, pile[start:start + count])} may not leave {tag} from there: the "
                          f"{group.name} gives cards from {modes} (piles.{group.name}.take_from)")
    dst = targets[0] if len(targets) == 1 else _first_target(game, targets)
    return _refuse_window(game, src, start, count, dst, legal)


def _refuse_window(game, src: int, start: int, n: int, dst: int, legal: list[int]) -> int:
    """Why the n cards from place `start` of src may not go to dst, by the take, build and empty rules."""
    st, deck, tag = game.state, game.deck, game.rules.tag_of
    pile = st.piles[src]
    sg, dg = game.group_list[game.gindex[src]], game.group_list[game.gindex[dst]]
    window = pile[start:start + n]
    ctx = game._window_ctx(src, start, n)
    ctx.pile, ctx.top = src, st.no_card
    refusal = _clause_refusal(sg.take, ctx, f"{_cards(deck, window)} cannot leave {tag[src]}", sg.name)
    if refusal:
        raise MoveRefused(refusal)
    ctx = game._window_ctx(src, start, n)
    target = st.piles[dst]
    ctx.pile = dst
    if target:
        ctx.top = target[-1]
        refusal = _clause_refusal(dg.build, ctx, f"{deck.name(window[0])} cannot go on {deck.name(target[-1])}", dg.name)
    else:
        ctx.top = st.no_card
        refusal = _clause_refusal(dg.empty, ctx, f"{deck.name(window[0])} cannot go to the empty {tag[dst]}", dg.name,
                                  empty=True)
    if refusal:
        raise MoveRefused(refusal)
    raise MoveRefused(_compulsory_first(game) if game.encode_reach(src, start, n, dst) in game._all_moves()
                      else "that move is not allowed now")


def _parse_discard(game, words: list[str], legal: list[int]) -> int:
    """`l 2-4`: discard the 2nd to 4th cards of pile l, counted from its bottom (the left of a line)."""
    piles = _pile_choices(game, words[0])
    if len(piles) != 1:
        raise MoveRefused(f"'{words[0]}' names several piles; name one, e.g. `{game.rules.tag_of[piles[0]]} {words[1]}`")
    p = piles[0]
    first, _, last = words[1].partition("-")
    start, end = int(first), int(last or first)
    group = game.group_list[game.gindex[p]]
    tag = game.rules.tag_of[p]
    if group.discard is None:
        raise MoveRefused(f"the {group.name} discards nothing (a move is SRC DST [N], e.g. `t3 f1`)")
    pile = game.state.piles[p]
    if not 1 <= start <= end <= len(pile):
        raise MoveRefused(f"{tag} holds {len(pile)} card{'s' if len(pile) != 1 else ''}: cards {words[1]} are not all there")
    if start <= game.state.down[p]:
        raise MoveRefused(f"card {start} of {tag} is face down")
    m = game.encode_discard(p, start - 1, end - start + 1)
    if m in legal:
        return m
    window = pile[start - 1:end]
    ctx = game.ctx
    ctx.cards, ctx.count, ctx.card, ctx.pile = window, len(window), window[0], p
    refusal = _clause_refusal(group.discard, ctx, f"{_cards(game.deck, window)} cannot be discarded", group.name)
    if refusal:
        raise MoveRefused(refusal)
    raise MoveRefused(_compulsory_first(game) if m not in legal else "that discard is not allowed now")


def _first_target(game, targets: list[int]) -> int:
    """For a whole group named as target, explain against its first non-empty pile (else its first)."""
    for t in targets:
        if game.state.piles[t]:
            return t
    return targets[0]


def _refuse_deal(game, stocks, legal) -> int:
    """Why `d` is refused: the dealing rule, a compulsory move, or the redeals, whichever apply."""
    if not stocks:
        raise MoveRefused("this game has no stock to deal from")
    s = stocks[0]
    g = game.group_list[game.gindex[s]]
    if (g.turn is not None and game.state.piles[s] and game._may_deal(s)) or game._may_redeal(s):
        raise MoveRefused(_compulsory_first(game))
    reasons = []
    if g.turn is not None and game.state.piles[s]:
        ctx = game.ctx
        ctx.pile = s
        reasons.append(_clause_refusal(g.dealing, ctx, f"{game.rules.tag_of[s]} cannot deal now", g.name))
    elif g.turn is not None:
        raise MoveRefused(f"the {g.name} is empty and {_redeal_refusal(game, s, g)}")
    reasons.append(_redeal_refusal(game, s, g))
    raise MoveRefused("; ".join(r for r in reasons if r))


def _redeal_refusal(game, s: int, g) -> str:
    if g.redeal is None or g.redeals == 0:
        return "the rules allow no redeal"
    if g.redeals > 0 and game.state.redeals[g.name] >= g.redeals:
        return "its one redeal is used" if g.redeals == 1 else f"all {g.redeals} redeals are used"
    if not any(game.state.sizes[name] for name in g.redeal.gather):
        return "there is nothing to redeal"
    when = game.rules.data["piles"][g.name].get("redeal", {}).get("when", "pile.empty")
    if " ".join(str(when).split()) == "pile.empty":
        return f"the {g.name} may be redealt only when it is empty"
    return f"the {g.name} may be redealt only when {when} (piles.{g.name}.redeal.when)"


def _compulsory_first(game) -> str:
    """Why an otherwise legal move is refused: a compulsory move applies, named with its rule."""
    forced = game.legal_moves()
    for p in game.rules.compulsory:
        for m in forced:
            if game._matches_any([p], m):
                # a pattern without words says its id (the ruleset's default): say what a compulsory move means instead
                why = p.says if p.says and p.says != p.id else "a move it names must be made when one can be"
                return f"a compulsory move comes first: {why} (compulsory.{p.id}), e.g. `{describe(game, m)}`"
    return "a compulsory move comes first"


def explain(game, src: int, dst: int, n: int) -> str:
    """Why moving n cards from src to dst is refused (or a note that it is legal)."""
    rules, st, deck = game.rules, game.state, game.deck
    tag = rules.tag_of
    pile = st.piles[src]
    sg = rules.groups[rules.group_of[src]]
    dg = rules.groups[rules.group_of[dst]]
    if src == dst:
        return "a pile cannot move onto itself"
    if not pile:
        return f"{tag[src]} is empty"
    up = len(pile) - st.down[src]
    if up <= 0:
        return f"the top card of {tag[src]} is face down"
    if n > up:
        return f"{tag[src]} has only {up} face-up card{'s' if up != 1 else ''}"
    ctx = game._move_ctx(src, n)
    ctx.pile, ctx.top = src, st.no_card
    refusal = _clause_refusal(sg.take, ctx, f"{_cards(deck, pile[-n:])} cannot leave {tag[src]}", sg.name)
    if refusal:
        return refusal
    for i in range(n - 1, 0, -1):
        ctx.card, ctx.top = pile[-i], pile[-i - 1]
        refusal = _clause_refusal(sg.sequence, ctx, f"{_cards(deck, pile[-n:])} is not a run the {sg.name} may move:"
                                  f" {deck.name(pile[-i])} on {deck.name(pile[-i - 1])}", sg.name)
        if refusal:
            return refusal
    ctx = game._move_ctx(src, n)
    card = deck.name(pile[-n])
    target = st.piles[dst]
    ctx.pile = dst
    if target:
        if len(target) <= st.down[dst]:
            return f"{card} cannot go on a face-down card"
        ctx.top = target[-1]
        refusal = _clause_refusal(dg.build, ctx, f"{card} cannot go on {deck.name(target[-1])}", dg.name)
    else:
        ctx.top = st.no_card
        refusal = _clause_refusal(dg.empty, ctx, f"{card} cannot go to the empty {tag[dst]}", dg.name, empty=True)
    if refusal:
        return refusal
    m = game.encode(src, dst, n)
    if m not in game._all_moves():
        return "that move is not allowed now"
    if m not in game.legal_moves():
        return _compulsory_first(game)
    return "that move is legal"


def _cards(deck, cards) -> str:
    return " ".join(deck.name(c) for c in cards)


def _clause_refusal(rule, ctx, subject: str, group: str, empty: bool = False) -> str | None:
    """`subject: the tableau builds down in suit (piles.tableau.build, clause same-suit)` or None."""
    try:
        clause = rule.failing(ctx)
    except RuleRuntimeError as exc:
        return f"{subject}: {exc}"
    if clause is None:
        return None
    where = f"({rule.path}, clause {clause.id})"
    if clause.macro and clause.macro not in ("none", "any"):
        wording = macro_wording(clause.macro)
        if rule.kind in ("build", "sequence") and wording:
            return f"{subject}: the {group} builds {wording} {where}"
        return f"{subject}: the {group} {clause.describe()} {where}"
    if clause.macro == "none":
        verb = {"build": "takes no cards", "empty": "takes no cards, even when empty", "take": "lets no card go",
                "sequence": "moves no runs"}[rule.kind]
        return f"{subject}: the {group} {verb} {where}"
    if clause.says:
        return f"{subject}: {said(group, clause.says)} {where}"
    return f"{subject}: the {group} {'requires' if clause.kind == 'require' else 'forbids'} `{clause.text}` {where}"


def said(group: str, says: str) -> str:
    """What a clause says, as a sentence about its group: a `says` is what the group does (`takes no Ace`: "the
    foundation takes no Ace"), unless it begins with a capital letter, when it is a sentence of its own ("Red may not go
    on red."), given without its full stop."""
    text = " ".join(says.split())
    if text[:1].isupper():
        return text.rstrip(".")
    return f"the {group} {text}"
