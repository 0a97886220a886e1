"""The compiled engine: app/rules and the strong level's hot modules built with mypyc.

Two jobs in one file, so the build and the loader cannot drift apart:

- run as a script (`.venv/bin/python scripts/build_engine.py`; `scripts/install`
  does it), it compiles the modules of `compiled_sources()` with mypyc into
  `.venv/magery-engine/`, writes a manifest of the sources it compiled (their
  sha256), and installs this file into the venv's site-packages as
  `_magery_engine` with a `.pth` line that runs `install()` at start-up;
- imported as `_magery_engine`, `install()` puts a finder first on
  `sys.meta_path` that serves those modules from the build, and only while every
  source is byte for byte the one compiled. An edited source, or
  MAGERY_PURE_PYTHON=1 in the environment, gives the pure-Python engine: the
  sources themselves are never shadowed by a stale build.

Run with MAGERY_REQUIRE_COMPILED=1 (or --require-compiled), as the Docker
image's build does (scripts/install-image), it fails - exit status 1 - whenever
the venv would not end up running the compiled engine, instead of falling back.

Why compiled, and why this way: mypyc makes the engine ~1.5-2x faster (perft,
legal actions) and the search ~2x (docs/bots.md, bench/rules.py); the sources
stay plain typed Python, the same files in both engines, and the pure-Python
engine stays the fallback: a machine with no C compiler, or a failed build,
runs it (with a note), and tests/rules/test_compiled.py runs it in every test
run. The build lives in the venv, beside the interpreter it was built for;
app/rules reads no file and knows nothing of it (it stays pure, test_layers).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import sysconfig
from collections.abc import Sequence
from types import ModuleType
from typing import Any

BUILD_NAME = "magery-engine"  # the build's directory, in the venv (sys.prefix)
# mypyc's shared library, magery_engine__mypyc: top-level, so that the modules'
# __file__, which mypyc derives from its place, name the right files.
GROUP = "magery_engine"
PURE_ENV = "MAGERY_PURE_PYTHON"
# A build made once is kept in a cache shared by every checkout of the machine
# (git worktrees, a fresh clone), keyed by everything the build depends on but
# the checkout's own path: compiling takes minutes of both cores, copying a
# build a second. "off" builds afresh and keeps nothing (the image's build).
CACHE_ENV = "MAGERY_ENGINE_CACHE"
# Production must run the engine that was measured: the image's build sets it.
REQUIRE_ENV = "MAGERY_REQUIRE_COMPILED"
# The strong level's modules that run per node searched; the rest of app/bots
# (the runner, greedy, setup) is not worth a build.
BOT_MODULES = ("board", "candidates", "evaluate", "search")


def _sha256(path: str) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def _build_dir() -> str:
    return os.path.join(sys.prefix, BUILD_NAME)


# ---- the loader (runs in every process of the venv) ------------------------------------

class _Finder(importlib.abc.MetaPathFinder):
    """Serves the compiled modules while the build matches the sources."""

    def __init__(self, build: str) -> None:
        self.build = build
        self.modules: dict[str, str] | None = None  # module name -> .so, once checked

    def _check(self) -> dict[str, str]:
        try:
            with open(os.path.join(self.build, "manifest.json")) as f:
                manifest = json.load(f)
            if manifest["ext_suffix"] != sysconfig.get_config_var("EXT_SUFFIX"):
                return {}
            for rel, digest in manifest["sources"].items():
                if _sha256(os.path.join(manifest["root"], rel)) != digest:
                    return {}  # a source changed since the build: run it as Python
            return {name: os.path.join(self.build, path)
                    for name, path in manifest["modules"].items()}
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return {}

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith(("app.", GROUP)):
            return None
        if self.modules is None:
            self.modules = self._check()
        found = self.modules.get(fullname)
        if found is None:
            return None
        return importlib.util.spec_from_file_location(fullname, found)


def install() -> None:
    """Called at start-up by the venv's magery-engine.pth."""
    if os.environ.get(PURE_ENV) or not os.path.isdir(_build_dir()):
        return
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder(_build_dir()))


def active() -> bool:
    """Whether this process runs the compiled engine (for tests and benches)."""
    module = importlib.import_module("app.rules.engine")
    return not (module.__file__ or "").endswith(".py")


# ---- the build (scripts/install) -------------------------------------------------------

