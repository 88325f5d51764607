"""The rule book of a compiled ruleset: its deck, piles, deal, moves, ends, hands, table and match, in prose."""

from __future__ import annotations

import re
from pathlib import Path

from kallisti.interpreter.ranknames import render
from kallisti.model.macros import expand_macro
from kallisti.rulebook.structure import Book, Item, Items, Para, Part, Section

RULE_LABELS = {"build": "builds", "empty": "a space takes", "take": "may leave", "sequence": "runs that leave together",
               "dealing": "deals only when", "discard": "discards"}
# What an empty clause list (the macro `any`) means for each kind of rule.
ANY_TEXT = {"build": "any card, on any card", "empty": "any card", "take": "any face-up cards",
            "sequence": "any face-up cards", "dealing": "always", "discard": "any window of adjacent face-up cards"}
TRIGGERS = {"each-move": "after every move", "on-request": "on request: the `a` command"}
SHUFFLES = {"always": "the pack is shuffled before each deal", "optional": "the player chooses whether to shuffle before "
            "each deal", "never": "the pack is never shuffled: each deal is the pack as it was gathered"}


def display_name(group: str) -> str:
    """What the book calls a pile group."""
    return group.replace("-", " ").replace("_", " ")


def build_book(rules) -> Book:
    """The rule book of a loaded ruleset."""
    sections = [Section("Deck", [Items(_deck_items(rules))])]
    if rules.groups:
        sections += _pile_sections(rules)
    else:
        sections.append(Section("The deal", [Items([Item(_shuffle_text(rules))])]))
    if rules.hands is not None:
        sections.append(Section("Hands", _hand_blocks(rules.hands, rules.data["hands"])))
    if rules.table is not None:
        sections.append(Section("At the table", [Items(_table_items(rules.table), wrap=True)]))
        if not rules.groups:
            money = " and takes the pot" if rules.table.stake else ""
            sections.append(Section("How to win", [Para(
                f"The best hand at the showdown wins the round{money}; a complete tie goes to the most senior player "
                "(Dealer, Elder, the others, Younger).")]))
    if rules.modifiers:
        items = []
        for m in rules.modifiers:
            sub = []
            if m.replace:
                sub.append(Item(f"the declared card is replaced by the player's choice of the next {m.replace} cards"))
            if m.patches:
                sub.append(Item(f"changes: {len(m.patches)} rule changes (see the ruleset)"))
            items.append(Item(f"{m.id}{'' if m.enabled else ' [off]'}: {m.name}; {_modifier_how(rules, m)}. {m.says}", sub))
        sections.append(Section("Modifiers", [Items(items, wrap=True)]))
    if rules.honour:
        sections.append(Section("Honour rules", [
            Para("shown at their moment of play; the player acknowledges each:", wrap=False),
            Items([Item(f"{h.id} ({h.at.replace('-', ' ')}): {h.says}") for h in rules.honour])]))
    if rules.match is not None:
        sections.append(Section("Match", [Items([Item(line) for line in _match_lines(rules.match)])]))
    for s in sections:
        s.id = s.id or _slug(s.title)
    return Book(rules.name, " ".join(rules.description.split()), [Path(s.name).name for s in rules.sources], sections)


def _pile_sections(rules) -> list[Section]:
    """Layout, the deal, foundations, play and how to win, for a game played on piles."""
    data = rules.data
    layout = [Para(f"The cards are laid out in {_count(len(rules.groups), 'group')} of piles:", wrap=False),
              Items([Item(_layout_text(name, g, rules.pile_data[name])) for name, g in rules.groups.items()])]
    deal = [Items([Item(_shuffle_text(rules))]), Para("Then the cards are dealt to the piles as the layout says.")]
    foundations = [_group_part(rules, name, g, rules.pile_data[name]) for name, g in rules.groups.items()
                   if g.role == "foundation"]
    play = [_group_part(rules, name, g, rules.pile_data[name]) for name, g in rules.groups.items() if g.role != "foundation"]
    play.append(Part("Automatic moves", "", [Items(_pattern_items(data["auto"], "the ruleset makes no move by itself",
                                                                      ranks=rules.deck.ranks))]))
    compulsory = [Para("when one of these moves can be made, only such moves are legal:", wrap=False)] if data["compulsory"] else []
    compulsory.append(Items(_pattern_items(data["compulsory"], "none: the player chooses freely among the legal moves",
                                           compulsory=True, ranks=rules.deck.ranks)))
    play.append(Part("Compulsory moves", "", compulsory))
    end = [Item(f"win: {_expr(data['win'])}")]
    for item in data["lose"]:
        end.append(Item(f"lose {item['id']}: {_expr(item['when'])}",
                        [Item(render(item["says"], rules.deck.ranks))] if item.get("says") else []))
    end.append(Item("lose: when no legal move is left and the game is not won"))
    end.append(Item(f"score: {_expr(data['score'])}"))
    words = [_win_sentence(rules)]
    words += [f"It is lost when {render(item.get('says') or '', rules.deck.ranks) or _expr(item['when'])}."
              for item in data["lose"]]
    words += ["It is lost when no legal move is left and it is not won.", _score_sentence(rules)]
    sections = [Section("Layout", layout), Section("The deal", deal)]
    if foundations:
        sections.append(Section("Foundations", foundations))
    sections += [Section("Play", play), Section("How to win", [Para(" ".join(words)), Items(end)])]
    return sections


