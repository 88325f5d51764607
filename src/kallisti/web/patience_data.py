"""What a patience played in the browser keeps beside its game: the honour rules still due after it is rebuilt from its
save, the recorder of its statistics, and a deal told with the cards it dealt."""

from __future__ import annotations

from types import SimpleNamespace

from kallisti.interpreter.honour import HonourRules

DEALT_NAMED = 3  # a deal to at most this many piles names each card dealt; a deal to more names the piles


def dealt_text(game, m: int, sizes: list[int]) -> str:
    """`deal from s: 7♥ to w`: a deal made, naming the cards it turned face up (`sizes`: the piles' sizes before it);
    `deal from s: 10 cards to t1..t10` when it dealt to more than DEALT_NAMED piles."""
    from kallisti.interpreter.notation import narrate

    st, tag = game.state, game.rules.tag_of
    src = game.decode(m)[1]
    grown = [p for p in range(game.P) if p != src and len(st.piles[p]) > sizes[p]]
    if not grown:
        return narrate(game, m)
    if len(grown) > DEALT_NAMED:
        count = sum(len(st.piles[p]) - sizes[p] for p in grown)
        return f"deal from {tag[src]}: {count} cards to {tag[grown[0]]}..{tag[grown[-1]]}"
    parts = []
    for p in grown:
        pile = st.piles[p]
        shown = [game.deck.name(c) if i >= st.down[p] else "a card face down" for i, c in enumerate(pile) if i >= sizes[p]]
        parts.append(f"{' '.join(shown)} to {tag[p]}")
    return f"deal from {tag[src]}: {', '.join(parts)}"


def stats_recorder(game, restored: bool = False):
    """What records the patience `game` for `kallisti stats` (None in a match, or with KALLISTI_NO_STATS); a game
    brought back from its save that is won was recorded when it was won. A database that cannot be written is
    logged once."""
    import logging

    from kallisti.stats import recorder

    stats = recorder(logging.getLogger("kallisti.stats").warning) if game is not None else None
    if stats is not None:
        stats.follow(game, recorded=restored and game.status().outcome == "won")
    return stats


def honour_replayed(game) -> HonourRules:
    """The honour rules still due in a patience rebuilt from its save: those of its first deal, less the ones its
    events acknowledged, as `Session.acknowledge` and `Session._moved` kept them while it was played. A `before deal`
    rule acknowledged after the first deal's was acknowledged for a deal from the stock asked for (HonourRules.ask):
    that deal is still asked for, and waits for the rest of its rules only."""
    honour = HonourRules(SimpleNamespace(rules=game.initial_rules))
    for event in game.events:
        kind = event.get("type") if isinstance(event, dict) else None
        if kind == "ack":
            if honour.pending and honour.pending[0].id == event.get("rule"):
                honour.pending.pop(0)
            elif event.get("at") == "before-deal" and not honour.pending:
                honour.deal_asked = True
                honour.deal_acks.add(event.get("rule"))
            else:
                honour.move_acks.add(event.get("rule"))
        elif kind in ("move", "auto"):
            honour.moved()
    return honour
