"""Every dependency comes from the lock: uv.lock holds each extra of
pyproject.toml with the hashes of every file, scripts/install (and through it
scripts/test, CI and the Dockerfile) installs from it and refuses a stale one,
and this venv - the one the suite runs in - holds exactly the locked versions."""

from __future__ import annotations

import importlib.metadata
import re
import sysconfig
import tomllib

from tests.ops.conftest import ROOT

LOCK = tomllib.loads((ROOT / "uv.lock").read_text())
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _locked() -> dict[str, list[dict[str, object]]]:
    found: dict[str, list[dict[str, object]]] = {}
    for package in LOCK["package"]:
        found.setdefault(package["name"], []).append(package)
    return found


def test_the_lock_holds_every_extra_and_a_hash_for_every_file() -> None:
    ours = _locked()["magery-online"][0]
    assert ours["source"] == {"editable": "."}
    assert set(ours["optional-dependencies"]) == set(PYPROJECT["project"]["optional-dependencies"])  # type: ignore[arg-type]
    assert LOCK["requires-python"] == PYPROJECT["project"]["requires-python"]
    for name, versions in _locked().items():
        for package in versions:
            if "registry" not in package["source"]:  # type: ignore[operator]
                continue
            files = [package["sdist"]] if "sdist" in package else []
            files += package.get("wheels", [])  # type: ignore[operator]
            assert files, name
            assert all(re.fullmatch(r"sha256:[0-9a-f]{64}", f["hash"]) for f in files), name  # type: ignore[index]


def test_the_projects_own_build_and_uv_are_pinned_as_the_lock_says() -> None:
    uv = PYPROJECT["tool"]["uv"]
    setuptools = [p["version"] for p in _locked()["setuptools"]]
    assert uv["build-constraint-dependencies"] == [f"setuptools=={v}" for v in setuptools]
    pins = (ROOT / "scripts" / "uv-requirements.txt").read_text()
    pinned = re.findall(r"^uv==(\S+) \\$", pins, re.M)
    assert [f"=={v}" for v in pinned] == [uv["required-version"]]
    assert len(re.findall(r"--hash=sha256:[0-9a-f]{64}", pins)) > 1  # every platform's wheel


def test_every_install_goes_through_the_locked_sync() -> None:
    install = (ROOT / "scripts" / "install").read_text()
    assert re.search(r"^\s*UV_PROJECT_ENVIRONMENT=\.venv bash scripts/uv sync --locked ", install, re.M)
    assert "pip install" not in install
    assert "bash scripts/install " in (ROOT / "scripts" / "test").read_text()
    assert "./scripts/test" in (ROOT / ".ci" / "run").read_text()
    assert "bash scripts/install " in (ROOT / "scripts" / "serve").read_text()
    assert "bash scripts/install " in (ROOT / "scripts" / "install-image").read_text()
    assert "pip install" not in (ROOT / "Dockerfile").read_text()
    readme = (ROOT / "README.md").read_text()
    assert "scripts/uv lock --upgrade-package" in readme and "uv.lock" in readme


def test_this_venv_holds_exactly_the_locked_versions() -> None:
    locked = {name: {str(p["version"]) for p in versions} for name, versions in _locked().items()}
    installed = {_canonical(d.metadata["Name"]): d.version
                 for d in importlib.metadata.distributions(path=[sysconfig.get_paths()["purelib"]])}
    assert installed, "no distribution found in this venv's site-packages"
    strays = {name: version for name, version in installed.items() if version not in locked.get(name, set())}
    assert not strays, f"installed but not locked at that version (scripts/install syncs exactly): {strays}"
    # The suite's own tools are among them, so the suite runs on the locked set.
    assert {"pytest", "fastapi", "mypy", "chess", "playwright"} <= set(installed)
