"""langchain-tests standard suites, one unit and one integration class per memory tool."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

import pytest
from langchain_core.tools import BaseTool
from langchain_tests.integration_tests import ToolsIntegrationTests
from langchain_tests.unit_tests import ToolsUnitTests

from langchain_tiered_memory import MemoryConfig, TieredMemoryStore
from langchain_tiered_memory.tools import (
    ForgetMemoryTool,
    RequestPinTool,
    SaveMemoryTool,
    SearchMemoryTool,
    UpdateMemoryTool,
)
from tests.helpers import HashEmbeddings

NAMESPACE = "standard-tests"
_DIR = tempfile.TemporaryDirectory(prefix="tm-tools-")


@cache
def _store() -> TieredMemoryStore:
    # The suites read `tool_constructor_params` as properties, outside any fixture.
    return TieredMemoryStore(
        f"sqlite:///{Path(_DIR.name) / 'tools.db'}",
        embeddings=HashEmbeddings(),
        config=MemoryConfig(rerank_enabled=False),
    )


@cache
def _entry_id(label: str) -> str:
    return _store().add(f"The user likes {label} tea", namespace=NAMESPACE).id


@pytest.fixture(scope="module", autouse=True)
def _close_store() -> Iterator[None]:
    yield
    if _store.cache_info().currsize:
        _store().close()


class _Base:
    tool_class: type[BaseTool]
    example: ClassVar[dict[str, Any]] = {}

    @property
    def tool_constructor(self) -> type[BaseTool]:
        return self.tool_class

    @property
    def tool_constructor_params(self) -> dict[str, Any]:
        return {"store": _store(), "namespace": NAMESPACE}

    @property
    def tool_invoke_params_example(self) -> dict[str, Any]:
        return self.example


class _Save(_Base):
    tool_class = SaveMemoryTool
    example: ClassVar[dict[str, Any]] = {
        "content": "The user is allergic to peanuts",
        "key": "allergy",
        "importance": 0.8,
    }


class _Search(_Base):
    tool_class = SearchMemoryTool
    example: ClassVar[dict[str, Any]] = {"query": "what does the user drink", "limit": 3}


class _Update(_Base):
    tool_class = UpdateMemoryTool

    @property
    def tool_invoke_params_example(self) -> dict[str, Any]:
        return {"memory_id": _entry_id("green"), "content": "The user likes black tea"}


class _Forget(_Base):
    tool_class = ForgetMemoryTool

    @property
    def tool_invoke_params_example(self) -> dict[str, Any]:
        return {"memory_id": _entry_id("white"), "reason": "obsolete"}


class _Pin(_Base):
    tool_class = RequestPinTool

    @property
    def tool_invoke_params_example(self) -> dict[str, Any]:
        return {"memory_id": _entry_id("oolong"), "reason": "core preference"}


class TestSaveUnit(_Save, ToolsUnitTests): ...


class TestSaveIntegration(_Save, ToolsIntegrationTests): ...


class TestSearchUnit(_Search, ToolsUnitTests): ...


class TestSearchIntegration(_Search, ToolsIntegrationTests): ...


class TestUpdateUnit(_Update, ToolsUnitTests): ...


class TestUpdateIntegration(_Update, ToolsIntegrationTests): ...


class TestForgetUnit(_Forget, ToolsUnitTests): ...


class TestForgetIntegration(_Forget, ToolsIntegrationTests): ...


class TestRequestPinUnit(_Pin, ToolsUnitTests): ...


class TestRequestPinIntegration(_Pin, ToolsIntegrationTests): ...
