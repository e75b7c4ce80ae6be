"""The shape of the package: dependencies point inward, and no module reads another's private
attributes (``thing._field`` where ``thing`` is not ``self`` or ``cls``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "kafeneio"
SOURCES = sorted(PACKAGE.rglob("*.py"))

INWARD = {
    "core": {"core"},
    "games": {"core", "games"},
    "bots": {"core", "games", "bots"},
}
"""What each layer may import from the package: the engine knows nothing of bots, servers or
interfaces, and bots know games only through the contract (and the per-game bot modules)."""


def _layer(path: Path) -> str:
    return path.relative_to(PACKAGE).parts[0].removesuffix(".py")


def _imports(tree: ast.AST) -> set[str]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name.split(".")[1] for name in found if name.startswith("kafeneio.")}


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_dependencies_point_inward(path: Path) -> None:
    layer = _layer(path)
    if layer not in INWARD:
        return
    used = _imports(ast.parse(path.read_text(encoding="utf-8")))
    assert used <= INWARD[layer], f"{layer} imports {sorted(used - INWARD[layer])}"


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_reads_another_objects_private_attributes(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    own = {node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}
    reads = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        name = node.attr
        if not name.startswith("_") or name.startswith("__"):
            continue
        owner = node.value
        if isinstance(owner, ast.Name) and owner.id in {"self", "cls", "other", "sample", *own}:
            continue  # its own fields (a clone or sample of the same class is its own too)
        if isinstance(owner, ast.Call) and getattr(owner.func, "id", "") == "super":
            continue
        reads.append(f"line {node.lineno}: {ast.unparse(node)}")
    assert not reads, "\n".join(reads)
