"""The deck of a ruleset: cards as small ints, with rank, suit, colour and value in lookup tables."""

from __future__ import annotations

import json
import threading

from dataclasses import dataclass

from kallisti.errors import KallistiError, Finding, Pos, did_you_mean
from kallisti.located import plain

# What an expression may read of a card (`Compiled.reads`) -> the deck's table that holds it (`totals` are made from
# the values); anything else (`identity`: which physical card it is) is more than a table holds. Cards alike in the
# tables a rule reads are alike to it.
READ_TABLES = {"rank": "rank", "suit": "suit", "family": "family", "color": "color", "value": "value", "values": "values",
               "marks": "marks", "pack": "pack", "totals": "values"}
NO_CARD_RANK = -100  # rank of the "no card" sentinel (the top of an empty pile): never adjacent to a real rank

# Kinds of stand-in cards, the same in every deck for the same (kind, values, rank), so that answers remembered by
# kinds can be shared between the decks of rulesets that differ only in a rule change.
_STAND_IN_KINDS: dict[tuple, int] = {}


def deck_signature(spec: dict) -> str:
    """What a deck's cards are, as text (the shuffle setting aside): equal signatures, equal decks."""
    return json.dumps({k: v for k, v in plain(spec).items() if k != "shuffle"}, sort_keys=True, ensure_ascii=False)


# The decks made last for rules whose decks never grow (no stand-ins), the most recently used last: the rulesets of a
# match (each rule change compiles one) share them. Two are kept, the deck of the rules in force and that of a change
# to the deck weighed against them, so nothing here grows with what is compiled.
_shared_decks: list[tuple[str, "Deck"]] = []
_decks_lock = threading.Lock()  # the web server compiles on several threads


def shared_deck(spec: dict) -> "Deck":
    """The deck of `spec` for rules that make no stand-in cards (they score no hands): one made before with the same
    signature, for such a deck is never modified once made; else a new one, kept in place of the least recently used."""
    signature = deck_signature(spec)
    with _decks_lock:
        for i, (kept, deck) in enumerate(_shared_decks):
            if kept == signature:
                _shared_decks.append(_shared_decks.pop(i))
                return deck
    deck = Deck(spec, signature)  # made outside the lock: another thread's compiling need not wait for it
    with _decks_lock:
        _shared_decks.append((signature, deck))
        del _shared_decks[:-2]
    return deck


@dataclass(frozen=True)
class Suit:
    name: str
    symbol: str
    letter: str
    color: str
    family: str  # the suit it counts as for `card.family` (its own name unless paired, as Onion's swords with clubs)