def _layout_text(name: str, g, spec) -> str:
    n = len(g.piles)
    tags = g.tag if n == 1 else f"{g.tag}1..{g.tag}{n}"
    deal = _deal_text(g, n)
    start = "empty at the start" if deal == "no cards" else f"dealt {deal}"
    if "prefill" in spec:
        start = f"each pile starts with the first card (in dealing order) for which {_expr(spec['prefill'])}" + (
            "" if deal == "no cards" else f", then is dealt {deal}")
    return f"the {display_name(name)}: {_count(n, 'pile')} ({tags}), {start}"


def _shuffle_text(rules) -> str:
    return SHUFFLES[rules.data["deck"].get("shuffle", "always")]


_SIZE = re.compile(r"^([a-z][\w-]*)\.size$")


def _sizes(expr: str) -> list[str] | None:
    """The groups of `a.size + b.size + ...`, or None when the expression is not such a sum."""
    names = []
    for part in expr.split("+"):
        m = _SIZE.match(part.strip())
        if not m:
            return None
        names.append(m.group(1))
    return names


def _where(rules, names: list[str]) -> str:
    def one(name):
        g = rules.groups.get(name)
        if g is None:
            return f"the {display_name(name)}"
        n = len(g.piles)
        return f"the {display_name(name)} ({g.tag if n == 1 else f'{g.tag}1..{g.tag}{n}'})"

    return " and ".join(one(n) for n in names)


def _win_sentence(rules) -> str:
    """The win condition in words, when it has a common shape; otherwise the expression itself."""
    win = _expr(rules.data["win"])
    sides = [s.strip() for s in win.split("==")]
    if len(sides) == 2 and "deck.size" in sides:
        other = sides[1] if sides[0] == "deck.size" else sides[0]
        names = _sizes(other)
        if names and all(n in rules.groups for n in names):
            return f"The game is won when all {rules.deck.size} cards of the pack are on {_where(rules, names)}."
    if len(sides) == 2 and sides[1] == "0":
        names = _sizes(sides[0])
        if names and all(n in rules.groups for n in names):
            return f"The game is won when {_where(rules, names)} {'is' if len(names) == 1 else 'are'} empty: every card has been played from {'it' if len(names) == 1 else 'them'}."
    return f"The game is won when {win}."


def _score_sentence(rules) -> str:
    score = _expr(rules.data["score"])
    names = _sizes(score)
    if names and all(n in rules.groups for n in names):
        on = "on" if all(rules.groups[n].role in ("foundation", "discard") for n in names) else "in"
        return f"The score is the number of cards {on} {_where(rules, names)}."
    if score == "0":
        return "There is no score."
    return f"The score is {score}."


