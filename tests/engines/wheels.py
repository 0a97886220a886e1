"""Building the packages of packages/ as wheels in a test, offline, and
checking what an index (PyPI) reads of them.

The build uses this venv's own setuptools (the build extra's, >=77, which dev
includes) and no package index at all: pip's isolated build environment would
fetch setuptools from the network at each run. twine is not a dependency of
the suite: `twine check` validates only that the description renders and the
metadata's required fields are there, which `ready_to_publish` checks itself.
"""

from __future__ import annotations

import email.parser
import os
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from email.message import Message
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CLIENT_PACKAGE = ROOT / "packages" / "client"


@dataclass(frozen=True)
class InstalledClient:
    """magery-client's wheel and the folder it is installed in (`pip install
    --target`), the PYTHONPATH of the programs run on it (conftest.py's `client_wheel`)."""

    wheel: Path
    site: Path


def build_wheel(package: Path, out: Path) -> Path:
    """The wheel of packages/<name>, built offline into `out`."""
    # A build directory left by an earlier build could carry a module since removed,
    # and the egg-info its file list.
    shutil.rmtree(package / "build", ignore_errors=True)
    for info in package.glob("*.egg-info"):
        shutil.rmtree(info, ignore_errors=True)
    offline = {**os.environ, "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": ""}  # a fetch would fail, not pass
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                            str(package), "--wheel-dir", str(out)], capture_output=True, text=True, env=offline)
    assert built.returncode == 0, built.stderr
    [wheel] = out.glob("*.whl")
    return wheel


def metadata(wheel: Path) -> tuple[Message, list[str]]:
    """The wheel's METADATA, parsed, and the names of the files in it."""
    with zipfile.ZipFile(wheel) as files:
        names = files.namelist()
        text = files.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    return email.parser.Parser().parsestr(text), names


def ready_to_publish(meta: Message, names: list[str], package: str) -> None:
    """What an index shows and installers rely on: a name and version, the
    Python it needs, its licence (an SPDX expression, and the file in the wheel),
    a Markdown description, classifiers, and the py.typed marker."""
    assert meta["Metadata-Version"] >= "2.4", meta["Metadata-Version"]  # License-Expression's version
    assert meta["Name"] and meta["Version"], meta
    assert meta["Requires-Python"] == ">=3.11", meta["Requires-Python"]
    assert meta["License-Expression"] == "MIT", meta["License-Expression"]
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names), names
    assert meta["Description-Content-Type"] == "text/markdown", meta["Description-Content-Type"]
    description = meta.get_payload()
    assert isinstance(description, str) and description.startswith("# "), description[:200]
    classifiers = meta.get_all("Classifier") or []
    assert "Typing :: Typed" in classifiers and "Programming Language :: Python :: 3.11" in classifiers, classifiers
    assert f"{package}/py.typed" in names, names
