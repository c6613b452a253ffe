"""No module of model/ is part of an import circle, counting every import (those under
``if TYPE_CHECKING:`` and inside functions too): import-linter's layers contract holds the
package-level arrows, and this test the module-level ones, inside packages too."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parents[2]


def _module_name(path: Path) -> str:
    name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    return name.removesuffix(".__init__")


def _imports(path: Path, modules: set[str]) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:  # ``from pkg import module`` imports the module
                full = f"{node.module}.{alias.name}"
                found.add(full if full in modules else node.module)
    return found & modules


def import_graph(package: str = "model") -> nx.DiGraph:
    paths = {_module_name(p): p for p in (ROOT / package).rglob("*.py")}
    graph = nx.DiGraph()
    graph.add_nodes_from(paths)
    for name, path in paths.items():
        graph.add_edges_from((name, target) for target in _imports(path, set(paths)))
    graph.remove_edges_from(nx.selfloop_edges(graph))
    return graph


def circles(graph: nx.DiGraph) -> list[list[str]]:
    return [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]


@pytest.fixture(scope="module")
def model_graph() -> nx.DiGraph:
    """model/'s import graph, read once for both tests (parsing ~250 modules: ~1.5 s of CPU)."""
    return import_graph()


def test_model_has_no_import_circle(model_graph):
    assert model_graph.number_of_nodes() > 100  # every module of model/ was read
    assert circles(model_graph) == []


def test_a_circle_would_be_found(model_graph):
    graph = model_graph.copy()  # the shared graph stays as read
    graph.add_edge("model.design.entities", "model.engine.routed_links")  # an upward import
    assert any("model.design.entities" in c for c in circles(graph))
