"""Entry point for `python -m kallisti`."""

from kallisti.cli.app import main

main()
