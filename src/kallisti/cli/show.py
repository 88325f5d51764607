"""`kallisti show`: a ruleset's rules as readable text, generated from the compiled model so it cannot drift."""

from __future__ import annotations

import json
import textwrap
from enum import Enum
from pathlib import Path

import typer

from kallisti.errors import KallistiError
from kallisti.model.macros import expand_macro

WIDTH = 78
RULE_LABELS = {"build": "builds", "empty": "a space takes", "take": "may leave", "sequence": "runs that leave together",
               "dealing": "deals only when", "discard": "discards"}
# What an empty clause list (the macro `any`) means for each kind of rule.
ANY_TEXT = {"build": "any card, on any card", "empty": "any card", "take": "any face-up cards",
            "sequence": "any face-up cards", "dealing": "always", "discard": "any window of adjacent face-up cards"}
TRIGGERS = {"each-move": "after every move", "on-request": "on request: the `a` command"}


class Format(str, Enum):
    text = "text"
    json = "json"


def show(
    game: str = typer.Argument(..., metavar="GAME|FILE", help="A shipped game's name (see `kallisti list`) or a ruleset file."),
    format: Format = typer.Option(Format.text, "--format", help="text: the rules for a player; json: the resolved ruleset as plain data."),
) -> None:
    """Print a game's rules, generated from the ruleset itself: deck, piles, moves, end and score.

    Every rule clause is listed with its id, the name a rule change uses to point at it.
    Exit codes: 0 shown, 1 the game or file is not a valid ruleset, 2 usage error.
    """
    from kallisti.model.ruleset import load_ruleset

    try:
        rules = load_ruleset(game)
    except KallistiError as exc:
        for finding in exc.findings:
            typer.echo(str(finding), err=True)
        raise typer.Exit(1)
    for finding in rules.findings:
        typer.echo(str(finding), err=True)
    if format == Format.json:
        typer.echo(json.dumps(rules.plain(), indent=2, ensure_ascii=False))
    else:
        typer.echo(rules_text(rules))


# -- the rules as text ---------------------------------------------------------------------
def rules_text(rules) -> str:
    """The whole ruleset as text: title, description, deck, pile groups, automatic and compulsory moves, end, score."""
    data = rules.data
    out: list[str] = [rules.name, "=" * len(rules.name)]
    if rules.description.strip():
        out += textwrap.wrap(" ".join(rules.description.split()), WIDTH)
    if rules.sources:
        out.append(f"Ruleset files: {', '.join(Path(s.name).name for s in rules.sources)}")
    out += ["", "Deck", "----"] + _deck_lines(rules)
    if rules.groups:
        out += _play_lines(rules)
    if rules.hands is not None:
        out += ["", "Hands", "-----"] + _hand_lines(rules.hands, rules.data["hands"])
    if rules.table is not None:
        out += ["", "At the table", "------------"] + _table_lines(rules.table)
    if rules.modifiers:
        out += ["", "Modifiers", "---------"]
        for m in rules.modifiers:
            out += textwrap.wrap(f"{m.id}{'' if m.enabled else ' [off]'}: {m.name}; {_modifier_how(rules, m)}. {m.says}",
                                 WIDTH, subsequent_indent="  ")
            if m.replace:
                out += [f"  the declared card is replaced by the player's choice of the next {m.replace} cards"]
            if m.patches:
                out += [f"  changes: {len(m.patches)} rule changes (see the ruleset)"]
    if rules.honour:
        out += ["", "Honour rules", "------------", "shown at their moment of play; the player acknowledges each:"]
        out += [f"{h.id} ({h.at.replace('-', ' ')}): {h.says}" for h in rules.honour]
    if rules.match is not None:
        out += ["", "Match", "-----"] + _match_lines(rules.match)
    return "\n".join(out)


def _play_lines(rules) -> list[str]:
    """The game played on piles: pile groups, automatic and compulsory moves, end and score."""
    data = rules.data
    out = ["", "Piles", "-----"]
    for name, g in rules.groups.items():
        out += _group_lines(rules, name, g, rules.pile_data[name])
    out += ["", "Automatic moves", "---------------"] + _pattern_lines(data["auto"], "the ruleset makes no move by itself")
    out += ["", "Compulsory moves", "----------------"]
    if data["compulsory"]:
        out.append("when one of these moves can be made, only such moves are legal:")
    out += _pattern_lines(data["compulsory"], "none: the player chooses freely among the legal moves", compulsory=True)
    out += ["", "End and score", "-------------"]
    out.append(f"win: {_expr(data['win'])}")
    for item in data["lose"]:
        out.append(f"lose {item['id']}: {_expr(item['when'])}")
        if item.get("says"):
            out.append(f"  {item['says']}")
    out.append("lose: when no legal move is left and the game is not won")
    out.append(f"score: {_expr(data['score'])}")
    return out


