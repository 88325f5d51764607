"""`kallisti simulate` (being written)."""


def simulate() -> None:
    """Not yet available."""
    raise SystemExit(2)
