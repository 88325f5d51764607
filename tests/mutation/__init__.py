"""The mutation test of kallisti's checks: shipped rulesets broken in seeded ways, each mutant truly broken by
construction, and the rate at which `validate --strict` or `check` flags the mutants of every operator.

`python -m tests.mutation.run [--seed N]` prints the table; tests/test_mutation.py asserts on it.
"""
