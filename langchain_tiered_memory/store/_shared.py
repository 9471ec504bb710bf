"""The context every store service shares: database, config, clock, embeddings, indexes.

One `StoreContext` per store. Services receive it (and the services they use) in their
constructor; none of them reaches into another through the facade.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from typing import Any

import numpy as np
import sqlalchemy as sa
from langchain_core.cross_encoders import BaseCrossEncoder
from langchain_core.embeddings import Embeddings

from ..config import MemoryConfig
from ..embeddings import LocalEmbeddings, embed_query, embed_texts, embedding_model_id
from ..retrieval.rerank import Reranker
from ..security.learned import learned_classifier
from ..types import utcnow
from . import _tables as t
from ._db import create_engine, db_errors, normalise_url, prepare_schema, to_ts
from ._db_neighbours import DatabaseNeighbours
from ._db_search import DatabaseSearch
from ._db_setup import open_search_backend
from ._index import NamespaceIndex, catch_up, load_namespace
from ._index_cache import IndexCache
from ._neighbours import IndexNeighbours, NeighbourSource
from ._rows import WriteLimits, check_time


class StoreContext:
    """Engine, config, clock, embeddings, scanner classifier and the namespace index cache.

    Args:
        url: A SQLAlchemy URL or a file path.
        embeddings: Any LangChain `Embeddings`; default: the bundled local MiniLM.
        config: A `MemoryConfig`.
        clock: Returns "now" as an aware datetime.
        model_id: Identifier stored with each vector.
        classifier: Optional second-opinion injection classifier (``None``: the bundled model
            unless ``memory.injectionModel`` is ``off``).
        cross_encoder: Optional cross-encoder for the rerank stage.
    """

    def __init__(
        self,
        url: str | os.PathLike[str],
        *,
        embeddings: Embeddings | None,
        config: MemoryConfig | None,
        clock: Callable[[], datetime] | None,
        model_id: str | None,
        classifier: Any,
        cross_encoder: BaseCrossEncoder | None,
    ) -> None:
        self.config = config or MemoryConfig()
        self.limits = WriteLimits.from_config(self.config)
        self.url = normalise_url(url)
        self.embeddings: Embeddings = embeddings or LocalEmbeddings(
            self.config.embedding_model, batch_size=self.config.embedding_batch_size
        )
        self.model_id = model_id or embedding_model_id(self.embeddings)
        self.clock: Callable[[], datetime] = clock or utcnow
        self._classifier = classifier
        self.cross_encoder = cross_encoder
        self.engine = create_engine(self.url, busy_timeout=self.config.busy_timeout_seconds)
        self.schema_version = prepare_schema(self.engine)
        self.indexes = IndexCache(self.config.index_cache_bytes)
        # None unless the database searches itself (PostgreSQL with pgvector, `_db_search`).
        self.search_db: DatabaseSearch | None = open_search_backend(self.engine, self.config)
        self._query_cache: dict[str, np.ndarray] = {}
        self._reranker: Reranker | None = None

    @property
    def classifier(self) -> Any:
        """The write scanner's second opinion: the one given, else the bundled n-gram model
        (loaded on the first write, once per process) unless the config turns it off."""
        if self._classifier is not None:
            return self._classifier
        return learned_classifier() if self.config.injection_model == "builtin" else None

    def close(self) -> None:
        """Release database connections and drop the in-memory indexes."""
        if self.search_db is not None:
            self.search_db.close()
        self.engine.dispose()
        self.indexes.clear()

    # -- connections and audit ----------------------------------------------------------------

    def read(self) -> sa.Connection:
        """A connection for reads."""
        return self.engine.connect()

    def write(self) -> sa.Connection:
        """A connection for a write transaction (``BEGIN IMMEDIATE`` on SQLite)."""
        return self.engine.connect().execution_options(write=True)

    def now(self, now: datetime | None = None) -> datetime:
        """``now`` if given (checked), else the clock."""
        # Every public ``now=`` override passes here: refuse a string before it reaches the maths.
        return check_time(now, "now") or self.clock()

    def audit_row(
        self,
        action: str,
        namespace: str,
        *,
        entry_id: str | None,
        actor: str,
        old: str | None = None,
        new: str | None = None,
        reason: str | None = None,
        now: datetime | None = None,
    ) -> dict[str, Any]:
        """One audit-log row, for a bulk insert."""
        return {
            "ts": to_ts(self.now(now)),
            "namespace": namespace,
            "entry_id": entry_id,
            "action": action,
            "actor": actor,
            "old_value": old,
            "new_value": new,
            "reason": reason,
        }

    def audit(self, conn: sa.Connection, action: str, namespace: str, **kwargs: Any) -> None:
        """Append one audit row (in the caller's transaction, so it commits with the change)."""
        conn.execute(sa.insert(t.audit_log), [self.audit_row(action, namespace, **kwargs)])

    def rows_changed(self, conn: sa.Connection, entry_ids: Sequence[str]) -> None:
        """Memory rows were inserted, changed or deleted in ``conn``'s transaction.

        Every statement that writes ``tm_memories`` or a memory's vector calls this, so that a
        database-side search index (`DatabaseSearch`) commits with the change. The in-process
        indexes need no call: they catch up from the audit log.
        """
        if self.search_db is not None and entry_ids:
            self.search_db.sync(conn, list(entry_ids))

    def episodes_changed(self, conn: sa.Connection, episode_ids: Sequence[str]) -> None:
        """Episode rows or their vectors were written in ``conn``'s transaction (as
        `rows_changed`, for the database-side episode search)."""
        if self.search_db is not None and episode_ids:
            self.search_db.sync_episodes(conn, list(episode_ids))

    # -- embeddings, indexes, rerank ------------------------------------------------------------

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Document vectors, one row per text."""
        return embed_texts(self.embeddings, texts)

    def query_vector(self, query: str) -> np.ndarray:
        """The query's vector (a few recent queries are kept: agents repeat them)."""
        cached = self._query_cache.get(query)
        if cached is None:
            cached = embed_query(self.embeddings, query)
            if len(self._query_cache) >= 256:
                self._query_cache.pop(next(iter(self._query_cache)))
            self._query_cache[query] = cached
        return cached

    @contextlib.contextmanager
    def index(self, namespace: str) -> Iterator[NamespaceIndex]:
        """The namespace's indexes, loaded on first use and caught up with every logged change;
        the cache keeps them while the block runs."""
        index = self.indexes.pin(namespace)
        try:
            with index.lock, db_errors("load the search index"), self.read() as conn:
                loaded = not index.loaded  # first use, or a first load that failed
                if loaded:
                    load_namespace(conn, namespace, self.model_id, index)
                changed = catch_up(conn, index, namespace, self.model_id)
            if loaded or changed:
                self.indexes.charge(namespace, index, loaded=loaded)
            yield index
        finally:
            self.indexes.unpin(namespace)

    def pushdown(self) -> DatabaseSearch | None:
        """The database search when searches run there (PostgreSQL + pgvector), else None."""
        search_db = self.search_db
        return search_db if search_db is not None and search_db.pushdown else None

    @contextlib.contextmanager
    def neighbours(self, namespace: str) -> Iterator[NeighbourSource]:
        """Where the contradiction check and linking find the namespace's neighbours: the
        database under search pushdown (no index is loaded), else the in-process index."""
        search_db = self.pushdown()
        if search_db is not None:
            yield DatabaseNeighbours(search_db.engine, namespace, model_id=self.model_id,
                                     ann_min_ef=search_db.ann_min_ef,
                                     has_ann_index=search_db.has_ann_index)
            return
        with self.index(namespace) as index:
            yield IndexNeighbours(index)

    def reranker(self) -> Reranker | None:
        """The rerank stage shared by every recall, built on first use (its model loads lazily)."""
        if self._reranker is None:
            if self.cross_encoder is None and self.config.rerank_model is None:
                return None
            self._reranker = Reranker.from_config(self.config, self.cross_encoder)
        return self._reranker
