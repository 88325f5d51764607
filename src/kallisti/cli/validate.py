"""`kallisti validate` (being written)."""


def validate() -> None:
    """Not yet available."""
    raise SystemExit(2)
