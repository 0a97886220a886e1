"""The image ships the compiled engine, never the pure-Python one silently.

No Docker daemon runs here, so the Dockerfile and the scripts its build stage
runs are read: a C compiler is installed before scripts/install-image, which
builds with the build extra (mypy) and MAGERY_REQUIRE_COMPILED=1 and then drops
the build's tools; the runtime stage takes the .venv that holds the built
modules and turns nothing off. And scripts/build_engine.py is run, in a venv of
its own, where the build cannot succeed: asked for the compiled engine, it
fails with a reason; not asked, it falls back as a checkout does.
(docs/operations.md: the same build stage reproduced in a fresh clone.)"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import subprocess
import sysconfig
import tomllib
import venv
from pathlib import Path
from types import ModuleType

from tests.ops.conftest import ROOT
from tests.ops.test_image import _stages

INSTALL_IMAGE = (ROOT / "scripts" / "install-image").read_text()
DOCKERFILE = (ROOT / "Dockerfile").read_text()


def _build_engine() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_engine", ROOT / "scripts" / "build_engine.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _commands(script: str) -> list[str]:
    return [line.strip() for line in script.splitlines() if line.strip() and not line.strip().startswith("#")]


def test_the_build_stage_has_a_compiler_and_requires_the_compiled_engine() -> None:
    build = _stages(DOCKERFILE)[0]
    compiler = next(i for i, line in enumerate(build) if line.startswith("RUN ") and "apt-get install" in line)
    assert {"gcc", "libc6-dev"} <= set(build[compiler].split())
    install = next(i for i, line in enumerate(build) if line.startswith("RUN ") and "scripts/install-image" in line)
    assert compiler < install
    copied = " ".join(line for line in build[:install] if line.startswith("COPY "))
    for needed in ("pyproject.toml", "uv.lock", "scripts", "app"):
        assert f" {needed} " in f" {copied} ", needed

    # The script: the variable build_engine.py reads, set for both installs; the
    # build extra first, then the runtime set alone, last.
    commands = _commands(INSTALL_IMAGE)
    required = f"export {_build_engine().REQUIRE_ENV}=1"
    assert required in commands
    installs = [c for c in commands if c.startswith("bash scripts/install ")]
    assert installs == ["bash scripts/install build", 'bash scripts/install ""']
    assert commands.index(required) < commands.index(installs[0])
    assert "set -euo pipefail" in commands  # a failed step fails the image


def test_the_build_extra_holds_the_compiler_side_and_the_runtime_set_does_not() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = {re.split(r"[<>=!\[; ]", spec, maxsplit=1)[0].lower() for spec in project["optional-dependencies"]["build"]}
    assert {"mypy", "setuptools"} <= names
    runtime = {re.split(r"[<>=!\[; ]", spec, maxsplit=1)[0].lower() for spec in project["dependencies"]}
    assert not runtime & {"mypy", "setuptools"}


def test_the_runtime_stage_takes_the_built_venv_and_no_compiler() -> None:
    final = _stages(DOCKERFILE)[-1]
    assert any(re.match(r"COPY --from=build /srv/magery/\.venv \./\.venv$", line) for line in final)
    text = " ".join(final)
    assert "MAGERY_PURE_PYTHON" not in DOCKERFILE  # nothing asks for the slow engine
    assert "gcc" not in text and "scripts/install-image" not in text
    # The build's root is the runtime's: the loader serves the build only while
    # the sources at that root are the ones it compiled.
    workdirs = {line.split()[1] for stage in _stages(DOCKERFILE) for line in stage if line.startswith("WORKDIR ")}
    assert workdirs == {"/srv/magery"}
    ignored = (ROOT / ".dockerignore").read_text().splitlines()
    assert not {"uv.lock", "scripts", "app"} & set(ignored)


def _venv(where: Path, *, with_mypy: bool) -> Path:
    """A venv of its own for build_engine.py (its build goes into sys.prefix), mypy lent by this one."""
    venv.create(where, with_pip=False)
    python = where / "bin" / "python"
    if with_mypy:
        site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                              capture_output=True, text=True, check=True).stdout.strip()
        # A path line, not this venv's site dir: its magery-engine.pth is not run there.
        Path(site, "lend.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return python


def _run_build(python: Path, where: Path, **env: str) -> subprocess.CompletedProcess[str]:
    empty = where / "no-tools"
    empty.mkdir(exist_ok=True)
    keep = {k: v for k, v in os.environ.items() if k not in ("MAGERY_REQUIRE_COMPILED", "MAGERY_PURE_PYTHON")}
    # A cache of its own: the machine's may hold a build, which a machine with no compiler has not.
    cache = str(where / "engine-cache")
    return subprocess.run([python, ROOT / "scripts" / "build_engine.py"], capture_output=True, text=True,
                          env={**keep, "PATH": str(empty), "MAGERY_ENGINE_CACHE": cache, **env}, timeout=300)


def test_a_build_without_a_compiler_fails_the_image_and_falls_back_in_a_checkout(tmp_path: Path) -> None:
    python = _venv(tmp_path / "venv", with_mypy=True)
    required = _run_build(python, tmp_path, MAGERY_REQUIRE_COMPILED="1")
    assert required.returncode == 1, required
    assert "no C compiler" in required.stdout
    assert "MAGERY_REQUIRE_COMPILED=1 and the engine would run as pure Python" in required.stderr
    asked = subprocess.run([python, ROOT / "scripts" / "build_engine.py", "--require-compiled"],
                           capture_output=True, text=True, env={**os.environ, "PATH": str(tmp_path / "no-tools"),
                                                                  "MAGERY_ENGINE_CACHE": str(tmp_path / "engine-cache")})
    assert asked.returncode == 1, asked
    checkout = _run_build(python, tmp_path)
    assert checkout.returncode == 0, checkout
    assert "no C compiler" in checkout.stdout and "runs as pure Python" in checkout.stdout
    assert not (tmp_path / "venv" / "magery-engine").exists()


def test_a_build_without_mypy_fails_the_image(tmp_path: Path) -> None:
    python = _venv(tmp_path / "venv", with_mypy=False)
    required = _run_build(python, tmp_path, MAGERY_REQUIRE_COMPILED="1", PATH=os.environ.get("PATH", ""))
    assert required.returncode == 1, required
    assert "mypy is not installed" in required.stdout
    assert "failing rather than shipping the slow engine" in required.stderr


def test_the_runtime_stage_keeps_a_build_that_matches_the_sources(tmp_path: Path) -> None:
    """scripts/serve runs the install at every start: with mypy gone, a matching build stays."""
    python = _venv(tmp_path / "venv", with_mypy=False)
    build = tmp_path / "venv" / _build_engine().BUILD_NAME
    build.mkdir()
    source = "app/rules/engine.py"
    manifest = {"root": str(ROOT), "ext_suffix": sysconfig.get_config_var("EXT_SUFFIX"),
                "sources": {source: hashlib.sha256((ROOT / source).read_bytes()).hexdigest()},
                "modules": {"app.rules.engine": "app/rules/engine.so"}}
    (build / "manifest.json").write_text(json.dumps(manifest))
    kept = _run_build(python, tmp_path, PATH=os.environ.get("PATH", ""))
    assert kept.returncode == 0 and "built before matches the sources" in kept.stdout, kept
    assert (build / "manifest.json").exists()
    # A source edited since: the build is stale, and goes.
    (build / "manifest.json").write_text(json.dumps({**manifest, "sources": {source: "0" * 64}}))
    stale = _run_build(python, tmp_path, PATH=os.environ.get("PATH", ""))
    assert stale.returncode == 0 and "engine runs as pure Python" in stale.stdout, stale
    assert not build.exists()
