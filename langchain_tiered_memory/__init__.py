"""langchain-tiered-memory: a tiered long-term memory for LangChain chains and LangGraph agents.

One store (WORKING · EPISODIC · SEMANTIC · ARCHIVAL) on SQLite or PostgreSQL, shared by a
`TieredMemoryRetriever` (hybrid recall), a `WorkingMemoryHistory` (chat history buffer) and a
LangGraph consolidation graph. Attributes are imported lazily, so ``import
langchain_tiered_memory`` loads neither LangGraph nor a model.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_EXPORTS: dict[str, str] = {
    "TieredMemoryStore": ".store",
    "MemoryConfig": ".config",
    "MemoryEntry": ".types",
    "Episode": ".types",
    "Contradiction": ".types",
    "SearchHit": ".types",
    "ScanResult": ".types",
    "MemoryTier": ".types",
    "MemoryType": ".types",
    "ProvenanceLevel": ".types",
    "WritePath": ".provenance",
    "provenance_guard": ".provenance",
    "TieredMemoryError": ".errors",
    "MemoryWriteBlocked": ".errors",
    "ConfigError": ".errors",
    "InvalidInput": ".errors",
    "EntryNotFound": ".errors",
    "IllegalTransition": ".errors",
    "StoreError": ".errors",
    "EmbeddingError": ".errors",
    "LocalEmbeddings": ".embeddings",
    "TieredMemoryRetriever": ".retriever",
    "WorkingMemoryHistory": ".history",
    "TieredMemoryMiddleware": ".middleware",
    "build_consolidation_graph": ".consolidation",
    "TieredMemoryBaseStore": ".langgraph_store",
    "create_memory_tools": ".tools",
    "ConsolidationScheduler": ".consolidation",
}

__all__ = [
    "ConfigError",
    "ConsolidationScheduler",
    "Contradiction",
    "EmbeddingError",
    "EntryNotFound",
    "Episode",
    "IllegalTransition",
    "InvalidInput",
    "LocalEmbeddings",
    "MemoryConfig",
    "MemoryEntry",
    "MemoryTier",
    "MemoryType",
    "MemoryWriteBlocked",
    "ProvenanceLevel",
    "ScanResult",
    "SearchHit",
    "StoreError",
    "TieredMemoryBaseStore",
    "TieredMemoryError",
    "TieredMemoryMiddleware",
    "TieredMemoryRetriever",
    "TieredMemoryStore",
    "WorkingMemoryHistory",
    "WritePath",
    "build_consolidation_graph",
    "create_memory_tools",
    "provenance_guard",
]

if TYPE_CHECKING:
    from .config import MemoryConfig
    from .consolidation import ConsolidationScheduler, build_consolidation_graph
    from .embeddings import LocalEmbeddings
    from .errors import (
        ConfigError,
        EmbeddingError,
        EntryNotFound,
        IllegalTransition,
        InvalidInput,
        MemoryWriteBlocked,
        StoreError,
        TieredMemoryError,
    )
    from .history import WorkingMemoryHistory
    from .langgraph_store import TieredMemoryBaseStore
    from .middleware import TieredMemoryMiddleware
    from .provenance import WritePath, provenance_guard
    from .retriever import TieredMemoryRetriever
    from .store import TieredMemoryStore
    from .tools import create_memory_tools
    from .types import (
        Contradiction,
        Episode,
        MemoryEntry,
        MemoryTier,
        MemoryType,
        ProvenanceLevel,
        ScanResult,
        SearchHit,
    )


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'langchain_tiered_memory' has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
