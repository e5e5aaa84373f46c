"""The install routes of the README, run as written (issue #17, point 4).

Nothing here asks any package index for passlint: the wheel is built from this checkout
(``python -m build --no-isolation``, as the README and .ci/run do) and installed into a
fresh virtual environment; only its dependencies (pygls, lsprotocol, lark) come from the
index.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
import yaml
from recipes import README, REPO, env_with, new_venv, recipe, recipes

EXAMPLES = REPO / "examples"


def _git(repo: Path, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", *args], cwd=repo, env=env, capture_output=True, text=True, timeout=120
    )


def _git_env(env: dict[str, str], home: Path) -> dict[str, str]:
    return {
        **env,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
        "GIT_CONFIG_GLOBAL": "/dev/null",
        "GIT_CONFIG_NOSYSTEM": "1",
        "PRE_COMMIT_HOME": str(home / "pre-commit-home"),
    }


def test_the_readme_names_only_what_exists() -> None:
    text = README.read_text(encoding="utf-8")
    assert "pip install passlint" not in text  # no package of that name on any index here
    assert "github.com/passlint" not in text
    assert text.startswith(
        "# passlint\n\n```sh\n"
        "python3 -m venv .venv && .venv/bin/pip install -e '.[dev]' && "
        ".venv/bin/passlint check examples/\n"
        ".venv/bin/python -m pytest\n```\n"
    )
    names = set(recipes(README))
    assert {"build", "ci-steps", "github-workflow", "pre-commit"} <= names


def test_build_recipe_makes_the_wheel_and_sdist(distributions: tuple[Path, Path]) -> None:
    wheel, sdist = distributions
    version = __import__("passlint").__version__
    built = recipe(README, "build")
    assert f"dist/passlint-{version}-py3-none-any.whl" in built
    assert "python -m build --no-isolation --outdir dist ." in built
    assert wheel.name == f"passlint-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    assert {"passlint/analysis/mlir/mlir.lark", "passlint/py.typed", "passlint/cli.py"} <= names
    with tarfile.open(sdist) as archive:
        members = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert {"pyproject.toml", "README.md", "passlint/analysis/mlir/mlir.lark"} <= members


def test_a_fresh_environment_with_the_wheel_checks_the_examples(
    wheel_bin: Path, tmp_path: Path
) -> None:
    shutil.copytree(EXAMPLES, tmp_path / "examples")
    env = env_with(wheel_bin)
    result = subprocess.run(
        ["passlint", "check", "examples/"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert result.returncode == 1, result.stderr  # the examples have findings, on purpose
    assert "examples/return_input_twice.mlir:3:12: TL001" in result.stdout
    assert "examples/softmax_prepare.py" in result.stdout
    where = subprocess.run(
        [str(wheel_bin / "python"), "-c", "import passlint; print(passlint.__file__)"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert "site-packages" in where.stdout  # the installed wheel, not this checkout


def test_ci_steps_as_written(distributions: tuple[Path, Path], tmp_path: Path) -> None:
    steps = [line for line in recipe(README, "ci-steps").splitlines() if line.strip()]
    workflow = yaml.safe_load(recipe(README, "github-workflow"))
    runs = [step["run"] for step in workflow["jobs"]["passlint"]["steps"] if "run" in step]
    assert runs == steps  # the workflow runs exactly the tested steps
    repo = tmp_path / "repo"
    shutil.copytree(EXAMPLES, repo / "examples")
    (repo / "tools").mkdir()
    shutil.copy(distributions[0], repo / "tools")
    env = env_with(new_venv(tmp_path / "ci-env"))  # the CI machine's Python, nothing else
    install, annotate, sarif = steps
    done = subprocess.run(["bash", "-c", install], cwd=repo, env=env, capture_output=True)
    assert done.returncode == 0, done.stderr
    found = subprocess.run(
        ["bash", "-c", annotate], cwd=repo, env=env, capture_output=True, text=True
    )
    assert found.returncode == 1, found.stderr
    assert re.search(
        r"^::warning file=examples/return_input_twice\.mlir,line=3,", found.stdout, re.M
    )
    uploaded = subprocess.run(["bash", "-c", sarif], cwd=repo, env=env, capture_output=True)
    assert uploaded.returncode == 0, uploaded.stderr
    document = json.loads((repo / "passlint.sarif").read_text())
    assert document["version"] == "2.1.0" and document["runs"][0]["results"]


def test_pre_commit_recipe_as_written(wheel_bin: Path, tmp_path: Path) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path / "repo"
    repo.mkdir()
    env = _git_env(env_with(wheel_bin), tmp_path)
    assert _git(repo, "init", "-q", env=env).returncode == 0
    (repo / ".pre-commit-config.yaml").write_text(recipe(README, "pre-commit"))
    shutil.copytree(EXAMPLES, repo / "examples")
    (repo / "notes.txt").write_text("not checked\n")
    _git(repo, "add", ".", env=env)
    pre_commit = [sys.executable, "-m", "pre_commit"]
    install = subprocess.run([*pre_commit, "install"], cwd=repo, env=env, capture_output=True)
    assert install.returncode == 0, install.stderr
    blocked = _git(repo, "commit", "-q", "-m", "examples", env=env)
    assert blocked.returncode == 1  # the hook found the examples' findings
    output = blocked.stdout + blocked.stderr
    assert "examples/return_input_twice.mlir:3:12: TL001" in output
    assert "Failed" in output
    # Fixed files pass (TL006 is information, below the default --fail-on warning).
    fixed = subprocess.run(
        ["passlint", "check", "--fix", "examples"], cwd=repo, env=env, capture_output=True
    )
    assert fixed.returncode == 0, fixed.stdout
    _git(repo, "add", ".", env=env)
    committed = _git(repo, "commit", "-q", "-m", "examples, fixed", env=env)
    assert committed.returncode == 0, committed.stdout + committed.stderr
