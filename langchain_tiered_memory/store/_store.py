"""`TieredMemoryStore`, assembled from its parts, with an async twin for every I/O method."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from langchain_core.cross_encoders import BaseCrossEncoder
from langchain_core.embeddings import Embeddings

from ..config import MemoryConfig
from ..types import Episode, MemoryEntry, SearchHit
from ._async import run_sync
from ._context import ContextMixin
from ._contradictions import ContradictionsMixin
from ._edits import EditsMixin
from ._episodes import EpisodeMixin
from ._jobs import JobsMixin
from ._knowledge_search import KnowledgeSearchMixin
from ._lattice import LatticeMixin
from ._lifecycle import LifecycleMixin
from ._reads import ReadsMixin
from ._recall import RecallMixin
from ._reembed import ReembedMixin
from ._sources import SourcesMixin


class TieredMemoryStore(
    LifecycleMixin,
    ContradictionsMixin,
    LatticeMixin,
    JobsMixin,
    SourcesMixin,
    KnowledgeSearchMixin,
    ContextMixin,
    EpisodeMixin,
    RecallMixin,
    ReadsMixin,
    ReembedMixin,
    EditsMixin,
):
    """One tiered memory (WORKING · EPISODIC · SEMANTIC · ARCHIVAL) on SQLite or PostgreSQL.

    Example:
        >>> store = TieredMemoryStore("sqlite:///memory.db")  # doctest: +SKIP
        >>> e = store.add("Alice prefers dark mode", namespace="alice", key="ui.theme")  # doctest: +SKIP
        >>> store.search("what theme?", namespace="alice")  # doctest: +SKIP

    Args:
        url: A SQLAlchemy URL (``sqlite:///memory.db``, ``postgresql+psycopg://...``) or a file path.
        embeddings: Any LangChain `Embeddings`; default: the bundled local all-MiniLM-L6-v2.
        config: A `MemoryConfig`; default: the spec's defaults.
        clock: Returns "now" as an aware datetime (tests inject one).
        model_id: Identifier stored with each vector; derived from ``embeddings`` when omitted.
        classifier: Optional second-opinion injection classifier (can only add blocks).
        cross_encoder: Optional `BaseCrossEncoder` for the rerank stage (else
            ``memory.rerankModel`` names a local sentence-transformers CrossEncoder, loaded lazily).

    Attributes:
        detect_contradictions: Check each new SEMANTIC entry against the live ones (default True).
        contradiction_verifier: A verifier for those checks (e.g. ``LLMVerifier(chat_model)``);
            None means the offline heuristics.
        write_check_limit: Writes of more entries than this skip the on-write contradiction checks
            and links; run `check_contradictions` on their ids instead (consolidation does).
        auto_link: Link new entries to entries sharing a tag, an entity or a near meaning.

    Constructing a store opens (and if needed creates or upgrades) the database; it loads no model
    and no index: the embedding model loads on first use, a namespace's indexes on its first search.
    """

    def __init__(
        self,
        url: str | os.PathLike[str] = "sqlite:///memory.db",
        *,
        embeddings: Embeddings | None = None,
        config: MemoryConfig | None = None,
        clock: Callable[[], datetime] | None = None,
        model_id: str | None = None,
        classifier: Any = None,
        cross_encoder: BaseCrossEncoder | None = None,
    ) -> None:
        super().__init__(
            url,
            embeddings=embeddings,
            config=config,
            clock=clock,
            model_id=model_id,
            classifier=classifier,
        )
        self._cross_encoder = cross_encoder

    # -- async twins --------------------------------------------------------------------------

    async def aadd(self, content: str, **kwargs: Any) -> MemoryEntry:
        """Async twin of `add`."""
        return await run_sync(self.add, content, **kwargs)

    async def aadd_many(self, items: Any, **kwargs: Any) -> list[MemoryEntry]:
        """Async twin of `add_many`."""
        return await run_sync(self.add_many, items, **kwargs)

    async def aget(self, entry_id: str, **kwargs: Any) -> MemoryEntry | None:
        """Async twin of `get`."""
        return await run_sync(self.get, entry_id, **kwargs)

    async def aupdate(self, entry_id: str, **kwargs: Any) -> MemoryEntry:
        """Async twin of `update`."""
        return await run_sync(self.update, entry_id, **kwargs)

    async def adelete(self, entry_id: str, **kwargs: Any) -> None:
        """Async twin of `delete`."""
        await run_sync(self.delete, entry_id, **kwargs)

    async def alist(self, **kwargs: Any) -> list[MemoryEntry]:
        """Async twin of `list`."""
        return await run_sync(self.list, **kwargs)

    async def apin(self, entry_id: str, **kwargs: Any) -> MemoryEntry:
        """Async twin of `pin`."""
        return await run_sync(self.pin, entry_id, **kwargs)

    async def aunpin(self, entry_id: str, **kwargs: Any) -> MemoryEntry:
        """Async twin of `unpin`."""
        return await run_sync(self.unpin, entry_id, **kwargs)

    async def aarchive(self, entry_id: str, **kwargs: Any) -> MemoryEntry:
        """Async twin of `archive`."""
        return await run_sync(self.archive, entry_id, **kwargs)

    async def arestore(self, entry_id: str, **kwargs: Any) -> MemoryEntry:
        """Async twin of `restore`."""
        return await run_sync(self.restore, entry_id, **kwargs)

    async def ahistory(self, key: str, **kwargs: Any) -> list[MemoryEntry]:
        """Async twin of `history`."""
        return await run_sync(self.history, key, **kwargs)

    async def asearch(self, query: str, **kwargs: Any) -> list[SearchHit]:
        """Async twin of `search`."""
        return await run_sync(self.search, query, **kwargs)

    async def aadd_episode(self, episode: Episode, **kwargs: Any) -> Episode:
        """Async twin of `add_episode`."""
        return await run_sync(self.add_episode, episode, **kwargs)

    async def asearch_episodes(self, query: str, **kwargs: Any) -> list[tuple[Episode, float]]:
        """Async twin of `search_episodes`."""
        return await run_sync(self.search_episodes, query, **kwargs)

    async def areembed(self, **kwargs: Any) -> int:
        """Async twin of `reembed`."""
        return await run_sync(self.reembed, **kwargs)

    async def aaudit_log(self, **kwargs: Any) -> list[dict[str, Any]]:
        """Async twin of `audit_log`."""
        return await run_sync(self.audit_log, **kwargs)

    async def aget_many(self, entry_ids: Sequence[str], **kwargs: Any) -> dict[str, MemoryEntry]:
        """Async twin of `get_many`."""
        return await run_sync(self.get_many, entry_ids, **kwargs)

    async def acount(self, **kwargs: Any) -> int:
        """Async twin of `count`."""
        return await run_sync(self.count, **kwargs)

    async def anamespaces(self) -> list[str]:
        """Async twin of `namespaces`."""
        return await run_sync(self.namespaces)

    async def areembed_pending(self, **kwargs: Any) -> int:
        """Async twin of `reembed_pending`."""
        return await run_sync(self.reembed_pending, **kwargs)

    async def aget_episode(self, episode_id: str, **kwargs: Any) -> Episode | None:
        """Async twin of `get_episode`."""
        return await run_sync(self.get_episode, episode_id, **kwargs)

    async def alist_episodes(self, **kwargs: Any) -> list[Episode]:
        """Async twin of `list_episodes`."""
        return await run_sync(self.list_episodes, **kwargs)

    async def areinforce(self, ids: Sequence[str], **kwargs: Any) -> None:
        """Async twin of `reinforce`."""
        await run_sync(self.reinforce, ids, **kwargs)

    async def aclose(self) -> None:
        """Async twin of `close`."""
        await run_sync(self.close)
