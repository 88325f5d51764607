"""The JSON Schema files committed beside kallisti.schema (for editors) are the schemas the loader uses."""

from pathlib import Path

import kallisti.schema as schema_module
from kallisti.schema import export


def test_the_committed_schema_files_are_current():
    here = Path(schema_module.__file__).parent
    for name, text in export().items():
        assert (here / name).read_text(encoding="utf-8") == text, f"{name} is stale: regenerate it with kallisti.schema.export()"
