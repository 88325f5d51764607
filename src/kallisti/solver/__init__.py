"""Playing without a person: strategies, hints and simulation."""