def _hand_blocks(h, data) -> list:
    """A `hands` section: the hand, its groupings from the highest rank down, the cripples."""
    blocks = [Para(f"A hand holds {h.size} cards, sorted into groupings, each card in at most one; hands compare by "
                   "their highest grouping, then the next, and so on. The search for the best sorting stops after "
                   f"{h.budget} steps."), Para("groupings, highest first:", wrap=False)]
    ranked = sorted((g for g in h.groupings.values() if g.rank is not None), key=lambda g: -g.rank)
    blocks.append(Items([_grouping_item(h, data, g, str(g.rank)) for g in ranked]))
    parts = [g for g in h.groupings.values() if g.rank is None]
    if parts:
        blocks += [Para("parts, ranked only within the groupings and cripples made of them:", wrap=False),
                   Items([_grouping_item(h, data, g, "") for g in parts])]
    cripples = []
    for c in h.cripples:
        name = {gid: g.name for gid, g in h.groupings.items()}
        beaten = " or ".join(name.get(b, b) for b in c.beats)
        cripples.append(Item(f"cripple {c.id}{'' if c.enabled else ' [off]'}: a hand holding a {name.get(c.by, c.by)} beats "
                             f"everybody when another hand's best grouping is a {beaten} (cripple rank {c.rank})"))
    if cripples:
        blocks.append(Items(cripples, wrap=True))
    return blocks


def _grouping_item(h, data, g, rank: str) -> Item:
    """A grouping's name, id and words, then what it takes: its cards and condition, or its parts."""
    head = f"{g.name} ({g.id}){'' if g.enabled else ' [off]'}" + (f": {g.says}" if g.says else "")
    if g.of is not None:
        part = h.groupings[g.of].name if g.of in h.groupings else g.of
        takes = f"{g.count} disjoint {part} groupings"
    else:
        lo, hi = g.sizes
        takes = f"{lo if lo == hi else f'{lo} to {hi}'} cards, when {_expr(data['groupings'][g.id]['when'])}"
    return Item(head, [Item(takes)], rank=rank)


def _table_items(t) -> list[Item]:
    """A round at the table in words: seats and roles, the deals, the draw, the showdown."""
    passes = "; then ".join(f"the dealer takes {d} and deals each other player {o}" for d, o in t.passes)
    lines = [f"{t.seats[0]} to {t.seats[1]} players; the Elder sits on the dealer's left, the Younger on the dealer's right",
             f"the deal, face down: {passes}"]
    if t.draw_most:
        lines.append(f"the draw, from the Elder round to the Younger, then the dealer: exchange up to {t.draw_most} cards"
                     + (", or fold by discarding the whole hand (never the dealer)" if t.may_fold else ""))
    if t.second:
        faces = {True: "face up", False: "face down"}
        lines.append(f"then {t.second} more cards each: {faces[t.second_up[0]]} to the dealer, {faces[t.second_up[1]]} to the others")
    lines.append("special cards are declared in a round of their own before any hand is laid down, the most senior player "
                 "asked first" if t.declarations == "round" else
                 "the hands are laid down from the Elder round to the dealer, each player declaring hir special cards when "
                 "hir turn comes")
    lines.append({"always": "a hand is judged in its best arrangement under the modifiers in play",
                  "once": "a hand laid down keeps its arrangement, but is arranged again once after the first modifier "
                          "that changes its rules",
                  "never": "a hand laid down keeps its arrangement, judged as it lies"}[t.reform])
    lines.append("showdown: the best hand wins; a complete tie goes to the most senior (Dealer, Elder, the others, Younger); "
                 "the winner deals the next round")
    if t.stake:
        lines.append(f"money: each player starts with {t.chips} chips and stakes {t.stake} each round; the winner takes the "
                     "pot; a player who cannot cover the stake sits the round out, a dealer who cannot passes the deal on")
        if t.betting:
            parts = ", ".join("with raises" if r else "without raises" for r in t.betting)
            lines.append(f"betting after the draw, {len(t.betting)} parts ({parts}): the dealer names an amount; each "
                         f"other player matches or folds, and may raise the dealer by up to {t.max_bet}; the dealer covers "
                         "the raises or folds; a dealer "
                         "who folds puts the dealership up for auction, a stake a bid; if nobody bids, all fold and the pot "
                         "is the next round's ante")
        if t.buy:
            lines.append(f"in the second deal each player but the dealer may buy up to {t.buy} cards face down, a stake each")
        if t.extra_bets:
            lines.append(f"each player but the dealer, on receiving hir second cards, lays an extra bet of up to "
                         f"{t.max_bet}; the dealer then matches them all, folds (the dealership is then auctioned), or "
                         "passes the dealership left to the first player who matches the others' (full circle: all fold, "
                         "the pot is the next ante)")
        if t.last_betting:
            lines.append(f"then {len(t.last_betting)} last parts of betting, as before")
    else:
        lines.append("no money: rounds are played for the showdown alone")
    return [Item(line) for line in lines]


