"""The committed deal of Forty Thieves seed 1: any change to the PRNG, the shuffle or the deal shows here.

The file tests/golden/forty-thieves-seed-1.txt was generated once from the engine. After a deliberate
change to how games are dealt, regenerate it with `python tests/test_golden.py` and review the diff.
"""

from __future__ import annotations

import sys
from pathlib import Path

from kallisti.interpreter.game import Game
from kallisti.model.ruleset import load_ruleset

GOLDEN = Path(__file__).resolve().parent / "golden" / "forty-thieves-seed-1.txt"
PER_LINE = 13


def render(game: Game) -> str:
    """The deal as text: the pack in dealing order, then every pile (bottom first; the stock top first)."""
    deck, rules, st = game.deck, game.rules, game.state
    lines = [f"# {rules.name}, seed {game.seed}: the pack in dealing order (first card dealt first),",
             "# then the layout: each pile bottom first, except the stock, listed from the next card turned.",
             "order:"]
    names = [deck.ascii_name(c) for c in game.order]
    for i in range(0, len(names), PER_LINE):
        lines.append("  " + " ".join(names[i:i + PER_LINE]))
    for p, pile in enumerate(st.piles):
        tag = rules.tag_of[p]
        cards = list(reversed(pile)) if rules.group_of[p] == "stock" else pile
        lines.append(f"{tag}: {' '.join(deck.ascii_name(c) for c in cards)}".rstrip())
    return "\n".join(lines) + "\n"


def current() -> str:
    return render(Game(load_ruleset("forty-thieves"), seed=1))


def parse(text: str) -> tuple[list[str], dict[str, list[str]]]:
    order: list[str] = []
    piles: dict[str, list[str]] = {}
    in_order = False
    for line in text.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        if line == "order:":
            in_order = True
            continue
        if in_order and line.startswith("  "):
            order.extend(line.split())
            continue
        in_order = False
        tag, _, cards = line.partition(":")
        piles[tag] = cards.split()
    return order, piles


def test_deal_matches_the_committed_file():
    expected = GOLDEN.read_text(encoding="utf-8")
    assert current() == expected, "the deal of Forty Thieves seed 1 changed (PRNG, shuffle or deal)"


def test_committed_file_is_a_forty_thieves_deal():
    # The file itself must describe a real deal: two full packs, dealt in rows of ten from the
    # first card, the rest left in the stock with the first card left turned first.
    order, piles = parse(GOLDEN.read_text(encoding="utf-8"))
    assert len(order) == 104
    ranks = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
    assert sorted(order) == sorted(f"{r}{s}" for r in ranks for s in "CDHS" for _ in range(2))
    for i in range(10):
        assert piles[f"t{i + 1}"] == order[i:40:10]
    for i in range(8):
        assert piles[f"f{i + 1}"] == []
    assert piles["w"] == []
    assert piles["s"] == order[40:]


def test_first_cards_turned_from_the_stock_follow_the_order():
    order, _ = parse(GOLDEN.read_text(encoding="utf-8"))
    game = Game(load_ruleset("forty-thieves"), seed=1)
    deal = next(m for m in game.legal_moves() if game.decode(m)[0] == "deal")
    waste = game.rules.pile_of_tag["w"]
    for expected in order[40:45]:
        game.play(deal)
        assert game.deck.ascii_name(game.state.piles[waste][-1]) == expected


if __name__ == "__main__":
    if "--check" in sys.argv:
        sys.exit(0 if current() == GOLDEN.read_text(encoding="utf-8") else 1)
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    GOLDEN.write_text(current(), encoding="utf-8")
    print(f"wrote {GOLDEN}")