def _hand_lines(h, data) -> list[str]:
    """A `hands` section in words: the hand, its groupings from the highest rank down, the cripples."""
    lines = textwrap.wrap(f"A hand holds {h.size} cards, sorted into groupings, each card in at most one; hands compare by "
                          "their highest grouping, then the next, and so on. The search for the best sorting stops after "
                          f"{h.budget} steps.", WIDTH)
    ranked = sorted((g for g in h.groupings.values() if g.rank is not None), key=lambda g: -g.rank)
    lines.append("groupings, highest first:")
    for g in ranked:
        lines += _grouping_lines(h, data, g, f"{g.rank:>5}  ")
    parts = [g for g in h.groupings.values() if g.rank is None]
    if parts:
        lines.append("parts, ranked only within the groupings and cripples made of them:")
        for g in parts:
            lines += _grouping_lines(h, data, g, " " * 7)
    for c in h.cripples:
        name = {gid: g.name for gid, g in h.groupings.items()}
        beaten = " or ".join(name.get(b, b) for b in c.beats)
        lines += textwrap.wrap(f"cripple {c.id}{'' if c.enabled else ' [off]'}: a hand holding a {name.get(c.by, c.by)} beats "
                               f"everybody when another hand's best grouping is a {beaten} (cripple rank {c.rank})", WIDTH,
                               subsequent_indent="  ")
    return lines


def _table_lines(t) -> list[str]:
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
    lines.append("showdown: the best hand wins; a complete tie goes to the most senior (Dealer, Elder, the others, Younger); "
                 "the winner deals the next round")
    if t.stake:
        lines.append(f"money: each player starts with {t.chips} chips and stakes {t.stake} each round; the winner takes the "
                     "pot; a player who cannot cover the stake sits the round out, a dealer who cannot passes the deal on")
        if t.betting:
            parts = ", ".join("with raises" if r else "without raises" for r in t.betting)
            lines.append(f"betting after the draw, {len(t.betting)} parts ({parts}): the dealer names up to {t.max_bet}; each "
                         "other player matches or folds, and may raise the dealer, who covers the raises or folds; a dealer "
                         "who folds puts the dealership up for auction, a stake a bid; if nobody bids, all fold and the pot "
                         "is the next round's ante")
        if t.buy:
            lines.append(f"in the second deal each player but the dealer may buy up to {t.buy} cards face down, a stake each")
        if t.extra_bets:
            lines.append("then each player but the dealer lays an extra bet; the dealer matches them all or passes the "
                         "dealership left to the first player who matches the others' (full circle: all fold, the pot is the "
                         "next ante)")
        if t.last_betting:
            lines.append(f"then {len(t.last_betting)} last parts of betting, as before")
    else:
        lines.append("no money: rounds are played for the showdown alone")
    return [w for line in lines for w in textwrap.wrap(line, WIDTH, subsequent_indent="  ")]


def _grouping_lines(h, data, g, lead: str) -> list[str]:
    """A grouping's name, id and words, then what it takes: its cards and condition, or its parts."""
    head = f"{lead}{g.name} ({g.id}){'' if g.enabled else ' [off]'}" + (f": {g.says}" if g.says else "")
    if g.of is not None:
        part = h.groupings[g.of].name if g.of in h.groupings else g.of
        takes = f"{g.count} disjoint {part} groupings"
    else:
        lo, hi = g.sizes
        takes = f"{lo if lo == hi else f'{lo} to {hi}'} cards, when {_expr(data['groupings'][g.id]['when'])}"
    return [head, " " * len(lead) + "  " + takes]



SHUFFLES = {"always": "the pack is shuffled before each deal", "optional": "the player chooses whether to shuffle before "
            "each deal", "never": "the pack is never shuffled: each deal is the pack as it was gathered"}


def _match_lines(m) -> list[str]:
    """A match's rules in words."""
    lines = [f"{m.seats} players take turns, each turn one deal; its score is added to the player's total",
             f"{'each player keeps hir own pack' if m.pack == 'per-seat' else 'one pack serves every player'}",
             f"totals start at {m.start_score}; a total that reaches {m.loses_at} loses"]
    if m.equal_turns:
        both = {"higher-loses": "the higher total loses", "first-loses": "the first to reach it loses",
                "draw": "the match is drawn"}[m.both_over]
        lines.append(f"the round is finished first, so every player has as many turns; if several totals reach it, {both}")
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
               else f"declared by the holder of the {_card_name(rules, m.declare)} just before the showdown")
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