class Deck:
    """Every physical card of the ruleset's packs, numbered 0..size-1; index `size` is "no card".

    Rules see only rank, suit, colour, value and marks, so twins of a double pack are equal
    for them (`kind[c]` is the same), yet each physical card stays distinct.
    """

    def __init__(self, spec: dict, signature: str | None = None):
        # What the cards are, as text: decks with equal signatures have the same cards (the shuffle setting aside).
        self.signature = deck_signature(spec) if signature is None else signature
        self.ranks: tuple[str, ...] = tuple(str(r) for r in spec["ranks"])
        self.suits: tuple[Suit, ...] = tuple(
            Suit(s["name"], s.get("symbol", s["name"][0].upper()), s.get("letter", s["name"][0].upper()), s["color"],
                 s.get("family", s["name"]))
            for s in spec["suits"]
        )
        self.suit_family = tuple(self.suit_index(s.family) for s in self.suits)
        self.colors: tuple[str, ...] = tuple(dict.fromkeys(s.color for s in self.suits))
        packs = spec["packs"]
        pack_suits = [list(range(len(self.suits)))] * packs if isinstance(packs, int) else [
            [self.suit_index(name) for name in p["suits"]] for p in packs
        ]
        self.packs = len(pack_suits)
        value_spec = spec.get("values", {})
        rank_values: list[tuple[int, ...]] = []
        for i, r in enumerate(self.ranks):
            v = value_spec.get(r, i + 1)
            rank_values.append(tuple(v) if isinstance(v, list) else (v,))
        marks: dict[tuple[int, int], set[str]] = {}
        for mark, cards in spec.get("marks", {}).items():
            for c in cards:
                marks.setdefault((self.rank_index(c["rank"]), self.suit_index(c["suit"])), set()).add(mark)
        self.mark_names = tuple(spec.get("marks", {}))

        rank, suit, color, value, values, pack, kind, mark, family = [], [], [], [], [], [], [], [], []
        for p, suits in enumerate(pack_suits):
            for s in suits:
                for r in range(len(self.ranks)):
                    rank.append(r)
                    suit.append(s)
                    family.append(self.suit_family[s])
                    color.append(self.colors.index(self.suits[s].color))
                    value.append(rank_values[r][0])
                    values.append(rank_values[r])
                    pack.append(p)
                    kind.append(s * len(self.ranks) + r)
                    mark.append(frozenset(marks.get((r, s), ())))
        self.size = len(rank)
        # The sentinel "no card" at index `size`: its attributes match nothing real. The tables are lists because
        # stand-ins (below) are appended after it; compiled rules hold these very lists and so see them too.
        self.rank = rank + [NO_CARD_RANK]
        self.suit = suit + [-1]
        self.family = family + [-1]
        self.color = color + [-1]
        self.value = value + [0]
        self.values = values + [(0,)]
        self.pack = pack + [-1]
        self.kind = kind + [-1]
        self.marks = mark + [frozenset()]
        self.kinds = len(self.suits) * len(self.ranks)
        # One card of each kind, by kind, the first in the pack: twin cards of a multi-pack deck behave alike,
        # so whatever holds for one holds for its twins.
        self.representative: dict[int, int] = {}
        for c in range(self.size):
            self.representative.setdefault(kind[c], c)
        self._stand_ins: dict[tuple, int] = {}

    def stand_in(self, card: int, values: tuple[int, ...], rank: int | None = None, tag: str = "") -> int:
        """A card that is `card` counted with other `values` (and, if given, another rank), for judging hands:
        an ace that may count only one, a card shifted by a modifier. It has a kind of its own, is never dealt,
        and is made once per (card kind, values, rank, tag); a `tag` tells apart stand-ins that read alike but are
        judged otherwise (a wild card that a devaluation keeps from counting some values)."""
        rank = self.rank[card] if rank is None else rank
        key = (self.kind[card], tuple(values), rank) + ((tag,) if tag else ())
        made = self._stand_ins.get(key)
        if made is None:
            made = len(self.rank)
            for table, item in ((self.rank, rank), (self.suit, self.suit[card]), (self.family, self.family[card]),
                                (self.color, self.color[card]), (self.value, values[0]), (self.values, tuple(values)),
                                (self.pack, self.pack[card]),
                                (self.kind, _STAND_IN_KINDS.setdefault(key, 1_000_000 + len(_STAND_IN_KINDS))),
                                (self.marks, self.marks[card])):
                table.append(item)
            self._stand_ins[key] = made
        return made

    def rank_index(self, name, pos: Pos | None = None) -> int:
        text = str(name)
        if text in self.ranks:
            return self.ranks.index(text)
        raise KallistiError(
            Finding("unknown-rank", f"unknown rank '{text}'; the ranks are {' '.join(self.ranks)}", pos or Pos("<deck>"),
                    suggestion=did_you_mean(text, self.ranks))
        )

    def suit_index(self, name, pos: Pos | None = None) -> int:
        for i, s in enumerate(self.suits):
            if name in (s.name, s.symbol, s.letter):
                return i
        raise KallistiError(
            Finding("unknown-suit", f"unknown suit '{name}'", pos or Pos("<deck>"), suggestion=did_you_mean(name, [s.name for s in self.suits]))
        )

    def name(self, card: int) -> str:
        """A card's short name, e.g. `10♥`; `--` for no card."""
        if card == self.size:
            return "--"
        return f"{self.ranks[self.rank[card]]}{self.suits[self.suit[card]].symbol}"

    def ascii_name(self, card: int) -> str:
        return f"{self.ranks[self.rank[card]]}{self.suits[self.suit[card]].letter}"

    def parse_card(self, text: str, pos: Pos | None = None) -> int:
        """The kind of a card written as rank then suit (`10H`, `10♥`, `Qs`)."""
        text = text.strip()
        for cut in (len(text) - 1, len(text) - 2):
            if cut <= 0:
                continue
            r, s = text[:cut], text[cut:]
            if r.upper() in (x.upper() for x in self.ranks):
                r = next(x for x in self.ranks if x.upper() == r.upper())
                for i, suit in enumerate(self.suits):
                    if s in (suit.symbol, suit.name) or s.upper() == suit.letter.upper():
                        return i * len(self.ranks) + self.ranks.index(r)
        raise KallistiError(Finding("bad-card", f"'{text}' is not a card of this deck (write rank then suit, e.g. 10H or 10♥)", pos or Pos("<deal>")))

    def order_from_names(self, names: list[tuple[str, Pos]]) -> list[int]:
        """Physical cards for a list of card names in dealing order; each name takes the next unused twin."""
        free: dict[int, list[int]] = {}
        for c in range(self.size - 1, -1, -1):
            free.setdefault(self.kind[c], []).append(c)
        order = []
        for text, pos in names:
            kind = self.parse_card(text, pos)
            if not free.get(kind):
                raise KallistiError(Finding("deal-too-many", f"'{text}' appears more often than the deck holds it", pos))
            order.append(free[kind].pop())
        if len(order) != self.size:
            raise KallistiError(Finding("deal-size", f"the deal lists {len(order)} cards; the deck has {self.size}", names[-1][1] if names else Pos("<deal>")))
        return order
