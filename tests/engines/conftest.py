"""The magery-client wheel, built once per test process and installed apart
from the repository, for the tests that run programs on it."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from .wheels import CLIENT_PACKAGE, InstalledClient, build_wheel


@pytest.fixture(scope="session")
def client_wheel(tmp_path_factory: pytest.TempPathFactory) -> InstalledClient:
    folder = tmp_path_factory.mktemp("magery-client")
    # Built from a copy: two test processes building in packages/client at once
    # would share (and clear) its build directory.
    source = folder / "source"
    shutil.copytree(CLIENT_PACKAGE, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    wheel = build_wheel(source, folder / "dist")
    site = folder / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", "--target",
                    str(site), str(wheel)], check=True, capture_output=True, text=True)
    return InstalledClient(wheel, site)