def _deck_lines(rules) -> list[str]:
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
    if spec.get("shuffle", "always") != "always" or rules.match is not None:
        lines.append(SHUFFLES[spec.get("shuffle", "always")])
    values = spec.get("values") or {}
    if values:
        lines.append("values: " + ", ".join(f"{r} = {' or '.join(map(str, v)) if isinstance(v, list) else v}" for r, v in values.items()))
    for mark, cards in (spec.get("marks") or {}).items():
        lines.append(f"marked {mark}: " + " ".join(f"{c['rank']}{c['suit']}" for c in cards))
    if spec.get("wild"):
        lines.append("wild: " + " ".join(f"{c['rank']}{c['suit']}" for c in spec["wild"]))
    return lines


def _group_lines(rules, name: str, g, spec) -> list[str]:
    n = len(g.piles)
    tags = g.tag if n == 1 else f"{g.tag}1..{g.tag}{n}"
    lines = ["", f"{name}: {_count(n, 'pile')}, tagged {tags} (role {g.role})"]
    if "prefill" in spec:
        lines.append(f"  before the deal: each pile gets the first card (in dealing order) for which {_expr(spec['prefill'])}")
    lines.append(f"  deal: {_deal_text(g, n)}")
    if g.divert is not None:
        lines.append(f"  while cards are dealt here: a card for which {_expr(spec['divert']['when'])} goes to a pile of the "
                     f"{g.divert.to} that takes it, and the next card is dealt in its place")
    if g.top_face_up:
        lines.append("  only the top card of each pile lies face up: a hand turned one card at a time")
    elif isinstance(g.deal, list) and any("down" in row or "d" in row.split() for row in g.deal):
        lines.append("  face-down cards: " + ("the top one is turned up when it is uncovered" if g.flip
                                              else "stay face down when uncovered"))
    if "reveal" in spec:
        lines.append(f"  the player may look at the {_expr(spec['reveal'])} face-down cards under a pile's top")
    if g.refill is not None:
        lines.append(f"  a pile emptied here at once gets {_count(g.refill['count'], 'card')} from the {g.refill['from']}")
    for key in ("build", "empty", "take", "sequence"):
        clauses = spec[key]
        if key == "sequence" and not clauses and _take_max(rules, name) <= 1:
            continue  # nothing moves in runs, so no rule for runs applies
        lines += _rule_lines(RULE_LABELS[key], key, clauses)
    if g.discard is not None:
        lines.append(f"  windows of adjacent face-up cards, anywhere in a pile, go to the {g.discard_to} when the rule "
                     "allows; the cards after them close up")
        lines += _rule_lines(RULE_LABELS["discard"], "discard", spec["discard"])
    if g.turn is not None:
        lines.append(f"  deals: {_turn_text(rules, g.turn)}")
        if spec["dealing"]:
            lines += _rule_lines(RULE_LABELS["dealing"], "dealing", spec["dealing"])
    if g.turn is not None or g.redeal is not None:
        lines.append(f"  redeals: {_redeal_text(rules, g, spec)}")
    return lines


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
    return f"{how} ({len(rows) * n} cards; the first row at the bottom)"


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


def _rule_lines(label: str, key: str, clauses) -> list[str]:
    """One line per macro phrase (its clause ids after it) or per clause written out."""
    if not clauses:
        return [f"  {label}: {ANY_TEXT[key]}"]
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
            lines.append(f"  {label}: {macro} ({'clauses' if len(group) > 1 else 'clause'} {ids})")
        else:
            for c in group:
                lines.append(f"  {label}: {_clause_text(c)}")
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


def _clause_text(c) -> str:
    kind = "require" if "require" in c else "forbid"
    text = f"{kind} {c['id']}: {_expr(c[kind])}"
    if c.get("says"):
        text += f" ({c['says']})"
    if c.get("macro"):
        text += f" [from \"{c['macro']}\"]"
    return text


def _pattern_lines(items, none: str, compulsory: bool = False) -> list[str]:
    if not items:
        return [none]
    lines = []
    for item in items:
        kind = item.get("kind", "move")
        srcs = _names(item.get("from", "any"))
        what = {"move": f"a move from {srcs} to {_names(item.get('to', 'any'))}", "deal": f"a deal from {srcs}",
                "redeal": f"a redeal of {srcs}", "discard": f"a discard from {srcs}"}[kind]
        when = f", when {_expr(item['when'])}" if "when" in item else ""
        trigger = "" if compulsory else f" ({TRIGGERS[item.get('trigger', 'each-move')]})"
        lines.append(f"{item['id']}{trigger}: {what}{when}")
        if item.get("says"):
            lines.append(f"  {item['says']}")
    return lines


def _names(value) -> str:
    names = [value] if isinstance(value, str) else list(value)
    return "any pile" if not names or "any" in names else " or ".join(names)


def _expr(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return " ".join(str(value).split())


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"
