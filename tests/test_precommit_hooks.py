"""The `kallisti-validate` pre-commit hook, run as `.pre-commit-hooks.yaml` defines it.

The hook's `entry` runs as a subprocess (the venv's `kallisti` on PATH) over the files of
tests/hooks/positive/ and tests/hooks/negative/ that its `files` pattern selects (and `exclude` does
not), as pre-commit would pass them. With pre-commit installed, a temporary repository set up as
the README says adds the hook and has it reject a commit of a broken ruleset.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
HOOKS_FILE = ROOT / ".pre-commit-hooks.yaml"
EXAMPLES = ROOT / "tests" / "hooks"
BIN = Path(sys.executable).parent
EXPECT = re.compile(r"^# expect: (\d+):(\d+) ([a-z-]+)$")


def _hook() -> dict:
    hooks = yaml.safe_load(HOOKS_FILE.read_text(encoding="utf-8"))
    found = [h for h in hooks if h.get("id") == "kallisti-validate"]
    assert len(found) == 1, "one hook with id kallisti-validate"
    return found[0]


def _env() -> dict:
    return {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}


def selected(folder: str) -> list[str]:
    """The files of tests/hooks/FOLDER the hook is given, as paths from the repository root (as pre-commit gives them)."""
    hook = _hook()
    files, exclude = re.compile(hook.get("files", "")), re.compile(hook.get("exclude", "^$"))
    paths = [p.relative_to(ROOT).as_posix() for p in sorted((EXAMPLES / folder).iterdir()) if p.is_file()]
    return [p for p in paths if files.search(p) and not exclude.search(p)]


def run_entry(files: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run([*shlex.split(_hook()["entry"]), *files], cwd=ROOT, env=_env(), capture_output=True, text=True,
                          timeout=120)


def test_the_hooks_file_defines_kallisti_validate():
    hook = _hook()
    assert hook["entry"] == "kallisti validate"
    assert hook["language"] == "python"
    assert hook["files"] == r"\.(ya?ml|rules)$"
    assert hook["pass_filenames"] is True
    assert hook["name"]


def test_the_files_pattern_selects_rulesets_only():
    assert [Path(p).name for p in selected("positive")] == ["twelve-thieves.rules", "twelve-thieves.yaml"]
    assert [Path(p).name for p in selected("negative")] == ["bad-expression.rules", "bad-pile-name.yaml", "impossible-deal.yml"]
    hook = _hook()
    exclude = re.compile(hook.get("exclude", "^$"))
    for name in (".pre-commit-config.yaml", ".pre-commit-hooks.yaml", ".github/workflows/ci.yml"):
        assert exclude.search(name), f"{name} is no ruleset: the hook must not check it"
    assert not exclude.search("rulesets/.github-like.yaml")


def test_the_entry_passes_valid_rulesets():
    files = selected("positive")
    result = run_entry(files)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{len(files)} files checked: {len(files)} valid, 0 invalid" in result.stdout


def test_every_file_the_pattern_leaves_out_would_fail_the_entry():
    # The notes beside the rulesets are not rulesets: the pattern is what keeps them from the hook.
    notes = [p.relative_to(ROOT).as_posix() for p in sorted((EXAMPLES / "positive").iterdir())
             if p.relative_to(ROOT).as_posix() not in selected("positive")]
    assert notes
    assert run_entry(notes).returncode == 1


@pytest.mark.parametrize("name", ["bad-expression.rules", "bad-pile-name.yaml", "impossible-deal.yml"])
def test_the_entry_rejects_a_broken_ruleset_at_its_fault(name):
    path = next(p for p in selected("negative") if p.endswith("/" + name))
    line, column, code = EXPECT.match((ROOT / path).read_text(encoding="utf-8").splitlines()[0]).groups()
    result = run_entry([path])
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"{path}:{line}:{column}: error {code}:" in result.stdout, result.stdout


def test_the_entry_rejects_the_negative_folder_as_a_whole():
    files = selected("negative")
    result = run_entry(files)
    assert result.returncode == 1
    assert f"{len(files)} files checked: 0 valid, {len(files)} invalid" in result.stdout


# -- with pre-commit itself ----------------------------------------------------------------------
def _require(tool: str) -> str:
    """The tool's path; a skip when it is missing, except under CI=true, where a missing test dependency fails."""
    found = shutil.which(tool, path=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}")
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{tool} is not installed (CI=true: a missing test dependency fails)")
        pytest.skip(f"{tool} is not installed")
    return found


def _git(cwd: Path, *args: str, env: dict, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=check, timeout=120)


def test_a_repository_with_the_hook_rejects_a_commit_of_a_broken_ruleset(tmp_path):
    _require("git")
    pre_commit = _require("pre-commit")
    env = {**_env(), "PRE_COMMIT_HOME": str(tmp_path / "cache"), "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_CONFIG_GLOBAL": os.devnull, "GIT_AUTHOR_NAME": "A", "GIT_AUTHOR_EMAIL": "a@example.org",
           "GIT_COMMITTER_NAME": "A", "GIT_COMMITTER_EMAIL": "a@example.org"}
    env.pop("GIT_DIR", None)
    env.pop("GIT_INDEX_FILE", None)

    # The hook's repository: this project as a clone of it holds it (sources, packaging, hooks file).
    hooks_repo = tmp_path / "kallisti"
    hooks_repo.mkdir()
    for name in ("pyproject.toml", "README.md", ".pre-commit-hooks.yaml"):
        shutil.copy2(ROOT / name, hooks_repo / name)
    shutil.copytree(ROOT / "src", hooks_repo / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    _git(hooks_repo, "init", "-q", env=env)
    _git(hooks_repo, "add", "-A", env=env)
    _git(hooks_repo, "commit", "-q", "-m", "kallisti", env=env)
    rev = _git(hooks_repo, "rev-parse", "HEAD", env=env).stdout.strip()

    # A repository of rulesets that adds the hook as the README says.
    project = tmp_path / "project"
    (project / "rulesets").mkdir(parents=True)
    (project / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {hooks_repo.as_posix()}\n    rev: {rev}\n    hooks: [{{id: kallisti-validate}}]\n", encoding="utf-8")
    shutil.copy2(EXAMPLES / "positive" / "twelve-thieves.yaml", project / "rulesets" / "twelve-thieves.yaml")
    _git(project, "init", "-q", env=env)
    subprocess.run([pre_commit, "install"], cwd=project, env=env, check=True, capture_output=True, timeout=120)
    _git(project, "add", "-A", env=env)
    ok = _git(project, "commit", "-m", "a valid variant", env=env, check=False)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "Validate kallisti rulesets" in ok.stdout + ok.stderr

    shutil.copy2(EXAMPLES / "negative" / "bad-pile-name.yaml", project / "rulesets" / "bad-pile-name.yaml")
    _git(project, "add", "-A", env=env)
    refused = _git(project, "commit", "-m", "a broken variant", env=env, check=False)
    output = refused.stdout + refused.stderr
    assert refused.returncode != 0, output
    assert "rulesets/bad-pile-name.yaml:7:16: error unknown-pile" in output, output
    assert _git(project, "rev-list", "--count", "HEAD", env=env).stdout.strip() == "1"
