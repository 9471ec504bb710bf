"""Typed seams to the store: no ``store: Any``, no probing the store for what it might have."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "langchain_tiered_memory"

# Nothing may be added to this list.
KNOWN: set[str] = set()


def _is_any(node: ast.expr | None) -> bool:
    return (isinstance(node, ast.Name) and node.id == "Any") or (
        isinstance(node, ast.Constant) and node.value == "Any"
    )


def _untyped_stores(path: Path) -> list[str]:
    rel = path.relative_to(PACKAGE).as_posix()
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            args = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
            if any(a.arg == "store" and _is_any(a.annotation) for a in args):
                found.append(f"{rel}:{node.name}")
        elif (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
              and node.target.id == "store" and _is_any(node.annotation)):
            found.append(f"{rel}:{node.target.id} (line {node.lineno})")
    return found


def test_no_store_typed_any() -> None:
    found = {hit for path in PACKAGE.rglob("*.py") for hit in _untyped_stores(path)}
    assert found == KNOWN, f"store: Any in {sorted(found - KNOWN)}"


def test_consolidation_does_not_probe_the_store() -> None:
    for path in (PACKAGE / "consolidation").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        for probe in ("getattr(self.store", "getattr(store", "inspect.signature"):
            assert probe not in text, f"{path.name} probes the store: {probe}"