def _match_lines(m) -> list[str]:
    """A match's rules in words."""
    lines = [f"{m.seats} players take turns, each turn one deal; its score is added to the player's total",
             f"{'each player keeps hir own pack' if m.pack == 'per-seat' else 'one pack serves every player'}",
             f"totals start at {m.start_score}; a total that reaches {m.loses_at} loses"]
    if m.last_turns != "none":
        both = {"higher-loses": "the higher total loses", "first-loses": "the first to reach it loses",
                "draw": "the match is drawn"}[m.both_over]
        last = ("the round is finished first, so every player has as many turns" if m.last_turns == "round" else
                "every other player still takes one more turn, wherever the round stands")
        lines.append(f"{last}; if several totals reach it, {both}")
    lines.append(f"at most {m.max_turns} turns; then the higher total loses")
    if m.changes or m.revoke:
        what = [f"change {_count(m.changes, 'rule')} for the player who has just played"] if m.changes else []
        if m.revoke:
            what.append("revoke a change that player imposed on hir")
        lines.append("after each turn the next player (Player X) may " + ", or instead ".join(what))
    return lines


def _card_name(rules, kind: int) -> str:
    rank, suit = kind % len(rules.deck.ranks), kind // len(rules.deck.ranks)
    return f"{rules.deck.ranks[rank]} of {rules.deck.suits[suit].name}"


def _modifier_how(rules, m) -> str:
    """When a modifier comes into play, to whom it applies, and what may keep it out, in words."""
    if m.trigger == "declare":
        how = (f"declared as soon as the {_card_name(rules, m.declare)} is dealt to its holder" if m.must
               else f"declared by the holder of the {_card_name(rules, m.declare)} at the showdown"
               + (", before the first hand is laid down" if m.opening else ""))
    elif m.trigger == "visible":
        how = f"in play when the {_card_name(rules, m.visible)} lies face up"
    elif m.trigger == "always":
        how = "in play in every round"
    else:
        how = "in play in the round after a showdown at which a null card was played"
    if m.needs:
        how += f", while {' and '.join(m.needs)} {'is' if len(m.needs) == 1 else 'are'} in play"
    if m.unless:
        how += f", unless {' or '.join(m.unless)} is in play"
    if m.not_by:
        how += f"; not by a player who declared {' or '.join(m.not_by)}"
    if m.to != "all":
        how += {"declarer": "; for the declarer's hand only", "others": "; for every other player's hand"}.get(
            m.to, f"; for the hand of the player who declared {m.to}")
    if m.compel is not None:
        how += f"; the holder of the {_card_name(rules, m.compel)} must show it"
    return how


def _deck_items(rules) -> list[Item]:
    deck, spec = rules.deck, rules.data["deck"]
    packs = spec["packs"]
    lines = []
    if isinstance(packs, int):
        per = deck.size // packs if packs else deck.size
        lines.append(f"{_count(packs, 'pack')} of {per} cards: {deck.size} cards")
    else:
        parts = [f"{p.get('name', f'pack {i + 1}')} ({' '.join(p['suits'])})" for i, p in enumerate(packs)]
        lines.append(f"{_count(len(packs), 'pack')}: {'; '.join(parts)}: {deck.size} cards")
    lines.append(f"ranks, low to high: {' '.join(deck.ranks)} (first {deck.ranks[0]}, last {deck.ranks[-1]})")
    lines.append("suits: " + ", ".join(f"{s.name} {s.symbol} {s.letter} ({s.color})" for s in deck.suits))
    values = spec.get("values") or {}
    if values:
        lines.append("values: " + ", ".join(f"{r} = {' or '.join(map(str, v)) if isinstance(v, list) else v}" for r, v in values.items()))
    for mark, cards in (spec.get("marks") or {}).items():
        lines.append(f"marked {mark}: " + " ".join(f"{c['rank']}{c['suit']}" for c in cards))
    if spec.get("wild"):
        lines.append("wild: " + " ".join(f"{c['rank']}{c['suit']}" for c in spec["wild"]))
    return [Item(line) for line in lines]


