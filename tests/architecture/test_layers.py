"""Imports point one way (STYLE.md): each package imports only lower layers or itself."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "shifu"

LAYERS: dict[str, float] = {
    "contracts": 0, "errors": 0, "config": 0.5,
    "store": 1, "llm": 1, "nlp": 1,
    "context": 2, "policy": 2,
    "planning": 3, "tools": 3, "evidence": 3, "answer": 3, "actions": 3, "audit": 3,
    "knowledge": 3, "domain": 3, "media": 3, "web": 3,
    "runtime": 4,
    "api": 5, "demo": 5,
    "eval": 6,
    "cli": 7,
}  # fmt: skip

API_MAY_IMPORT = {"api", "contracts", "errors", "config", "context", "runtime", "audit"}
"""Routes reach tools only through the runtime (and so through policy)."""


def _package_of(path: Path) -> str:
    relative = path.relative_to(SRC)
    return relative.parts[0].removesuffix(".py")


def _shifu_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[0] == "shifu" and len(parts) > 1:
                found.add(parts[1])
    return found


MODULES = sorted(p for p in SRC.rglob("*.py") if p.name != "__init__.py" or p.parent != SRC)


def test_every_package_has_a_layer() -> None:
    packages = {_package_of(p) for p in MODULES if p.parent != SRC or p.stem not in {"__init__"}}
    unknown = packages - set(LAYERS) - {"migrations"}
    assert not unknown, f"assign a layer to: {sorted(unknown)}"


@pytest.mark.parametrize("module", MODULES, ids=lambda p: str(p.relative_to(SRC)))
def test_imports_point_down(module: Path) -> None:
    own = _package_of(module)
    if own not in LAYERS:
        return
    for imported in _shifu_imports(module):
        if imported == own or imported not in LAYERS:
            continue
        assert LAYERS[imported] < LAYERS[own], (
            f"{own} (L{LAYERS[own]}) imports {imported} (L{LAYERS[imported]})"
        )


@pytest.mark.parametrize("module", sorted((SRC / "api").rglob("*.py")), ids=lambda p: p.name)
def test_routes_never_reach_tools_around_policy(module: Path) -> None:
    assert _shifu_imports(module) <= API_MAY_IMPORT
