"""The JSON of a deck's cards, face up and face down but shown, made once per deck and shared by every state."""

from __future__ import annotations

import threading

HIDDEN = {"id": None, "rank": None, "suit": None, "symbol": None, "colour": None, "face_up": False, "text": "##"}
_FACES: dict[object, tuple[list[dict], list[dict]]] = {}  # per deck: every card face up, and face down but shown
_FACES_LOCK = threading.Lock()  # sessions are played in several threads at once


def faces_of(deck) -> tuple[list[dict], list[dict]]:
    """The JSON of each card of a deck, face up and face down but shown (`(5♥)`): made once per deck.

    The dicts are shared by every state of the deck's games; nothing may change them."""
    with _FACES_LOCK:
        return _FACES.get(deck.signature) or _made_faces(deck)


def _made_faces(deck) -> tuple[list[dict], list[dict]]:
    """`faces_of` of a deck not yet seen (holding `_FACES_LOCK`)."""
    up, seen = [], []
    for c in range(deck.size):
        suit = deck.suits[deck.suit[c]]
        card = {"id": c, "rank": deck.ranks[deck.rank[c]], "suit": suit.name, "symbol": suit.symbol,
                "colour": suit.color, "face_up": True, "text": deck.name(c)}
        up.append(card)
        seen.append({**card, "face_up": False, "text": f"({card['text']})"})
    faces = _FACES[deck.signature] = (up, seen)
    if len(_FACES) > 256:  # decks changed by rule changes: keep the cache small
        _FACES.pop(next(iter(_FACES)))
    return faces