def _group_part(rules, name: str, g, spec) -> Part:
    """One pile group: its piles, deal, face-down cards, rules (clause by clause) and dealing from it."""
    n = len(g.piles)
    tags = g.tag if n == 1 else f"{g.tag}1..{g.tag}{n}"
    lines = []
    if "prefill" in spec:
        lines.append(f"before the deal: each pile gets the first card (in dealing order) for which {_expr(spec['prefill'])}")
    lines.append(f"deal: {_deal_text(g, n)}")
    if g.divert is not None:
        lines.append(f"while cards are dealt here: a card for which {_expr(spec['divert']['when'])} goes to a pile of the "
                     f"{g.divert.to} that takes it, and the next card is dealt in its place")
    if g.top_face_up:
        lines.append("only the top card of each pile lies face up: a hand turned one card at a time")
    elif isinstance(g.deal, list) and any("down" in row or "d" in row.split() for row in g.deal):
        lines.append("face-down cards: " + ("the top one is turned up when it is uncovered" if g.flip
                                            else "stay face down when uncovered"))
    if "reveal" in spec:
        lines.append(f"the player may look at the {_expr(spec['reveal'])} face-down cards under a pile's top")
    if g.refill is not None:
        lines.append(f"a pile emptied here at once gets {_count(g.refill['count'], 'card')} from the {g.refill['from']}")
    for key in ("build", "empty", "take", "sequence"):
        clauses = spec[key]
        if key == "sequence" and not clauses and _take_max(rules, name) <= 1:
            continue  # nothing moves in runs, so no rule for runs applies
        lines += _rule_lines(RULE_LABELS[key], key, clauses, rules.deck.ranks)
    if g.take_from != ("top",) and not g.take.never:
        lines.append(f"cards may leave from below the top: {take_from_words(g.take_from)}, as the rule for what leaves "
                     f"allows; the cards above close up (play `{rules.tag_of[g.piles[0]]}@1 ...` for a pile's first card)")
    if g.discard is not None:
        lines.append(f"windows of adjacent face-up cards, anywhere in a pile, go to the {g.discard_to} when the rule "
                     "allows; the cards after them close up")
        lines += _rule_lines(RULE_LABELS["discard"], "discard", spec["discard"], rules.deck.ranks)
    if g.turn is not None:
        lines.append(f"deals: {_turn_text(rules, g.turn)}")
        if spec["dealing"]:
            lines += _rule_lines(RULE_LABELS["dealing"], "dealing", spec["dealing"], rules.deck.ranks)
    if g.turn is not None or g.redeal is not None:
        lines.append(f"redeals: {_redeal_text(rules, g, spec)}")
    return Part(display_name(name), f"{_count(n, 'pile')}, tagged {tags} (role {g.role})", [Items([Item(x) for x in lines])])


_TAKE_FROM_WORDS = {"top": "a run ending at the top", "bottom": "the bottom card (the first dealt)",
                    "any": "any one face-up card", "runs": "any run of adjacent face-up cards"}


def take_from_words(modes) -> str:
    """A group's `take_from` in words: `a run ending at the top or the bottom card (the first dealt)`."""
    words = [_TAKE_FROM_WORDS[m] for m in modes]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _deal_text(g, n: int) -> str:
    from kallisti.interpreter.state import row_faces

    if g.deal == "rest":
        return "the rest of the pack, face down"
    rows = list(g.deal)
    if not rows:
        return "no cards"
    if any(row not in ("up", "down") for row in rows):
        # Rows that skip piles or mix faces: say each one, pile by pile.
        cards = sum(1 for row in rows for face in row_faces(g, row) if face)
        parts = [" ".join({"u": "up", "d": "down", ".": "-"}[x] for x in row.split()) if row not in ("up", "down")
                 else f"all {row}" for row in rows]
        return f"{_count(len(rows), 'row')}, pile by pile: " + "; ".join(parts) + f" ({cards} cards; the first row at the bottom)"
    runs: list[list] = []
    for row in rows:
        if runs and runs[-1][0] == row:
            runs[-1][1] += 1
        else:
            runs.append([row, 1])
    faces = {"up": "face up", "down": "face down"}
    if len(runs) == 1:
        how = f"{_count(len(rows), 'row')}, {'all ' if len(rows) > 1 else ''}{faces[runs[0][0]]}"
    else:
        how = f"{_count(len(rows), 'row')}: " + ", then ".join(f"{k} {faces[r]}" for r, k in runs)
    return f"{how} ({_count(len(rows) * n, 'card')}; the first row at the bottom)"


