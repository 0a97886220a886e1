"""The rules engine on its own (issue 21): packages/rules builds a wheel of
app/rules, named magery_rules, that installs into a fresh venv with no server
dependency, carries its py.typed marker there, and plays a whole random game;
and the wheel is ready to publish: the engine's version, its licence, README,
classifiers (tests/engines/wheels.py says what is checked, and why not twine).

One test, a few seconds: the build is most of it, offline (wheels.py).
The venv is made without pip (fast); this venv's pip installs into it.
"""

from __future__ import annotations

import subprocess
import sys
import venv
from pathlib import Path

from app.rules import VERSION

from .wheels import ROOT, build_wheel, metadata, ready_to_publish

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
    wheel = build_wheel(PACKAGE, tmp_path / "dist")
    assert wheel.name == f"magery_rules-{VERSION}-py3-none-any.whl", wheel.name
    meta, names = metadata(wheel)
    assert meta["Name"] == "magery-rules" and meta["Version"] == VERSION, meta
    assert "Requires-Dist" not in meta, meta.items()  # it asks pip for nothing
    assert "magery_rules/engine.py" in names and not any(n.startswith("app/") for n in names), names
    ready_to_publish(meta, names, "magery_rules")

    env = tmp_path / "env"
    venv.create(env, with_pip=False)
    python = env / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps",
                    "--no-index", str(wheel)], check=True, capture_output=True, text=True)
    done = subprocess.run([str(python), "-I", "-c", GAME], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    played, phase, result = done.stdout.split(" ", 2)
    assert int(played) > 10 and phase == "over", done.stdout
