"""The legal moves of the game on the table as plain data for the JSON API: each move's kind, piles, cards and text."""

from __future__ import annotations

from kallisti.interpreter.notation import describe, narrate


def moves_list(game, legal: list[int]) -> list[dict]:
    """Every legal move as data (`legal`, the game's legal moves, in its order)."""
    decoded = [game.decode(m) for m in legal]
    runs = {(src, dst) for kind, src, dst, n in decoded if kind == "move" and n > 1}
    return [move_dict(game, m, runs) for m in legal]


def move_dict(game, m: int, runs: set | None = None) -> dict:
    """A move as data: its kind, piles, card count, the exact text that makes it, and a sentence; a discard and a
    move of cards from below a pile's top (`take_from`) also say where their cards start (`start`, counted from 1
    at the pile's bottom).

    `runs`: the (source, target) pairs of the legal moves of several cards, when known: then the text is
    `describe`'s without its search of the legal moves for them (which would cost a move generation a move).
    """
    kind, src, dst, n = game.decode(m)
    tag = game.rules.tag_of
    reach = kind == "move" and m >= game.reach_base
    if runs is not None and kind == "move" and not reach and n == 1 and game.take_max[game.gindex[src]] > 1:
        text = f"{tag[src]} {tag[dst]}" + (" 1" if (src, dst) in runs else "")  # as describe writes it
    else:
        text = describe(game, m)
    out = {"kind": kind, "from": tag[src], "to": tag[dst] if kind in ("move", "discard") else None,
           "count": n if kind in ("move", "discard") else 1, "text": text, "says": narrate(game, m)}
    if kind == "discard":
        _, start, length = game.window(m)
        out["start"], out["count"] = start + 1, length
    elif reach:
        out["start"] = game.reach_window(m)[1] + 1
    return out
