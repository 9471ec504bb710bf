"""House rules that a reviewer would otherwise check by hand: one schema module, bounded modules
and classes, no reaching into another object's private side."""

from __future__ import annotations

import ast
from pathlib import Path

import langchain_tiered_memory

PACKAGE = Path(langchain_tiered_memory.__file__).resolve().parent
SOURCES = sorted(PACKAGE.rglob("*.py"))
FACADES = {"TieredMemoryStore"}


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def test_every_table_is_declared_in_the_schema_module() -> None:
    outside = []
    for path in SOURCES:
        if path == PACKAGE / "store" / "_tables.py":
            continue
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr == "Table":
                outside.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert outside == []


def test_modules_stay_under_500_lines() -> None:
    long = {str(p.relative_to(PACKAGE)): n for p in SOURCES
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 500}
    assert long == {}


def test_no_class_but_the_facade_has_more_than_40_public_methods() -> None:
    big = {}
    for path in SOURCES:
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.ClassDef) and node.name not in FACADES:
                public = [n for n in node.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
                          and not n.name.startswith("_")]
                if len(public) > 40:
                    big[node.name] = len(public)
    assert big == {}


def test_no_reaches_through_self() -> None:
    reaches = []
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        for i, line in enumerate(text.splitlines(), 1):
            if "cast(Any, self)" in line or 'getattr(self, "_' in line or "getattr(self, '_" in line:
                reaches.append(f"{path.relative_to(PACKAGE)}:{i}")
    assert reaches == []
