"""`kallisti play` (being written)."""


def play() -> None:
    """Not yet available."""
    raise SystemExit(2)
