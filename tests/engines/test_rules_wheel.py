"""The rules engine on its own (issue 21): packages/rules builds a wheel of
app/rules, named magery_rules, that installs into a fresh venv with no server
dependency, carries its py.typed marker there, and plays a whole random game.

One test, a few seconds: the build is most of it. It is made offline, with this
venv's own setuptools (the build extra's, >=77, which dev includes) and no package index at all: pip's
isolated build environment would fetch setuptools from the network at each run.
The venv is made without pip (fast); this venv's pip installs into it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "packages" / "rules"

# Run inside the fresh venv: the server's libraries are not there, and the
# engine plays a random game to its end (or a bound) through its public API.
GAME = """
import importlib.util, pathlib, random, sys
for name in ("fastapi", "sqlalchemy", "pydantic", "app"):
    assert importlib.util.find_spec(name) is None, name + " is importable"
import magery_rules as rules
assert rules.__file__.startswith(sys.prefix), rules.__file__
assert (pathlib.Path(rules.__file__).parent / "py.typed").is_file(), "no py.typed installed"
rng = random.Random(7)
state = rules.new_match(seed="0123456789abcdef0123456789abcdef", no_progress_rounds=3)
played = 0
while state.phase != rules.OVER and played < 3000:
    if rules.setup_choices(state):
        row = rules.setup_choices(state)
        rng.shuffle(row)
        action = {"type": "setup", "backrow": row}
    else:
        action = rules.action_json(rng.choice(rules.legal_actions(state)))
    state, _ = rules.apply(state, action)
    played += 1
back = rules.from_text(rules.to_text(state))
assert rules.to_text(back) == rules.to_text(state)
print(played, rules.PHASES[state.phase], rules.public_view(state)["result"])
"""


def test_the_rules_wheel_installs_alone_and_plays_a_game(tmp_path: Path) -> None:
    # A build directory left by an earlier build could carry a module since removed.
    shutil.rmtree(PACKAGE / "build", ignore_errors=True)
    shutil.rmtree(PACKAGE / "magery_rules.egg-info", ignore_errors=True)  # its file list, likewise
    offline = {**os.environ, "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": ""}  # a fetch would fail, not pass
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                            str(PACKAGE), "--wheel-dir", str(tmp_path / "dist")],
                           capture_output=True, text=True, env=offline)
    assert built.returncode == 0, built.stderr
    [wheel] = (tmp_path / "dist").glob("magery_rules-*.whl")
    with zipfile.ZipFile(wheel) as files:
        names = files.namelist()
        metadata = files.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert "Requires-Dist" not in metadata, metadata  # it asks pip for nothing
    assert "magery_rules/engine.py" in names and not any(n.startswith("app/") for n in names), names
    assert "magery_rules/py.typed" in names, names

    env = tmp_path / "env"
    venv.create(env, with_pip=False)
    python = env / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps",
                    "--no-index", str(wheel)], check=True, capture_output=True, text=True)
    done = subprocess.run([str(python), "-I", "-c", GAME], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    played, phase, result = done.stdout.split(" ", 2)
    assert int(played) > 10 and phase == "over", done.stdout