def compiled_sources(root: str) -> list[str]:
    """The modules compiled, as paths relative to the project's root."""
    rules = sorted(f"app/rules/{n}" for n in os.listdir(os.path.join(root, "app", "rules"))
                   if n.endswith(".py") and n != "__init__.py")
    return rules + [f"app/bots/{m}.py" for m in BOT_MODULES]


def _wanted(root: str) -> dict[str, Any]:
    import mypy.version  # the build extra's; without it, build() says so

    sources = compiled_sources(root)
    return {"root": root, "ext_suffix": sysconfig.get_config_var("EXT_SUFFIX"),
            "python": sys.version, "mypy": mypy.version.__version__,
            "builder": _sha256(os.path.abspath(__file__)),  # its options: rebuilt when they change
            "sources": {rel: _sha256(os.path.join(root, rel)) for rel in sources}}


def _cached(wanted: dict[str, Any]) -> str | None:
    """Where a build of exactly `wanted` is kept in the machine's cache, or None (off)."""
    base = os.environ.get(CACHE_ENV, "")
    if base == "off":
        return None
    if not base:
        base = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), BUILD_NAME)
    same = json.dumps({k: v for k, v in wanted.items() if k != "root"}, sort_keys=True)
    return os.path.join(base, hashlib.sha256(same.encode()).hexdigest()[:32])


def _keep(build: str, cached: str | None) -> None:
    """Copies a fresh build that loads into the cache (a failure only costs the next
    checkout a build)."""
    import shutil

    if cached is None or os.path.isdir(cached):
        return
    part = f"{cached}.{os.getpid()}.part"
    try:
        shutil.copytree(build, part)
        os.replace(part, cached)  # whole or not at all, even with two installs at once
    except OSError:
        shutil.rmtree(part, ignore_errors=True)


def _compiler_missing() -> str | None:
    import shutil

    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        return f"no C compiler ({cc})"
    include = sysconfig.get_paths()["include"]
    if not os.path.exists(os.path.join(include, "Python.h")):
        return f"no Python headers ({include}/Python.h)"
    return None


def _install_loader() -> None:
    site = sysconfig.get_paths()["purelib"]
    with open(__file__, encoding="utf-8") as f:
        source = f.read()
    with open(os.path.join(site, "_magery_engine.py"), "w", encoding="utf-8") as f:
        f.write(source)
    with open(os.path.join(site, "magery-engine.pth"), "w", encoding="utf-8") as f:
        f.write("import _magery_engine; _magery_engine.install()\n")


