"""`kallisti hand`: sort hands into their best groupings, and with several hands, say who wins the showdown."""

from __future__ import annotations

import json
from enum import Enum

import typer

from kallisti.errors import KallistiError, Pos, error


class Format(str, Enum):
    text = "text"
    json = "json"


def hand(
    game: str = typer.Argument(..., metavar="GAME|FILE", help="A ruleset with a `hands` section, e.g. onion."),
    hands: list[str] = typer.Argument(..., metavar="HAND...",
                                      help='A hand as card names, rank then suit: "2C 2D 3S 4H 4C 6H 7C KS KD AS". '
                                           "Give several hands for a showdown, the most senior first."),
    format: Format = typer.Option(Format.text, "--format", help="text for a person, json for a program."),
    budget: int = typer.Option(None, "--budget", metavar="STEPS", min=1, help="Most search steps per hand (default: the ruleset's hands.budget)."),
    modifier: list[str] = typer.Option([], "--modifier", "-m", metavar="ID",
                                       help="Judge the hands with this modifier in play for every hand (repeatable); "
                                            "the modifiers in play in every round come in as at the table."),
) -> None:
    """Print the best partition of each hand into the game's groupings, and its ranking.

    With two or more hands, also the showdown: the winning hand (crippling included); on a
    complete tie every tied hand is named, and the most senior (the first given) wins.
    Exit codes: 0 done, 1 the ruleset is invalid or a hand is not a hand of its deck, 2 usage error.
    """
    from kallisti.interpreter.hands import HandEvaluator, parse_hands
    from kallisti.model.ruleset import load_ruleset

    try:
        rules = load_ruleset(game)
        if rules.hands is None:
            raise error("no-hands", f"{rules.name} declares no `hands` section, so it scores no hands", Pos(game))
        rules = _with_modifiers(rules, modifier)
        cards = parse_hands(rules.deck, hands)
        for n, (text, parsed) in enumerate(zip(hands, cards), start=1):
            if len(parsed) != rules.hands.size:
                raise error("hand-size", f"'{text}' holds {len(parsed)} cards; a hand of {rules.name} holds {rules.hands.size}",
                            Pos(f"<hand {n}>", 1, 1))
    except KallistiError as exc:
        for finding in exc.findings:
            typer.echo(str(finding), err=True)
        raise typer.Exit(1)
    evaluator = HandEvaluator(rules)
    budget = rules.hands.budget if budget is None else budget
    results = [evaluator.evaluate(c, budget) for c in cards]
    winners = evaluator.showdown(results) if len(results) > 1 else []
    deck = rules.deck
    if format == Format.json:
        out = {"game": rules.name, "budget": budget, "hands": [_hand_data(deck, r) for r in results]}
        if winners:
            out["winners"] = winners
            out["cripples"] = [evaluator.cripple_rank(r, results[:i] + results[i + 1:]) is not None
                                  for i, r in enumerate(results)]
        typer.echo(json.dumps(out, indent=2, ensure_ascii=False))
        return
    for i, r in enumerate(results):
        if i:
            typer.echo("")
        typer.echo(_hand_text(rules, r, f"hand {i + 1}: " if len(results) > 1 else "", budget))
    if winners:
        names = ", ".join(f"hand {i + 1}" for i in winners)
        crippler = evaluator.crippler(results[winners[0]], [r for i, r in enumerate(results) if i != winners[0]])
        how = f", by the cripple {crippler.id}" + (f" ({crippler.says})" if crippler.says else "") if crippler else ""
        if len(winners) == 1:
            typer.echo(f"\nwinner: {names}{how}")
        else:
            typer.echo(f"\ncomplete tie between {names}: the most senior, hand {winners[0] + 1}, wins")


def _with_modifiers(rules, ids: list[str]):
    """The rules with the named modifiers in play, and then those in play in every round whose conditions hold (as a
    round brings them in); an unknown or switched-off id is an error naming the modifiers there are."""
    from kallisti.errors import did_you_mean
    from kallisti.model.modifiers import overlaid

    known = {m.id: m for m in rules.modifiers}
    for n, mid in enumerate(ids, start=1):
        if mid not in known or not known[mid].enabled:
            raise error("unknown-modifier", f"{rules.name} has no modifier '{mid}' in the game", Pos(f"<modifier {n}>", 1, 1),
                        suggestion=did_you_mean(mid, [m for m in known if known[m].enabled]))
    in_play = list(dict.fromkeys(ids))
    for m in rules.modifiers:
        if m.enabled and m.trigger == "always" and m.id not in in_play and all(x in in_play for x in m.needs) \
                and not any(x in in_play for x in m.unless):
            in_play.append(m.id)
    return overlaid(rules, [m.id for m in rules.modifiers if m.id in in_play])


def _hand_text(rules, r, label: str, budget: int) -> str:
    deck = rules.deck
    lines = [label + " ".join(deck.name(c) for c in r.cards)]
    width = max((len(g.name) for g in r.groups), default=6)
    width = max(width, 6)
    for g in r.groups:
        extra = "".join(f", {n} {what}" for n, what in ((g.nulls, "null"), (g.wild, "wild")) if n)
        lines.append(f"  {g.name:<{width}}  {' '.join(deck.name(c) for c in g.cards):<32} rank {g.rank}{extra}")
    if r.unused:
        lines.append(f"  {'unused':<{width}}  {' '.join(deck.name(c) for c in r.unused)}")
    for card, stand_in in r.stand_ins:
        values = " or ".join(str(v) for v in deck.values[stand_in])
        lines.append(f"  {deck.name(card)} counts as {deck.ranks[deck.rank[stand_in]]} of value {values}")
    devalue = {d.id: d for d in rules.hands.devalue}
    for card, did in r.wild_devalued:
        d = devalue[did]
        ranks = sorted({k % len(deck.ranks) for k in d.kinds})
        lines.append(f"  {deck.name(card)} is wild, but stands for {' '.join(deck.ranks[k] for k in ranks)} only with value "
                     f"{' or '.join(map(str, d.to))} (hands.devalue.{did})")
    lines.append("  ranking: " + (", ".join(g.name for g in r.groups) or "no grouping"))
    if not r.complete:
        from kallisti.interpreter.hands import MAX_STAND_INS

        if r.steps > budget:
            why = f"the search spent its budget of {budget} steps"
        else:  # the budget held, but some set's wild cards had more ways of standing in than are tried
            why = f"the search tried at most {MAX_STAND_INS:,} ways of standing in for a set's wild cards"
        lines.append(f"  {why} ({r.steps} steps taken): a better partition may exist")
    return "\n".join(lines)


def _hand_data(deck, r) -> dict:
    return {
        "cards": [deck.ascii_name(c) for c in r.cards],
        "groupings": [{"id": g.id, "name": g.name, "rank": g.rank, "cards": [deck.ascii_name(c) for c in g.cards],
                       "nulls": g.nulls, "wild": g.wild} for g in r.groups],
        "counted_as": [{"card": deck.ascii_name(c), "rank": deck.ranks[deck.rank[s]], "values": list(deck.values[s])}
                       for c, s in r.stand_ins],
        "wild_devalued": [{"card": deck.ascii_name(c), "devalue": did} for c, did in r.wild_devalued],
        "unused": [deck.ascii_name(c) for c in r.unused],
        "ranks": list(r.ranks),
        "steps": r.steps,
        "complete": r.complete,
    }
