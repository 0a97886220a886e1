"""The compiled engine and the pure-Python one are the same engine.

scripts/install compiles app/rules (and the strong level's hot modules) with
mypyc into the venv (scripts/build_engine.py); every process of the venv then
runs the compiled modules, as long as each source is the one compiled. The
rest of tests/rules runs on whichever engine this process loaded. Here the
pure-Python engine runs too, in a subprocess, on the pinned perft counts and
the refusals of malformed input; and the loader is held to its promise: an
edited source, or MAGERY_PURE_PYTHON=1, gives the sources, never a stale build.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _build_engine() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_engine", ROOT / "scripts" / "build_engine.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _engine_files(env: dict[str, str]) -> list[str]:
    code = ("import json, sys, app.bots, app.rules.engine; "
            "print(json.dumps([m.__file__ for n, m in sorted(sys.modules.items()) "
            "if n.startswith(('app.rules.', 'app.bots.')) and getattr(m, '__file__', None)]))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, check=True)
    files: list[str] = json.loads(done.stdout)
    return files


def test_the_pure_python_engine_gives_the_pinned_perft_counts_and_refusals():
    env = {**os.environ, "MAGERY_PURE_PYTHON": "1"}
    files = _engine_files(env)
    assert files and all(f.endswith(".py") for f in files), files
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
         "tests/rules/test_perft.py", "tests/rules/test_errors.py", "tests/rules/test_structure.py"],
        cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


def test_the_compiled_engine_runs_wherever_it_was_built():
    build = Path(sys.prefix) / "magery-engine"
    if not (build / "manifest.json").exists():
        pytest.skip("no compiled engine in this venv (no C compiler or mypy): pure Python only")
    files = _engine_files({k: v for k, v in os.environ.items() if k != "MAGERY_PURE_PYTHON"})
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    compiled = {Path(f).name for f in files if f.endswith(suffix)}
    assert {f"engine{suffix}", f"state{suffix}", f"evaluate{suffix}", f"search{suffix}"} <= compiled
    # Each compiled module's __file__ names the file it was loaded from.
    assert all(Path(f).exists() for f in files)


def _fake_build(tmp_path: Path, source: str) -> tuple[Path, Path]:
    root, build = tmp_path / "root", tmp_path / "build"
    (root / "app" / "rules").mkdir(parents=True)
    build.mkdir()
    src = root / "app" / "rules" / "engine.py"
    src.write_text(source)
    manifest = {"root": str(root), "ext_suffix": sysconfig.get_config_var("EXT_SUFFIX"),
                "sources": {"app/rules/engine.py": hashlib.sha256(source.encode()).hexdigest()},
                "modules": {"app.rules.engine": "app/rules/engine.so"}}
    (build / "manifest.json").write_text(json.dumps(manifest))
    return src, build


def test_the_loader_serves_a_build_only_while_its_sources_are_unchanged(tmp_path):
    finder_class = _build_engine()._Finder
    src, build = _fake_build(tmp_path, "x = 1\n")
    assert finder_class(str(build))._check() == {"app.rules.engine": str(build / "app/rules/engine.so")}
    src.write_text("x = 2\n")
    assert finder_class(str(build))._check() == {}
    src.unlink()
    assert finder_class(str(build))._check() == {}


def test_the_loader_refuses_a_build_for_another_interpreter_or_a_broken_manifest(tmp_path):
    finder_class = _build_engine()._Finder
    _, build = _fake_build(tmp_path, "x = 1\n")
    manifest = json.loads((build / "manifest.json").read_text())
    (build / "manifest.json").write_text(json.dumps({**manifest, "ext_suffix": ".other.so"}))
    assert finder_class(str(build))._check() == {}
    (build / "manifest.json").write_text("{")
    assert finder_class(str(build))._check() == {}
    (build / "manifest.json").unlink()
    assert finder_class(str(build))._check() == {}


def test_the_machines_cache_keys_a_build_by_what_it_was_built_from_not_where(tmp_path, monkeypatch):
    builder = _build_engine()
    monkeypatch.setenv(builder.CACHE_ENV, str(tmp_path / "cache"))
    wanted = {"root": "/one/checkout", "ext_suffix": ".so", "python": "3.11", "mypy": "1",
              "builder": "b", "sources": {"app/rules/engine.py": "aa"}}
    here = builder._cached(wanted)
    assert here is not None and here.startswith(str(tmp_path / "cache"))
    # Another checkout of the same sources takes the same build...
    assert builder._cached({**wanted, "root": "/another/worktree"}) == here
    # ...an edited source, another mypy or another Python never does.
    for changed in ({"sources": {"app/rules/engine.py": "ab"}}, {"mypy": "2"}, {"python": "3.12"}):
        assert builder._cached({**wanted, **changed}) != here, changed
    monkeypatch.setenv(builder.CACHE_ENV, "off")
    assert builder._cached(wanted) is None


def test_a_build_enters_the_cache_whole_and_once(tmp_path):
    builder = _build_engine()
    build = tmp_path / "build"
    build.mkdir()
    (build / "manifest.json").write_text('{"modules": {}}')
    cached = tmp_path / "cache" / "key"
    cached.parent.mkdir()
    builder._keep(str(build), str(cached))
    assert (cached / "manifest.json").read_text() == '{"modules": {}}'
    (build / "manifest.json").write_text('{"modules": {"changed": 1}}')
    builder._keep(str(build), str(cached))  # the first one stays: a key names one build
    assert (cached / "manifest.json").read_text() == '{"modules": {}}'
    assert [p.name for p in cached.parent.iterdir()] == ["key"]  # no part left behind
    builder._keep(str(build), None)  # off: nothing kept, nothing fails