def build(root: str) -> str:
    """Compile, unless the build in the venv already matches; returns what was done."""
    import shutil
    import subprocess
    import tempfile

    target = _build_dir()
    try:
        wanted = _wanted(root)
    except ImportError:
        # The image drops the build's tools once the engine is built: a build that
        # still matches the sources is kept (and this venv may be read-only).
        if _Finder(target)._check():
            return "the compiled engine built before matches the sources (no mypy here to rebuild it)"
        shutil.rmtree(target, ignore_errors=True)
        return "mypy is not installed (the build extra): the engine runs as pure Python"
    try:
        with open(os.path.join(target, "manifest.json")) as f:
            have = json.load(f)
    except (OSError, ValueError):
        have = None
    if have is not None and {k: have.get(k) for k in wanted} == wanted:
        _install_loader()  # this file may have changed
        return "the compiled engine is up to date"
    shutil.rmtree(target, ignore_errors=True)
    cached = _cached(wanted)
    if cached is not None and os.path.isfile(os.path.join(cached, "manifest.json")):
        staging = target + ".new"
        shutil.rmtree(staging, ignore_errors=True)
        shutil.copytree(cached, staging)
        with open(os.path.join(staging, "manifest.json")) as f:
            modules = json.load(f)["modules"]
        with open(os.path.join(staging, "manifest.json"), "w") as f:
            json.dump({**wanted, "modules": modules}, f, indent=1)  # this checkout's root
        os.replace(staging, target)
        _install_loader()
        if loads_compiled(root) is None:
            return f"the compiled engine came from the cache ({cached}, {len(modules)} modules)"
        shutil.rmtree(target, ignore_errors=True)
        shutil.rmtree(cached, ignore_errors=True)  # a cached build that does not load is built again
    missing = _compiler_missing()
    if missing:
        return f"{missing}: the engine runs as pure Python"
    work = tempfile.mkdtemp(prefix="magery-engine-")
    try:
        for rel in wanted["sources"]:
            os.makedirs(os.path.join(work, os.path.dirname(rel)), exist_ok=True)
            shutil.copy(os.path.join(root, rel), os.path.join(work, rel))
        # The packages' own __init__ files import the whole app; the build needs
        # app.rules' (its names, for the bots' modules) and empty ones above it.
        shutil.copy(os.path.join(root, "app", "rules", "__init__.py"),
                    os.path.join(work, "app", "rules", "__init__.py"))
        for package in ("app", "app/bots"):
            open(os.path.join(work, package, "__init__.py"), "w").close()
        with open(os.path.join(work, "setup.py"), "w") as f:
            f.write("from setuptools import setup\nfrom mypyc.build import mypycify\n"
                    f"setup(name='magery-engine', ext_modules=mypycify({sorted(wanted['sources'])!r},"
                    f" opt_level='3', group_name={GROUP!r}))\n")
        done = subprocess.run(
            [sys.executable, "setup.py", "build_ext", "--build-lib", "out", "--build-temp", "tmp"],
            cwd=work, capture_output=True, text=True)
        if done.returncode:
            sys.stderr.write(done.stdout[-4000:] + done.stderr[-4000:])
            return "the mypyc build failed (above): the engine runs as pure Python"
        suffix = wanted["ext_suffix"]
        modules = {}
        out = os.path.join(work, "out")
        for dirpath, _, files in os.walk(out):
            for name in files:
                if name.endswith(suffix):
                    rel = os.path.relpath(os.path.join(dirpath, name), out)
                    modules[rel[:-len(suffix)].replace(os.sep, ".")] = rel
        staging = target + ".new"
        shutil.rmtree(staging, ignore_errors=True)
        shutil.copytree(out, staging)
        with open(os.path.join(staging, "manifest.json"), "w") as f:
            json.dump({**wanted, "modules": modules}, f, indent=1)
        os.replace(staging, target)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    _install_loader()
    if loads_compiled(root) is not None:
        shutil.rmtree(target, ignore_errors=True)
        return "the compiled engine did not load (above): the engine runs as pure Python"
    _keep(target, cached)
    return f"compiled the engine with mypyc ({len(modules)} modules)"


def loads_compiled(root: str) -> str | None:
    """None when a new process of this venv runs the compiled engine, else what it said."""
    import subprocess

    env = {k: v for k, v in os.environ.items() if k != PURE_ENV}
    check = subprocess.run(
        [sys.executable, "-c", "import _magery_engine as m; print(m.active(), m.compiled_modules())"],
        cwd=root, capture_output=True, text=True, env=env)
    if check.stdout.startswith("True ") and int(check.stdout.split()[1]) > 0:
        print("magery engine: a new process loads", check.stdout.split()[1], "compiled modules")
        return None
    if check.returncode == 0:
        return "pure Python (a new process of this venv loads no compiled module)"
    said = (check.stdout + check.stderr).strip()[-4000:]
    sys.stderr.write(said + "\n")
    return f"pure Python (a new process of this venv failed: exit status {check.returncode}, above)"


def compiled_modules() -> int:
    """How many of this process's loaded modules come from the build (for the checks)."""
    build = _build_dir()
    return sum(1 for module in list(sys.modules.values())
               if (getattr(module, "__file__", None) or "").startswith(build + os.sep))


def main(argv: Sequence[str]) -> int:
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    required = "--require-compiled" in argv or os.environ.get(REQUIRE_ENV, "") not in ("", "0")
    try:
        said = build(root)
    except Exception as error:  # the sources always run: never fail the install (unless required)
        import shutil

        shutil.rmtree(_build_dir(), ignore_errors=True)
        said = f"the build stopped ({error!r}): the engine runs as pure Python"
    print("magery engine:", said)
    if not required:
        return 0
    # Whatever the build said, what counts is what a new process of this venv runs
    # (a fresh build has just asked one).
    if "pure Python" in said:
        problem: str | None = "pure Python"
    elif said.startswith("compiled the engine"):
        problem = None
    else:
        problem = loads_compiled(root)
    if problem is None:
        return 0
    sys.stderr.write(f"magery engine: {REQUIRE_ENV}=1 and the engine would run as {problem}: "
                     "failing rather than shipping the slow engine\n")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
