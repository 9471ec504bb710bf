"""LangGraph integration: the tiered store as a `langgraph.store.base.BaseStore`.

Example:
    >>> from langchain_tiered_memory import TieredMemoryStore
    >>> from langchain_tiered_memory.langgraph_store import TieredMemoryBaseStore
    >>> lg_store = TieredMemoryBaseStore(TieredMemoryStore("sqlite:///memory.db"))  # doctest: +SKIP
    >>> graph = builder.compile(store=lg_store)  # doctest: +SKIP
"""

from __future__ import annotations

from ._adapter import TieredMemoryBaseStore
from ._mapping import from_store_namespace, to_store_namespace

__all__ = ["TieredMemoryBaseStore", "from_store_namespace", "to_store_namespace"]
