"""kallisti's own PRNG (SplitMix64): the same seed gives the same deal on every platform and Python."""

from __future__ import annotations

import threading
from collections.abc import Callable
from operator import mod

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15

# Independent streams: a deal never shares randomness with a strategy or a bot.
STREAM_DEAL = 1
STREAM_STRATEGY = 2
STREAM_REDEAL = 3  # redeals that shuffle use STREAM_REDEAL + 16 * (redeals made so far)


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


class Rng:
    """SplitMix64 over a state derived from (seed, number, stream)."""

    __slots__ = ("state",)

    def __init__(self, seed: int, number: int = 0, stream: int = STREAM_DEAL):
        # Chained, with a distinct constant per part, so no two (seed, number, stream) share a state.
        state = _mix((seed + 0x632BE59BD9B4E019) & MASK)
        state = _mix((state ^ (number + 0x8CB92BA72F3D8DD7)) & MASK)
        self.state = _mix((state ^ (stream * 0xD6E8FEB86659FD93)) & MASK)

    def next64(self) -> int:
        self.state = (self.state + GOLDEN) & MASK
        return _mix(self.state)

    def below(self, n: int) -> int:
        """A uniform integer in range(n), by rejection (no modulo bias); `next64` written out (a random playout
        draws once a move)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        state = self.state
        while True:
            state = (state + GOLDEN) & MASK
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
            x = z ^ (z >> 31)
            if x < limit:
                self.state = state
                return x % n

    def shuffle(self, items: list) -> None:
        """Fisher–Yates, in place: `below(i + 1)` for each i from the last down to 1 (a deal's cost). The draws are
        made all at once (`_draws`), and each card's place taken from them, unless one of them is high enough that
        `below` might refuse it (a chance below one in 2^56): then one by one, as `below` makes them."""
        size = len(items)
        if size < 2:
            return
        draws = _draws(self.state, size - 1)
        if max(draws) >= REFUSED_FROM - size:  # `below(n)` refuses only draws of 2^64 - n or more
            self._shuffle_one_by_one(items)
            return
        for i, j in zip(range(size - 1, 0, -1), map(mod, draws, range(size, 1, -1))):
            items[i], items[j] = items[j], items[i]
        self.state = (self.state + (size - 1) * GOLDEN) & MASK

    def _shuffle_one_by_one(self, items: list) -> None:
        """`shuffle`, each draw made as `below` makes it, the ones it refuses drawn again."""
        state = self.state
        limits = _limits(len(items))
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = limits[n]
            while True:
                state = (state + GOLDEN) & MASK
                z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
                x = z ^ (z >> 31)
                if x < limit:
                    break
            j = x % n
            items[i], items[j] = items[j], items[i]
        self.state = state


REFUSED_FROM = 1 << 64  # `shuffle` draws one by one where a draw reaches this less the count of items (tests lower it)
_LANES: dict[int, tuple] = {}  # per count of draws k, see `_draws`


def _draws(state: int, k: int) -> list[int]:
    """The next k outputs of the generator from `state` (as `next64` makes them, without moving it), worked out all at
    once: k 128-bit lanes of one integer, each holding one draw's state (state + j * GOLDEN), mixed together by
    `_mix`'s steps, each lane cut back to 64 bits before it is shifted into or multiplied (so no lane spills into
    the next): a few operations on one long integer rather than a dozen per draw."""
    lanes = _LANES.get(k)
    if lanes is None:
        ones = int.from_bytes(b"".join((1).to_bytes(16, "little") for _ in range(k)), "little")
        steps = int.from_bytes(b"".join((j + 1).to_bytes(16, "little") for j in range(k)), "little")
        lanes = _LANES[k] = (ones, steps * GOLDEN, ones * MASK)
    ones, steps, masks = lanes
    z = (state * ones + steps) & masks
    z = ((z ^ (z >> 30)) & masks) * 0xBF58476D1CE4E5B9 & masks
    z = ((z ^ (z >> 27)) & masks) * 0x94D049BB133111EB & masks
    z = (z ^ (z >> 31)) & masks
    return memoryview(z.to_bytes(16 * k, "little")).cast("Q")[::2].tolist()


_LIMITS: list[int] = [0]  # _LIMITS[n]: the rejection bound of `below(n)`, 2^64 less 2^64 mod n
_limits_lock = threading.Lock()  # deals are shuffled on worker threads at once (the web server)


def _limits(most: int) -> list[int]:
    """_LIMITS, long enough for `below(n)` up to n = most."""
    if len(_LIMITS) <= most:
        with _limits_lock:  # each bound appended once, in its place
            while len(_LIMITS) <= most:
                n = len(_LIMITS)
                _LIMITS.append((1 << 64) - ((1 << 64) % n))
    return _LIMITS


# The draws of the streams `replayed_below` has read, by (seed, number, stream): each stream's values in order.
_streams: dict[tuple, list[int]] = {}
_streams_lock = threading.Lock()  # rule changes of several sessions are tried on worker threads at once
STREAM_CHUNK = 256  # draws worked out at a time when a replayed stream runs past what is kept
MAX_REPLAYED_STREAMS = 64  # streams kept (the trial's and measuring deals' use eight): forgotten past this
MAX_REPLAYED_DRAWS = 1 << 16  # draws kept of one stream; past them a stream is read on without keeping them
LISTED_BOUNDS = 512  # the bounds of `below(n)` a replayed stream reads off a list (more moves than this are rare)


def replayed_below(seed: int, number: int = 0, stream: int = STREAM_DEAL) -> Callable[[int], int]:
    """`Rng(seed, number, stream).below`, for a stream many callers read from its start: every rule change's trial
    deals, every Player X measure (interpreter/amend.py, solver/playerx.py). A stream's values depend on nothing
    but its seed, number and stream, so they are worked out once and kept, and each caller reads them again: the same
    answers as a fresh Rng, at the cost of reading a list rather than mixing bits a move."""
    key = (seed, number, stream)
    with _streams_lock:
        draws = _streams.get(key)
        if draws is None:
            if len(_streams) >= MAX_REPLAYED_STREAMS:
                _streams.clear()
            draws = _streams[key] = []
    start = Rng(seed, number, stream).state  # a draw's state is the start's plus GOLDEN once a draw
    limits = _limits(LISTED_BOUNDS)
    i = 0

    def below(n: int) -> int:
        nonlocal i
        if n <= 0:
            raise ValueError("n must be positive")
        limit = limits[n] if n <= LISTED_BOUNDS else (1 << 64) - ((1 << 64) % n)
        while True:
            if i >= len(draws):
                _extend(draws, start, i)
            x = draws[i] if i < len(draws) else _draw(start, i)
            i += 1
            if x < limit:
                return x % n

    return below


def _draw(start: int, i: int) -> int:
    """The draw at index i of the stream whose state starts at `start`."""
    return _mix((start + (i + 1) * GOLDEN) & MASK)


def _extend(draws: list[int], start: int, i: int) -> None:
    """Work out the draws of a kept stream up to past index i, all at once (`_draws`, from the state before draw
    `have`), under the lock, so each index is written once."""
    with _streams_lock:
        have = len(draws)
        if have > i or have >= MAX_REPLAYED_DRAWS:
            return
        draws.extend(_draws((start + have * GOLDEN) & MASK, min(i + STREAM_CHUNK, MAX_REPLAYED_DRAWS) - have))
