"""A match of Discordian Solitaire as plain data for the JSON API: its seats, the changes imposed on each, what it
waits for, its turns and its result; and the honour rules and rule changes it is made of."""

from __future__ import annotations


def match_dict(m) -> dict:
    """The match as plain data: its turn, what it waits for, its seats with the changes imposed on each, its turns and
    result (docs/web.md, "Matches")."""
    from kallisti.model.diff import ruleset_diff

    w = m.waiting()
    seats = []
    for i, s in enumerate(m.seats):
        seats.append({
            "seat": i, "name": s.name, "bot": s.is_bot, "strategy": s.strategy, "total": m.totals[i],
            "loses_at": m.loses_at(i), "turns": m.turns_taken[i],
            "changes": [change_dict(c) for c in m.changes if c.target == i],
            "diff": ruleset_diff(m.base.data, m.rules_for(i).data)})
    x = m.player_x()
    x_waits = w.what == "player-x"
    result = None
    if m.result is not None:
        loser = m.result.loser
        result = {"loser": loser, "loser_name": None if loser is None else m.seats[loser].name,
                  "draw": loser is None, "reason": m.result.reason}
    return {
        "turn": m.turn,
        "current": m.current,
        "player_x": x,
        "waiting": {"seat": w.seat, "name": None if w.seat is None else m.seats[w.seat].name, "what": w.what,
                    "says": m._waiting_text(w), "honour": honour_dict(w.honour) if w.what == "ack" else None},
        "seats": seats,
        "revokable": [c.id for c in m.revokable(x)] if x_waits and m.x_rules(x).revoke and not m.x_actions else [],
        "may_change": x_waits and m.x_actions < m.x_rules(x).changes,
        "turns": [{"seat": r.seat, "turn": r.turn, "score": r.score, "total": r.total, "reason": r.reason}
                  for r in m.records],
        "result": result,
    }


def honour_dict(h) -> dict | None:
    return None if h is None else {"id": h.id, "at": h.at, "says": h.says}


def change_dict(c) -> dict:
    return {"id": c.id, "by": c.author, "on": c.target, "after_turn": c.turn, "text": c.text, "active": c.active}
