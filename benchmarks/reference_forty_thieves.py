"""Hand-written, pure-Python Forty Thieves: the speed baseline for the rule interpreter."""

from __future__ import annotations

from bisect import insort

# A card is the int suit*16 + rank (rank 1..13).  With the gap of 16 per suit,
# "same suit, one rank lower/higher" is plain c-1 / c+1, and c-1 of an ace or
# c+1 of a king lands on a code (rank 0 or 14) that no card has, so such
# needs can never match.  Codes fit in 0..63, so per-card tables are lists.
NCODES = 64

# A move is the small int src*18 + dst (CPython caches ints < 257, so building
# the move list allocates nothing per move).  src: 0..9 tableau, 10 waste;
# dst: 0..9 tableau, 10..17 foundations.  DEAL sorts before every other move.
WASTE = 10
NDST = 18
DEAL = -1


class FortyThieves:
    __slots__ = ("piles", "stock", "onto", "empty", "fneed", "nfound")

    def __init__(self, deck: list[tuple[int, int]]):
        if len(deck) != 104:
            raise ValueError("Forty Thieves needs a 104-card deck")
        cards = [suit * 16 + rank for rank, suit in deck]
        # piles[0..9] are the tableau, piles[10] the waste; last item = top.
        self.piles = [cards[i:40:10] for i in range(10)] + [[]]
        # Reversed so that pop() turns deck[40] first.
        self.stock = cards[:39:-1]
        # The destinations each card may go to are kept up to date in apply(),
        # so legal_moves() looks at each source's top card once and reads its
        # destinations from a table instead of testing every pair.
        #   onto[c]  = sorted tableau piles whose top is c+1
        #   empty    = sorted empty tableau piles (they take any card)
        #   fneed[c] = sorted foundation dsts that take c; the four ace
        #              entries share one list, the empty foundations.
        self.onto = [[] for _ in range(NCODES)]
        for i in range(10):
            self.onto[self.piles[i][-1] - 1].append(i)
        self.empty = []
        self.fneed = [[] for _ in range(NCODES)]
        fempty = list(range(10, 18))
        for suit in range(4):
            self.fneed[suit * 16 + 1] = fempty
        self.nfound = 0

    def legal_moves(self) -> list:
        """All legal moves, sorted: deal, then by source (t1..t10, w), then by
        destination (t1..t10, f1..f8)."""
        moves = [DEAL] if self.stock else []
        onto, empty, fneed = self.onto, self.empty, self.fneed
        base = 0
        for p in self.piles:
            if p:
                c = p[-1]
                # The source is never its own destination: it is non-empty
                # and its top card c needs c-1 on it, never c.
                tabs = onto[c]
                if empty:
                    # Rare: empty piles take any card; merge to keep the order.
                    tabs = sorted(tabs + empty) if tabs else empty
                # Most tops have no destination; skip the loops outright.
                if tabs:
                    for d in tabs:
                        moves.append(base + d)
                tabs = fneed[c]
                if tabs:
                    for d in tabs:
                        moves.append(base + d)
            base += NDST
        return moves

    def apply(self, move) -> None:
        piles, onto = self.piles, self.onto
        if move < 0:
            # Waste is not in onto/empty: nothing ever goes onto it.
            piles[WASTE].append(self.stock.pop())
            return
        s, d = divmod(move, NDST)
        p = piles[s]
        c = p.pop()
        if s < WASTE:
            # The source pile has a new top (or became empty).
            onto[c - 1].remove(s)
            if p:
                insort(onto[p[-1] - 1], s)
            else:
                insort(self.empty, s)
        if d < WASTE:
            q = piles[d]
            if q:
                onto[q[-1] - 1].remove(d)
            else:
                self.empty.remove(d)
            q.append(c)
            insort(onto[c - 1], d)
        else:
            # Foundations keep only their top; drop d from what c needed and
            # offer it to c+1 (a king's c+1 is a code no card has: harmless).
            self.fneed[c].remove(d)
            insort(self.fneed[c + 1], d)
            self.nfound += 1

    def move_name(self, move) -> str:
        if move < 0:
            return "d"
        s, d = divmod(move, NDST)
        src = "w" if s == WASTE else f"t{s + 1}"
        dst = f"t{d + 1}" if d < WASTE else f"f{d - WASTE + 1}"
        return f"{src} {dst}"

    def is_won(self) -> bool:
        return self.nfound == 104


def playout(deck, choose, cap: int = 1000) -> int:
    """Play random legal moves from the deal until no legal move, a win, or `cap` moves; return the number of moves made.
    `choose(n)` returns an index in range(n) and picks among legal_moves() in their returned order."""
    game = FortyThieves(deck)
    legal, apply = game.legal_moves, game.apply
    n = 0
    while n < cap and game.nfound < 104:
        moves = legal()
        if not moves:
            break
        apply(moves[choose(len(moves))])
        n += 1
    return n


if __name__ == "__main__":
    import random
    import time

    full = [(rank, suit) for _ in range(2) for suit in range(4) for rank in range(1, 14)]
    picker = random.Random(0)
    choose = picker.randrange
    total = 0
    start = time.perf_counter()
    for seed in range(1, 21):
        deck = full[:]
        random.Random(seed).shuffle(deck)
        total += playout(deck, choose)
    elapsed = time.perf_counter() - start
    print(f"{total} moves in {elapsed:.3f}s: {total / elapsed:,.0f} moves/s")
