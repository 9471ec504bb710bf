"""`TieredMemoryRetriever`: hybrid recall over a `TieredMemoryStore`, as a LangChain retriever."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, Literal

from langchain_core.callbacks.manager import (
    AsyncCallbackManagerForRetrieverRun,
    CallbackManagerForRetrieverRun,
)
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever, LangSmithRetrieverParams
from pydantic import ConfigDict, Field, TypeAdapter, ValidationError

from .errors import InvalidInput
from .store import TieredMemoryStore
from .types import MemoryTier, MemoryType, SearchHit

__all__ = ["TieredMemoryRetriever", "hit_to_document"]

# Arguments that `invoke(query, **kwargs)` may override for one call.
_OVERRIDABLE = frozenset(
    {
        "k",
        "mode",
        "tiers",
        "types",
        "tags",
        "since",
        "until",
        "episode_id",
        "include_knowledge",
        "reinforce",
        "history",
        "rerank",
    }
)
# Keys that `BaseRetriever.invoke` itself leaves in the kwargs it forwards.
_IGNORED = frozenset({"verbose"})
_ADAPTERS: dict[tuple[type, str], TypeAdapter[Any]] = {}


def hit_to_document(hit: SearchHit) -> Document:
    """A recalled hit as a LangChain `Document` (``id`` is the entry or chunk id).

    The metadata holds the entry's own metadata, then ``tier``, ``type``, ``provenance`` (label),
    ``key``, ``namespace``, ``tags``, ``score`` (final), ``scores`` (per stage), ``created_at`` and
    ``event_at`` (ISO strings), ``pinned``, ``version``, ``status`` (``live``, or ``superseded`` for an
    old version of a rewritten key, which only history recall returns), ``superseded_by`` (the id
    of the version that replaced it) and ``knowledge`` (True for a knowledge-base chunk).
    """
    e = hit.entry
    metadata: dict[str, Any] = {
        **dict(e.metadata),
        "tier": e.tier.value,
        "type": e.type.value,
        "provenance": e.source.label,
        "key": e.key,
        "namespace": e.namespace,
        "tags": list(e.tags),
        "score": float(hit.score),
        "scores": {name: float(v) for name, v in hit.scores.items()},
        "created_at": e.created_at.isoformat(),
        "event_at": e.event_at.isoformat() if e.event_at else None,
        "pinned": e.pinned,
        "version": e.version,
        "status": "live" if e.superseded_by is None else "superseded",
        "superseded_by": e.superseded_by,
        "knowledge": hit.knowledge,
    }
    return Document(id=e.id, page_content=e.content, metadata=metadata)


class TieredMemoryRetriever(BaseRetriever):
    """Hybrid recall (BM25 + vectors → RRF → gate → rerank → forgetting curve) over one namespace.

    ``k`` and every filter can be overridden for one call: ``retriever.invoke(query, k=3,
    tags=["ui"], since="2025-01-01")``; a per-call value is validated and coerced like the field
    (a bad one raises `InvalidInput` naming it). The namespace cannot be overridden: a retriever
    only ever reads its own namespace.

    Example:
        >>> retriever = TieredMemoryRetriever(store=store, namespace="alice", k=5)  # doctest: +SKIP
        >>> docs = retriever.invoke("what theme does Alice like?")  # doctest: +SKIP
        >>> docs[0].id, docs[0].metadata["tier"], docs[0].metadata["score"]  # doctest: +SKIP

    Attributes:
        store: The store to recall from.
        namespace: Whose memories.
        k: How many documents.
        mode: ``hybrid`` (default), ``keyword`` (BM25 only) or ``vector`` (embeddings only).
        tiers: Only these tiers (default: all; ARCHIVAL is down-weighted).
        types: Only these memory types.
        tags: Only entries carrying all these tags.
        since: Only entries whose event (or creation) time is at or after this.
        until: Only entries whose event (or creation) time is before this.
        episode_id: Only entries extracted from this episode.
        include_knowledge: Merge knowledge-base chunks into the results (flagged
            ``metadata["knowledge"] = True``); ``tiers``, ``types`` and ``episode_id`` filter
            memories only.
        reinforce: Count returned memories as accessed (lengthens their half-life).
        history: Also return superseded versions of rewritten keys (marked in
            ``metadata["status"]``); by default only the live version of a key is recalled.
        rerank: Override ``memory.rerankEnabled`` (None: the store's setting).
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    store: TieredMemoryStore = Field(exclude=True)
    namespace: str = "default"
    k: int = Field(default=10, ge=0)
    mode: Literal["hybrid", "keyword", "vector"] = "hybrid"
    tiers: list[MemoryTier] | None = None
    types: list[MemoryType] | None = None
    tags: list[str] | None = None
    since: datetime | None = None
    until: datetime | None = None
    episode_id: str | None = None
    include_knowledge: bool = False
    reinforce: bool = True
    history: bool = False
    rerank: bool | None = None

    # `tags` above shadows BaseRetriever.tags (callback tags). Callback tags still work through
    # ``config={"tags": [...]}``; a retriever's filter is what users mean by tags here.

    def _get_ls_params(self, **kwargs: Any) -> LangSmithRetrieverParams:
        params = super()._get_ls_params(**kwargs)
        params["ls_vector_store_provider"] = type(self.store).__name__
        params["ls_embedding_provider"] = type(self.store.embeddings).__name__
        params["ls_embedding_model"] = self.store.model_id
        return params

    def _options(self, overrides: Mapping[str, Any]) -> dict[str, Any]:
        unknown = set(overrides) - _OVERRIDABLE - _IGNORED
        if unknown:
            raise InvalidInput(
                sorted(unknown)[0],
                f"not a retriever option (one of: {', '.join(sorted(_OVERRIDABLE))})",
            )
        opts = {name: getattr(self, name) for name in _OVERRIDABLE}
        for name, value in overrides.items():
            if name in _OVERRIDABLE:
                opts[name] = self._validate_override(name, value)
        k = opts["k"]
        if not isinstance(k, int) or isinstance(k, bool) or k < 0:
            raise InvalidInput("k", "must be a non-negative integer")
        return opts

    @classmethod
    def _validate_override(cls, name: str, value: Any) -> Any:
        # A per-call value gets the same coercion as the field would at construction
        # ("2024-05-01" → datetime, "semantic" → MemoryTier), so invoke(q, since=...) and
        # TieredMemoryRetriever(since=...) accept the same inputs.
        if name == "k":
            return value  # checked strictly above: "3" or True is a mistake, not a number
        adapter = _ADAPTERS.get((cls, name))
        if adapter is None:
            annotation: Any = cls.model_fields[name].annotation
            adapter = _ADAPTERS[(cls, name)] = TypeAdapter(annotation)
        try:
            return adapter.validate_python(value)
        except ValidationError as exc:
            raise InvalidInput(name, exc.errors()[0]["msg"]) from None

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun, **kwargs: Any
    ) -> list[Document]:
        opts = self._options(kwargs)
        search = self.store.search_with_knowledge if opts.pop("include_knowledge") else (
            self.store.search
        )
        return [hit_to_document(h) for h in search(query, namespace=self.namespace, **opts)]

    async def _aget_relevant_documents(
        self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun, **kwargs: Any
    ) -> list[Document]:
        opts = self._options(kwargs)
        search = self.store.asearch_with_knowledge if opts.pop("include_knowledge") else (
            self.store.asearch
        )
        hits = await search(query, namespace=self.namespace, **opts)
        return [hit_to_document(h) for h in hits]
