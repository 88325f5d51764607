"""What text play says: its commands' help and exit codes, a game's title, status and end, the command for a move."""

from __future__ import annotations

from collections.abc import Callable

from kallisti.cli.render import COMPACT_ROLES
from kallisti.errors import KallistiError

# Exit codes of `kallisti play` (also in its --help).
WON, BAD_INPUT, USAGE, LOST, QUIT = 0, 1, 2, 3, 4

# The commands, as `help` lists them: wrapped to the terminal's width, they fit a screen of 80 by 24 with the prompt.
HELP = (
    ("SRC DST [N]", "move the top card (N cards) of SRC to DST: `t3 f1`, `t2 t7 3`; a group's letter alone, as in "
                    "`t3 f`, is its first pile that takes the card"),
    ("SRC@K DST [N]", "where the rules let cards leave from below the top: the K-th card of SRC from its bottom "
                      "(with the N-1 above it), `c1@1 f`"),
    ("d", "deal from the stock"),
    ("u / r", "undo / redo a step"),
    ("a", "make the automatic moves now: the ruleset's, safe moves home, a game won by force"),
    ("auto on|off", "after each move, send home the cards nothing else needs (on at a terminal unless --no-auto)"),
    ("hint / moves", "a move to make (the command to type) / each legal move once"),
    ("table / legend", "show the table again / what its tags and marks mean"),
    ("rules", "the rules in play (as `kallisti show` prints them)"),
    ("ok", "acknowledge the honour rule shown (do what it says first)"),
    ("rule CHANGE", "change a rule, e.g. `rule set tableau.count 12` (undo takes it back)"),
    ("new [N]", "deal again (deal N);  restart: the same deal from its start"),
    ("save FILE", "save the game;  load FILE: go on from a save"),
    ("help / q", "this list / quit"),
)
HELP_AFTER = ("A game won or lost is announced and play goes on (undo, restart, new, q). Blank lines and lines "
              "starting with # are ignored.")

Out = Callable[[str], None]


def command_for(game, m: int) -> str:
    """The command that makes exactly move m (naming the card count when the short form means another move)."""
    from kallisti.interpreter.notation import describe

    return describe(game, m)


def distinct_moves(game) -> list[tuple[str, int]]:
    """Each distinct legal move once, as (command, move), by source pile, then destination pile, then card count.

    The same cards going to piles of one group that look alike (the same cards, as many face down: empty foundations,
    two tableau piles holding the same cards) make one move, listed as the first of them; to foundations, as the
    group's shorthand (`w f`) where that names one of them. Only where the rules cannot tell the group's piles apart
    (the solver's symmetry: no rule reads a pile's index, no route reaches or leaves them one pile at a time)."""
    from kallisti.solver.solve import interchangeable_groups

    state, kind, group_of = game.state, game.deck.kind, game.rules.group_of
    alike_groups = interchangeable_groups(game.rules)  # only there may two piles' moves be one
    alike: dict[tuple, list[int]] = {}
    for m in game.legal_moves():
        what, src, dst, n = game.decode(m)
        look = m
        if what == "move" and group_of[dst] in alike_groups:
            look = (group_of[dst], tuple(kind[c] for c in state.piles[dst]), state.down[dst])
        alike.setdefault((what, src, n, look), []).append(m)
    listed = []
    for members in alike.values():
        m = min(members, key=lambda mv: _listing_order(game, mv))
        short = len(members) > 1 and game.rules.groups[group_of[game.decode(m)[2]]].role in COMPACT_ROLES
        listed.append((_shorthand(game, m, members) if short else command_for(game, m), m))
    listed.sort(key=lambda item: _listing_order(game, item[1]))
    return listed


def _listing_order(game, m: int) -> tuple:
    what, src, dst, n = game.decode(m)
    return (src, dst, n, game.window(m)[1:] if what == "discard" else (), m)


def _shorthand(game, m: int, members: list[int]) -> str:
    """`w f` for one of several alike moves to a group's piles, when the session reads it as one of them."""
    from kallisti.interpreter.notation import MoveRefused, parse_move

    words = command_for(game, m).split()
    words[1] = game.rules.groups[game.rules.group_of[game.decode(m)[2]]].tag
    short = " ".join(words)
    try:
        return short if parse_move(game, short) in members else command_for(game, m)
    except MoveRefused:
        return command_for(game, m)


def title(game, deal_source: str | None = None) -> str:
    """`Forty Thieves, deal 7`: what someone needs to play the same deal."""
    if deal_source is not None and deal_source.startswith(("ms:", "pysol:")):
        return f"{game.rules.name}, deal {deal_source}"
    if deal_source is not None:
        return f"{game.rules.name}, deal from {deal_source}"
    if game.seed is not None:
        return f"{game.rules.name}, deal {game.seed}"
    return f"{game.rules.name}, a dealt order"


def file_refused(exc: KallistiError, err: Out, out: Out, goes_on: str) -> None:
    """A save or load refused: its findings (each names the file and says why), then that play goes on."""
    for finding in exc.findings:
        err(str(finding))
    out(goes_on)


def moves_text(n: int) -> str:
    """`1 move`, `12 moves`."""
    return f"{n} move{'' if n == 1 else 's'}"


HOME_ROLES = ("foundation", "discard")  # where cards go for good: the piles the status line counts as home


def status_line(game) -> str:
    """`12 moves | score 40 | 12/104 home | deal 7`: where the game stands, after each move (within 80 columns)."""
    home = sum(game.state.sizes.get(name, 0) for name, g in game.rules.groups.items() if g.role in HOME_ROLES)
    parts = [moves_text(game.moves_made)]
    if game.rules.score is not None:
        parts.append(f"score {game.score()}")
    parts.append(f"{home}/{game.deck.size} home")
    parts.append(f"deal {game.seed}" if game.seed is not None else "a dealt order")
    return " | ".join(parts)[:80]


def end_summary(game) -> str:
    """`score 12, 40 moves` (`40 moves` for a ruleset without a score)."""
    moves = moves_text(game.moves_made)
    return moves if game.rules.score is None else f"score {game.score()}, {moves}"
