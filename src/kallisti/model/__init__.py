"""The ruleset model: loading, `extends` and patches, semantic checks, the frozen Ruleset."""
