"""`kallisti show` (being written)."""


def show() -> None:
    """Not yet available."""
    raise SystemExit(2)
