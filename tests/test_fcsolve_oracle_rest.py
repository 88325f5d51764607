"""The rest of the fc-solve agreement sample of tests/test_fcsolve_oracle.py, deal 11982 (no win) among it: a file of
its own so that the suite's workers, each running whole files, share the searches."""

from __future__ import annotations

import pytest

from test_fcsolve_oracle import SECOND_HALF, agrees


@pytest.mark.parametrize("number", SECOND_HALF)
def test_kallisti_solver_reaches_fc_solves_verdict(number, record_property):
    agrees(number, record_property)
