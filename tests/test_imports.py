"""Importing any module of app/ changes nothing: no logger is rewired, no
database engine is made, no settings are read. The server is built only by
`app.main:create_app`, which uvicorn calls (`--factory`).

The imports run in a fresh interpreter, so what this test process has already
configured cannot hide a module that configures it again.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Runs in the child: records the logging configuration, counts engines made
# (the factories are replaced before any app module is imported, so a module
# that binds them at import time binds the counting ones), imports every
# module, and prints what changed.
PROBE = r"""
import importlib, json, logging, pkgutil, sys
import sqlalchemy, sqlalchemy.ext.asyncio as aio

made = []
def counting(real):
    def make(*args, **kwargs):
        made.append(str(args[0]) if args else "?")
        return real(*args, **kwargs)
    return make
sqlalchemy.create_engine = counting(sqlalchemy.create_engine)
aio.create_async_engine = counting(aio.create_async_engine)

def picture():
    names = ["", "uvicorn", "uvicorn.error", "uvicorn.access", "sqlalchemy", "app"]
    out = {}
    for name in names:
        logger = logging.getLogger(name)
        out[name or "root"] = [logger.level, logger.propagate, logger.disabled,
                               [type(h).__name__ for h in logger.handlers]]
    return out

before = picture()
import app
modules = []
for info in pkgutil.walk_packages(app.__path__, "app."):
    if info.name.endswith("__main__"):
        continue
    importlib.import_module(info.name)
    modules.append(info.name)
print(json.dumps({"modules": modules, "before": before, "after": picture(), "engines": made}))
"""


def _import_everything() -> dict:
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, env={"PATH": "/usr/bin:/bin", "HOME": "/tmp"})
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_importing_every_module_changes_no_logger_and_makes_no_engine() -> None:
    seen = _import_everything()
    assert "app.main" in seen["modules"] and len(seen["modules"]) > 50
    assert seen["after"] == seen["before"], "importing app/ changed the logging configuration"
    assert seen["engines"] == [], f"importing app/ made database engines: {seen['engines']}"


def test_the_server_is_served_by_its_factory() -> None:
    import app.main

    assert not hasattr(app.main, "app"), "app.main builds an application at import"
    serve = (ROOT / "scripts" / "serve").read_text()
    assert "--factory app.main:create_app" in serve
