"""The engine's modules import each other without a cycle (every import counts: top level,
inside functions and under ``TYPE_CHECKING``), and the engine never imports the teaching layer."""

import ast
from pathlib import Path

import railkit.capecairo

PACKAGE = "railkit.capecairo"
ROOT = Path(railkit.capecairo.__file__).parent


def module_name(path: Path) -> str:
    return PACKAGE if path.name == "__init__.py" else f"{PACKAGE}.{path.stem}"


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The engine modules ``path`` imports; ``from pkg import name`` counts as ``pkg.name`` when
    that is a module."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative import
                parts = module_name(path).split(".")
                parent = parts if path.name == "__init__.py" else parts[:-1]
                base = ".".join(parent[: len(parent) - node.level + 1] + ([base] if base else []))
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        else:
            continue
        found |= {t for t in targets if t in modules}
    found.discard(module_name(path))
    return found


def import_graph() -> dict[str, set[str]]:
    paths = sorted(ROOT.glob("*.py"))
    modules = {module_name(p) for p in paths}
    return {module_name(p): imports_of(p, modules) for p in paths}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, str] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = "open"
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "open":
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        stack.pop()
        state[node] = "done"
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_the_engine_import_graph_has_no_cycle():
    graph = import_graph()
    assert len(graph) >= 10 and f"{PACKAGE}.game" in graph[PACKAGE]
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_the_cycle_finder_finds_cycles():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_engine_module_imports_the_package_or_the_teaching_layer():
    modules = set(import_graph())
    for path in ROOT.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "railkit.ui" not in text and "ipywidgets" not in text and "plotly" not in text, path.name
        if path.name != "__init__.py":
            assert PACKAGE not in imports_of(path, modules), f"{path.name} imports the package root"