def _turn_text(rules, turn) -> str:
    target = rules.groups[turn["to"]]
    where = f"the {turn['to']} ({target.tag if len(target.piles) == 1 else f'{target.tag}1..{target.tag}{len(target.piles)}'})"
    if turn.get("each"):
        return f"`d` deals {_count(turn.get('count', 1), 'card')} to each pile of {where}"
    count = turn.get("count", 1)
    return f"`d` turns {_count(count, 'card')} at a time onto {where}"


def _redeal_text(rules, g, spec) -> str:
    if g.redeals == 0 or g.redeal is None:
        return "none"
    r = g.redeal
    times = "unlimited" if g.redeals < 0 else str(g.redeals)
    when = _expr(spec.get("redeal", {}).get("when", "pile.empty"))
    when = f"when the {g.name} is empty" if when == "pile.empty" else f"when {when} (pile: the {g.name})"
    what = f"gathers the {' and the '.join(r.gather)}, pile by pile, turned over onto the {g.name}"
    if r.shuffle:
        what += ", shuffled"
    if r.deal:
        what += f", then deals the {' and the '.join(r.deal)} again as at the start"
    return f"{times} ({when}, `d` {what})"


def _take_max(rules, name: str) -> int:
    return rules.move_tables()[2][list(rules.groups).index(name)]


def _rule_lines(label: str, key: str, clauses, ranks=()) -> list[str]:
    """One line per macro phrase (its clause ids after it) or per clause written out (its `says` in the words of the
    deck's `ranks`)."""
    if not clauses:
        return [f"{label}: {ANY_TEXT[key]}"]
    lines = []
    i = 0
    while i < len(clauses):
        macro = clauses[i].get("macro")
        j = i + 1
        while macro and j < len(clauses) and clauses[j].get("macro") == macro:
            j += 1
        group = clauses[i:j]
        if macro and _is_whole_macro(macro, group):
            ids = ", ".join(c["id"] for c in group)
            lines.append(f"{label}: {macro} ({'clauses' if len(group) > 1 else 'clause'} {ids})")
        else:
            for c in group:
                lines.append(f"{label}: {_clause_text(c, ranks)}")
        i = j
    return lines


def _is_whole_macro(phrase: str, group) -> bool:
    """Whether the clauses are exactly what the phrase stands for (a change may have removed or replaced one)."""
    expected = expand_macro(phrase)
    if expected is None or len(expected) != len(group):
        return False
    for (cid, kind, expr, _), c in zip(expected, group):
        if c.get("id") != cid or kind not in c or str(c[kind]) != expr:
            return False
    return True


def _clause_text(c, ranks=()) -> str:
    kind = "require" if "require" in c else "forbid"
    text = f"{kind} {c['id']}: {_expr(c[kind])}"
    if c.get("says"):
        text += f" ({render(str(c['says']), ranks)})"
    if c.get("macro"):
        text += f" [from \"{c['macro']}\"]"
    return text


def _pattern_items(items, none: str, compulsory: bool = False, ranks=()) -> list[Item]:
    if not items:
        return [Item(none)]
    out = []
    for item in items:
        kind = item.get("kind", "move")
        srcs = _names(item.get("from", "any"))
        what = {"move": f"a move from {srcs} to {_names(item.get('to', 'any'))}", "deal": f"a deal from {srcs}",
                "redeal": f"a redeal of {srcs}", "discard": f"a discard from {srcs}"}[kind]
        when = f", when {_expr(item['when'])}" if "when" in item else ""
        trigger = "" if compulsory else f" ({TRIGGERS[item.get('trigger', 'each-move')]})"
        says = [Item(render(str(item["says"]), ranks))] if item.get("says") else []
        out.append(Item(f"{item['id']}{trigger}: {what}{when}", says))
    return out


def _names(value) -> str:
    names = [value] if isinstance(value, str) else list(value)
    return "any pile" if not names or "any" in names else " or ".join(names)


def _expr(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return " ".join(str(value).split())


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def first_sentence(text: str) -> str:
    """The first sentence of a description (all of it when it has no full stop)."""
    text = " ".join(text.split())
    m = re.match(r"(.+?[.!?])(?:\s|$)", text)
    return m.group(1) if m else text
