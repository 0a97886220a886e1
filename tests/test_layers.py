"""Imports point down the layers of app/layers.py, and no import cycle exists.

Every import statement under app/ is read (function-level ones too: a lazy
import is still an arrow), resolved to an absolute module name, and judged.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from app.layers import LAYERS, package_of, rank_of

APP = Path(__file__).resolve().parents[1] / "app"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(APP.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_module(name: str) -> bool:
    base = APP.parent / Path(*name.split("."))
    return base.with_suffix(".py").exists() or (base / "__init__.py").exists()


def _imports(path: Path) -> set[str]:
    """The app.* modules `path` imports, relative imports resolved."""
    me = _module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([node.module] if node.module else [])])
            for alias in node.names:
                full = f"{base}.{alias.name}"
                found.add(full if _is_module(full) else base)
    return {m for m in found if m == "app" or m.startswith("app.")}


def _graph() -> dict[str, set[str]]:
    return {_module_name(p): _imports(p) for p in sorted(APP.rglob("*.py"))}


def arrows() -> list[tuple[str, str]]:
    """Every (importer's package, imported package) pair between declared packages."""
    pairs = set()
    for module, imported in _graph().items():
        here = package_of(module)
        for target in imported:
            there = package_of(target)
            if here and there and here != there:
                pairs.add((here, there))
    return sorted(pairs)


def test_every_module_belongs_to_a_declared_layer() -> None:
    loose = [m for m in _graph() if m not in ("app", "app.layers") and package_of(m) is None]
    assert not loose, f"declare these in app/layers.py: {loose}"


def test_imports_only_point_down() -> None:
    up = [(a, b) for a, b in arrows() if rank_of(b) >= rank_of(a)]
    assert not up, "imports that run up or across the layers: " + ", ".join(f"{a} -> {b}" for a, b in up)


def test_no_import_cycle() -> None:
    graph = _graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(node: str) -> None:  # Tarjan's strongly connected components
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph.get(node, ()):
            if nxt not in graph:
                continue
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            # A package's __init__ re-exporting its own modules is no cycle of design.
            if len(component) > 1 and not _only_reexports(component, graph):
                cycles.append(sorted(component))

    for node in graph:
        if node not in index:
            visit(node)
    assert not cycles, f"import cycles: {cycles}"


def _only_reexports(component: list[str], graph: dict[str, set[str]]) -> bool:
    """True when the keeper closes only through a package __init__ importing its children."""
    members = set(component)
    trimmed = {m: {t for t in graph[m] if t in members and not m.startswith(t + ".")} for m in members}
    seen: set[str] = set()

    def cyclic(node: str, path: set[str]) -> bool:
        if node in path:
            return True
        if node in seen:
            return False
        seen.add(node)
        return any(cyclic(n, path | {node}) for n in trimmed[node])

    return not any(cyclic(m, set()) for m in members)


# Packages that are pure computation: they import their own package and the
# standard library, none of its parts that reach outside the process or read
# the clock, and no framework. The service stores and times; these only compute.
PURE = ("app.rules", "app.ratings")
IMPURE_STDLIB = (
    "asyncio", "socket", "ssl", "select", "selectors", "subprocess", "threading", "multiprocessing",
    "concurrent", "os", "io", "pathlib", "shutil", "tempfile", "sqlite3", "http", "urllib.request",
    "logging", "time", "random", "secrets",
)


def _absolute_imports(path: Path) -> set[str]:
    """Every module outside app/ that `path` imports (relative imports are its own package's)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module)
    return found


def test_pure_packages_import_only_the_pure_standard_library() -> None:
    impure, seen = [], set()
    for path in sorted(APP.rglob("*.py")):
        package = package_of(_module_name(path))
        if package not in PURE:
            continue
        seen.add(package)
        for name in _absolute_imports(path):
            if name == "app" or name.startswith("app."):
                ok = package_of(name) == package
            else:
                ok = name.split(".")[0] in sys.stdlib_module_names and not any(
                    name == bad or name.startswith(bad + ".") for bad in IMPURE_STDLIB)
            if not ok:
                impure.append(f"{path.relative_to(APP.parent)} imports {name}")
    assert seen == set(PURE), f"pure packages with no module found: {set(PURE) - seen}"
    assert all(rank_of(p) == 0 for p in PURE), "pure packages stand in the lowest layer"
    assert not impure, "pure packages importing beyond the pure standard library: " + ", ".join(impure)


LONG = 400  # lines: a module longer than this says why in its docstring
REASON = "Over 400 lines because"


def test_a_long_module_says_why_it_is_long() -> None:
    """A file does one job: one over 400 lines is a sign it does two, unless its
    docstring gives the reason in a paragraph beginning "Over 400 lines because"."""
    unexplained = []
    for path in sorted(APP.rglob("*.py")):
        text = path.read_text()
        if text.count("\n") > LONG and REASON not in (ast.get_docstring(ast.parse(text)) or ""):
            unexplained.append(f"{path.relative_to(APP.parent)} ({text.count(chr(10))} lines)")
    assert not unexplained, "modules over 400 lines with no reason in their docstring: " + ", ".join(unexplained)


def test_the_layer_test_sees_a_real_arrow() -> None:
    # A guard on the reader itself: it finds the arrows the code is known to have.
    found = arrows()
    assert ("app.matches", "app.rules") in found and ("app.main", "app.matches") in found
    assert len(LAYERS) >= 6


if __name__ == "__main__":  # print the arrows, for the notes
    for a, b in arrows():
        print(f"{a} -> {b}")
