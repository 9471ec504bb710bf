"""Every error the package raises of its own is in the `TieredMemoryError` tree."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path

import langchain_tiered_memory
from langchain_tiered_memory import TieredMemoryError

PACKAGE = Path(langchain_tiered_memory.__file__).parent
RAW = {"ValueError", "TypeError", "RuntimeError", "KeyError", "LookupError", "Exception"}


def test_no_raw_builtin_raises() -> None:
    found = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and node.exc is not None:
                exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
                if isinstance(exc, ast.Name) and exc.id in RAW:
                    found.append(f"{path.relative_to(PACKAGE)}:{node.lineno} raises {exc.id}")
    assert found == []


def test_every_exception_class_is_in_the_tree() -> None:
    outside = []
    for info in pkgutil.walk_packages(langchain_tiered_memory.__path__, "langchain_tiered_memory."):
        if info.name.endswith(("server.app", "cli", "_entry")):
            continue  # need optional extras at import; their errors are covered by the AST test
        try:
            module = importlib.import_module(info.name)
        except ImportError:
            continue
        for name, obj in vars(module).items():
            if (inspect.isclass(obj) and issubclass(obj, BaseException)
                    and obj.__module__ == module.__name__
                    and not issubclass(obj, TieredMemoryError)):
                outside.append(f"{module.__name__}.{name}")
    assert outside == []
