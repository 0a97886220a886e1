"""docs/configuration.md names every setting with its default; docs/operations.md
explains every metric the server exports; the README names the soak command."""

from __future__ import annotations

import re

from prometheus_client.parser import text_string_to_metric_families

from app.config import Settings
from app.matches.saves_together import SavesTogether
from app.ops import Metrics
from app.realtime import Hub
from tests.ops.conftest import ROOT

CONFIGURATION = (ROOT / "docs" / "configuration.md").read_text()
OPERATIONS = (ROOT / "docs" / "operations.md").read_text()


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list):
        return "[]" if not value else str(value)
    return str(value)


def test_every_setting_is_documented_with_its_default_and_an_example() -> None:
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| `([A-Z0-9_]+)` \| `([^`]*)` \| `[^`]*` \|",
                                                          CONFIGURATION, re.M)}
    for name, field in Settings.model_fields.items():
        assert name.upper() in rows, f"{name.upper()} is not in docs/configuration.md"
        assert rows[name.upper()] == _shown(field.default), name


def test_every_metric_is_explained() -> None:
    metrics = Metrics()
    metrics.watch(Hub(source=None))  # type: ignore[arg-type]  # only its rooms are read
    metrics.watch_saves(SavesTogether(engine=None, writers=2))  # type: ignore[arg-type]  # only counts are read
    text = metrics.render().decode()
    ours = {family.name for family in text_string_to_metric_families(text) if family.name.startswith("magery_")}
    assert ours >= {"magery_matches", "magery_open_sockets", "magery_actions_applied", "magery_action_seconds",
                    "magery_http_responses", "magery_bus_lag_seconds", "magery_bus_reconnects",
                    "magery_bot_think_seconds", "magery_save_batches", "magery_saves_batched"}
    table = OPERATIONS[OPERATIONS.index("## Metrics"):OPERATIONS.index("## Logs")]
    for name in ours:
        exported = name + ("_total" if f"# TYPE {name} counter" in text else "")
        assert f"`{exported}" in table, f"{exported} is not explained in docs/operations.md"


def test_the_readme_names_the_soak_command_and_the_operations_docs() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "bench/soak.py" in readme
    assert "docs/operations.md" in readme and "docs/configuration.md" in readme
