"""The knowledge base: user documents, chunked, with vectors in a .npz sidecar.

Documents a user adds (manuals, notes, policies) are split into chunks. Chunk text lives in SQL
(``tm_knowledge_docs`` / ``tm_knowledge_chunks``, the source of truth); chunk vectors live apart
from memory vectors, in one ``.npz`` file next to the database (``memory.db`` →
``memory.knowledge.npz``). The sidecar is rewritten atomically (temporary file + ``os.replace``)
inside the SQL write transaction, so a reader never sees rows whose vectors are missing, and a
crash can at worst leave vectors without rows (ignored, pruned on the next write). Because the
vectors are derived data, `reembed_knowledge` can rebuild a lost or corrupt sidecar from SQL.

Every document and every chunk goes through the same guarded write path as memories (provenance
ceiling, PII policy, injection scanner): one refused chunk refuses the whole call.
"""

from __future__ import annotations

import builtins
import hashlib
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, cast

import numpy as np
import sqlalchemy as sa
from langchain_core.documents import Document

from ..errors import ConfigError, EntryNotFound, InvalidInput
from ..provenance import WritePath, max_provenance
from ..retrieval import KeywordIndex, rank_candidates
from ..text import tokenize
from ..types import MemoryEntry, MemoryTier, MemoryType, ProvenanceLevel, SearchHit, new_id
from . import _tables as t
from ._async import run_sync
from ._core import StoreCore
from ._db import db_errors, dumps, from_ts, loads, to_ts
from ._knowledge_files import (
    _STATE_LOCK,
    KNOWLEDGE_ACTIONS,
    KnowledgeDoc,
    _as_documents,
    _doc_from_row,
    _NamespaceKnowledge,
    _Prepared,
    _read_sidecar,
    _State,
    _strings_arg,
    _Vectors,
    _write_sidecar,
    knowledge_chunks,
    knowledge_docs,
    knowledge_sidecar_path,
    merge_hits,
)
from ._rows import Draft, check_namespace
from ._vectors import VectorMatrix

__all__ = ["KnowledgeDoc", "KnowledgeMixin", "knowledge_sidecar_path", "merge_hits"]


class KnowledgeMixin(StoreCore):
    """The knowledge base: user documents, chunked, with vectors in a .npz sidecar."""

    # -- state ------------------------------------------------------------------------------

    def _kb(self) -> _State:
        state = cast("_State | None", getattr(self, "_kb_state", None))
        if state is None:
            with _STATE_LOCK:
                state = getattr(self, "_kb_state", None)
                if state is None:
                    state = _State(self._resolve_knowledge_path())
                    self._kb_state = state
        return state

    def _resolve_knowledge_path(self) -> Path | None:
        explicit = getattr(self, "_knowledge_path", None) or self.config.extra.get("knowledge_path")
        if explicit:
            return Path(explicit)
        return knowledge_sidecar_path(self.url)

    @property
    def knowledge_path(self) -> Path | None:
        """The ``.npz`` sidecar holding knowledge vectors (None: kept in memory).

        Derived from a SQLite file URL; set it before first use for other databases.
        """
        return self._kb().path

    @knowledge_path.setter
    def knowledge_path(self, value: str | os.PathLike[str] | None) -> None:
        self._knowledge_path = None if value is None else Path(value)
        with _STATE_LOCK:
            self._kb_state = _State(self._resolve_knowledge_path())

    def _load_vectors(self, state: _State) -> _Vectors:
        """The sidecar's content, re-read only when the file changed."""
        if state.path is None:
            return state.memory
        try:
            st = state.path.stat()
            key: tuple[int, int, int] | None = (st.st_mtime_ns, st.st_size, st.st_ino)
        except FileNotFoundError:
            key = None
        if state.cache is None or key != state.cache_key:
            state.cache = _read_sidecar(state.path) if key is not None else _Vectors()
            state.cache_key = key
        return state.cache

    def _store_vectors(self, state: _State, vectors: _Vectors) -> None:
        if state.path is None:
            state.memory = vectors
            return
        _write_sidecar(state.path, vectors)
        state.cache, state.cache_key = None, None

    # -- writes -----------------------------------------------------------------------------

    def add_knowledge(
        self,
        documents: str | Document | Iterable[str | Document],
        *,
        namespace: str = "default",
        source: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        tags: Iterable[str] = (),
        importance: float = 0.5,
        chunk_size: int = 1000,
        chunk_overlap: int | None = None,
        path: WritePath = WritePath.API,
    ) -> builtins.list[KnowledgeDoc]:
        """Add documents to the knowledge base of a namespace.

        Each document is scanned whole, split with LangChain's ``RecursiveCharacterTextSplitter``
        and each chunk scanned again; its vectors go to the sidecar. A document whose ``id`` is
        already in the namespace is replaced; one whose text is already there (same SHA-256, no
        explicit id) is returned as it is, without a new write.

        Args:
            documents: A text, a `Document` (its ``id`` and ``metadata['source']`` are used), or
                several.
            namespace: Whose knowledge base.
            source: Where the documents come from (file name, URL); default: the document's
                ``metadata['source']`` or ``""``.
            metadata: Extra metadata for every document (merged over the document's own).
            tags: Labels for filtering (``search_knowledge(tags=...)``).
            importance: Weight (0..1) of these chunks against memories when both are recalled.
            chunk_size: Maximum characters per chunk.
            chunk_overlap: Characters shared by neighbouring chunks; default
                ``min(200, chunk_size // 5)``.
            path: Which write path is calling (sets the provenance ceiling).

        Returns:
            One `KnowledgeDoc` per document, in order.

        Raises:
            MemoryWriteBlocked: The scanner or PII policy refused a document or a chunk; nothing
                of the call was written.
            InvalidInput: An argument is malformed.
        """
        check_namespace(namespace)
        if not isinstance(chunk_size, int) or chunk_size < 1:
            raise InvalidInput("chunk_size", "must be a positive integer")
        if chunk_overlap is None:
            chunk_overlap = min(200, chunk_size // 5)
        if not isinstance(chunk_overlap, int) or not 0 <= chunk_overlap < chunk_size:
            raise InvalidInput("chunk_overlap", "must be >= 0 and smaller than chunk_size")
        if isinstance(importance, bool) or not 0.0 <= float(importance) <= 1.0:
            raise InvalidInput("importance", "must be a number between 0 and 1")
        tag_tuple = tuple(dict.fromkeys(x.strip() for x in _strings_arg(tags, "tags")))
        items = _as_documents(documents)
        batch = len(items) > 1
        level = max_provenance(path)
        prepared: builtins.list[_Prepared] = []
        for i, doc in enumerate(items):
            prepared.append(
                self._prepare(
                    doc,
                    i if batch else None,
                    namespace,
                    source,
                    metadata,
                    tag_tuple,
                    float(importance),
                    level,
                    path,
                    chunk_size,
                    chunk_overlap,
                )
            )
        todo = [p for p in prepared if p.existing is None]
        texts = [c for p in todo for c in p.chunks]
        matrix = self._embed(texts) if texts else None
        state = self._kb()
        now = self.clock()
        with state.lock, db_errors("add knowledge"), self._write() as conn, conn.begin():
            replaced: set[str] = set()
            new_vectors: dict[str, np.ndarray] = {}
            row = 0
            for p in todo:
                replaced |= self._drop_doc(conn, p.doc_id, namespace)
                self._insert_doc(conn, p, namespace, now, path)
                for idx, chunk in enumerate(p.chunks):
                    chunk_id = new_id()
                    conn.execute(
                        sa.insert(knowledge_chunks).values(
                            id=chunk_id,
                            doc_id=p.doc_id,
                            namespace=namespace,
                            chunk_index=idx,
                            content=chunk,
                            terms=" ".join(tokenize(chunk + " " + " ".join(tag_tuple))),
                        )
                    )
                    assert matrix is not None
                    new_vectors[chunk_id] = matrix[row]
                    row += 1
            if todo:
                self._rewrite_sidecar(conn, state, drop=replaced, add=new_vectors)
        return [p.existing or p.as_doc(namespace, now) for p in prepared]

    def _prepare(
        self,
        doc: Document,
        index: int | None,
        namespace: str,
        source: str | None,
        metadata: Mapping[str, Any] | None,
        tags: tuple[str, ...],
        importance: float,
        level: ProvenanceLevel,
        path: WritePath,
        chunk_size: int,
        chunk_overlap: int,
    ) -> _Prepared:
        try:
            from langchain_text_splitters import RecursiveCharacterTextSplitter
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise ConfigError(
                "knowledge", "the knowledge base needs: pip install langchain-text-splitters"
            ) from exc

        if not isinstance(doc.page_content, str) or not doc.page_content.strip():
            raise InvalidInput("documents", "a document's text must be non-empty", item_index=index)
        meta = {**doc.metadata, **(metadata or {})}
        src = source if source is not None else str(meta.get("source", ""))
        meta["source"] = src
        doc_id = doc.id or new_id()
        if not isinstance(doc_id, str) or len(doc_id) > 64:
            raise InvalidInput(
                "documents", "a document id is a string of <= 64 characters", item_index=index
            )
        try:
            json.dumps(meta)
        except (TypeError, ValueError) as exc:
            raise InvalidInput(
                "metadata", f"must be JSON-serialisable: {exc}", item_index=index
            ) from None
        whole = Draft(
            content=doc.page_content,
            namespace=namespace,
            tags=tags,
            metadata=dict(meta),
            source=level,
        )
        # The whole text first: an injection split across a chunk boundary is still caught.
        text = self._guard(whole, path, index).content
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        if doc.id is None:
            existing = self._doc_by_hash(namespace, digest)
            if existing is not None:
                return _Prepared(
                    existing.id, text, [], meta, src, digest, importance, level, tags, existing
                )
        splitter = RecursiveCharacterTextSplitter(
            chunk_size=chunk_size, chunk_overlap=chunk_overlap
        )
        chunks = [c for c in splitter.split_text(text) if c.strip()] or [text]
        for chunk in chunks:
            self._guard(Draft(content=chunk, namespace=namespace, source=level), path, index)
        return _Prepared(doc_id, text, chunks, meta, src, digest, importance, level, tags, None)

    def _doc_by_hash(self, namespace: str, digest: str) -> KnowledgeDoc | None:
        d = knowledge_docs.c
        with db_errors("read the knowledge base"), self._read() as conn:
            row = conn.execute(
                sa.select(knowledge_docs).where(d.namespace == namespace, d.sha256 == digest)
            ).first()
        return _doc_from_row(row) if row else None

    def _insert_doc(
        self, conn: sa.Connection, p: _Prepared, namespace: str, now: datetime, path: WritePath
    ) -> None:
        conn.execute(
            sa.insert(knowledge_docs).values(
                id=p.doc_id,
                namespace=namespace,
                source=p.source,
                sha256=p.sha256,
                chunk_count=len(p.chunks),
                chars=len(p.text),
                importance=p.importance,
                provenance=int(p.level),
                tags=dumps(list(p.tags)),
                metadata=dumps(p.metadata),
                created_at=to_ts(now),
            )
        )
        self._audit(
            conn,
            "knowledge_add",
            namespace,
            entry_id=p.doc_id,
            actor=path.value,
            new=dumps({"doc_id": p.doc_id, "source": p.source, "chunks": len(p.chunks)}),
            now=now,
        )

    def _drop_doc(self, conn: sa.Connection, doc_id: str, namespace: str) -> set[str]:
        """Delete a document's rows (for a replacement); return its chunk ids."""
        owner = conn.execute(
            sa.select(knowledge_docs.c.namespace).where(knowledge_docs.c.id == doc_id)
        ).scalar()
        if owner is None:
            return set()
        if owner != namespace:
            raise InvalidInput("documents", f"document id {doc_id!r} is taken")
        c = knowledge_chunks.c
        ids = {r[0] for r in conn.execute(sa.select(c.id).where(c.doc_id == doc_id))}
        conn.execute(sa.delete(knowledge_chunks).where(c.doc_id == doc_id))
        conn.execute(sa.delete(knowledge_docs).where(knowledge_docs.c.id == doc_id))
        return ids

    def _rewrite_sidecar(
        self,
        conn: sa.Connection,
        state: _State,
        *,
        drop: set[str],
        add: Mapping[str, np.ndarray],
        model_id: str | None = None,
    ) -> None:
        """Read the sidecar afresh, apply the change, prune orphans, write it back atomically.

        Runs inside the SQL write transaction: on SQLite that lock serialises writers across
        processes, so no writer loses another's vectors.
        """
        state.cache, state.cache_key = None, None
        current = self._load_vectors(state)
        live = {r[0] for r in conn.execute(sa.select(knowledge_chunks.c.id))}
        model = model_id or self.model_id
        rows = {
            i: v for i, v in current.rows.items() if i in live and i not in drop and i not in add
        }
        rows.update(
            {i: (model, np.asarray(v, dtype=np.float32)) for i, v in add.items() if i in live}
        )
        self._store_vectors(state, _Vectors(rows))

    def delete_knowledge(
        self, doc_id: str, *, namespace: str | None = None, path: WritePath = WritePath.API
    ) -> None:
        """Delete a document, its chunks and their vectors.

        Raises:
            EntryNotFound: No such document (in ``namespace``, when given).
        """
        doc = self.get_knowledge(doc_id, namespace=namespace)
        if doc is None:
            raise EntryNotFound(doc_id)
        state = self._kb()
        with state.lock, db_errors("delete knowledge"), self._write() as conn, conn.begin():
            dropped = self._drop_doc(conn, doc.id, doc.namespace)
            self._audit(
                conn,
                "knowledge_delete",
                doc.namespace,
                entry_id=doc.id,
                actor=path.value,
                old=dumps({"doc_id": doc.id, "source": doc.source, "chunks": doc.chunk_count}),
            )
            self._rewrite_sidecar(conn, state, drop=dropped, add={})

    def reembed_knowledge(self, *, rebuild: bool = False, batch_size: int = 256) -> int:
        """Embed the chunks whose vector is missing or was made by another model.

        Args:
            rebuild: Re-embed every chunk (recovers a lost or corrupt sidecar).
            batch_size: Texts per embedding call.

        Returns:
            How many chunks were embedded.
        """
        state = self._kb()
        if rebuild:
            with state.lock:
                self._store_vectors(state, _Vectors())
        done = 0
        while True:
            with state.lock:
                current = self._load_vectors(state).rows
                with db_errors("read the knowledge base"), self._read() as conn:
                    rows = [
                        r
                        for r in conn.execute(
                            sa.select(
                                knowledge_chunks.c.id,
                                knowledge_chunks.c.content,
                                knowledge_chunks.c.namespace,
                            )
                        )
                        if r.id not in current or current[r.id][0] != self.model_id
                    ][:batch_size]
            if not rows:
                return done
            matrix = self._embed([r.content for r in rows])
            with state.lock, db_errors("re-embed knowledge"), self._write() as conn, conn.begin():
                self._rewrite_sidecar(
                    conn, state, drop=set(), add={r.id: matrix[i] for i, r in enumerate(rows)}
                )
                for ns in sorted({r.namespace for r in rows}):
                    self._audit(conn, "knowledge_reembed", ns, entry_id=None, actor="reembed")
            done += len(rows)

    def knowledge_reembed_pending(self) -> int:
        """How many chunks have no vector from the current embedding model."""
        state = self._kb()
        with state.lock:
            current = self._load_vectors(state).rows
            with db_errors("read the knowledge base"), self._read() as conn:
                ids = [r[0] for r in conn.execute(sa.select(knowledge_chunks.c.id))]
        return sum(1 for i in ids if i not in current or current[i][0] != self.model_id)

    # -- reads ------------------------------------------------------------------------------

    def get_knowledge(self, doc_id: str, *, namespace: str | None = None) -> KnowledgeDoc | None:
        """A knowledge document by id (with ``namespace``, only if it belongs to it)."""
        if not isinstance(doc_id, str):
            raise InvalidInput("doc_id", "must be a string")
        query = sa.select(knowledge_docs).where(knowledge_docs.c.id == doc_id)
        if namespace is not None:
            query = query.where(knowledge_docs.c.namespace == namespace)
        with db_errors("read the knowledge base"), self._read() as conn:
            row = conn.execute(query).first()
        return _doc_from_row(row) if row else None

    def list_knowledge(self, namespace: str = "default") -> builtins.list[KnowledgeDoc]:
        """The documents of a namespace's knowledge base, newest first."""
        check_namespace(namespace)
        d = knowledge_docs.c
        with db_errors("list the knowledge base"), self._read() as conn:
            rows = conn.execute(
                sa.select(knowledge_docs)
                .where(d.namespace == namespace)
                .order_by(d.created_at.desc(), d.id)
            )
            return [_doc_from_row(r) for r in rows]

    def knowledge_chunks(self, doc_id: str, *, namespace: str | None = None) -> builtins.list[str]:
        """The chunk texts of a document, in order (with ``namespace``, only if it belongs to
        it: without that filter a caller scoped to one namespace could read another's chunks)."""
        if not isinstance(doc_id, str):
            raise InvalidInput("doc_id", "must be a string")
        c = knowledge_chunks.c
        query = sa.select(c.content).where(c.doc_id == doc_id)
        if namespace is not None:
            query = query.where(c.namespace == check_namespace(namespace))
        with db_errors("read the knowledge base"), self._read() as conn:
            rows = conn.execute(query.order_by(c.chunk_index))
            return [r[0] for r in rows]

    def _knowledge_index(self, namespace: str) -> _NamespaceKnowledge:
        """A namespace's chunk indexes, rebuilt when the audit log shows a knowledge change."""
        state = self._kb()
        with state.lock:
            index = state.indexes.setdefault(namespace, _NamespaceKnowledge())
        a = t.audit_log.c
        with index.lock, db_errors("load the knowledge index"), self._read() as conn:
            if index.seq < 0:
                latest = conn.execute(
                    sa.select(sa.func.max(a.seq)).where(a.namespace == namespace)
                ).scalar()
            else:
                changes = conn.execute(
                    sa.select(a.seq, a.action)
                    .where(a.namespace == namespace, a.seq > index.seq)
                    .order_by(a.seq)
                ).all()
                if not changes:
                    return index
                latest = changes[-1].seq
                if not any(c.action in KNOWLEDGE_ACTIONS for c in changes):
                    index.seq = int(latest)
                    return index
            c = knowledge_chunks.c
            rows = conn.execute(
                sa.select(c.id, c.terms, knowledge_docs.c.importance)
                .join(knowledge_docs, knowledge_docs.c.id == c.doc_id)
                .where(c.namespace == namespace)
            ).all()
            with state.lock:
                stored = self._load_vectors(state).rows
            keyword = KeywordIndex()
            keyword.add_many((r.id, r.terms.split()) for r in rows)
            vectors = VectorMatrix()
            with_vec = [r.id for r in rows if r.id in stored and stored[r.id][0] == self.model_id]
            if with_vec:
                vectors.upsert_many(with_vec, np.stack([stored[i][1] for i in with_vec]))
            index.keyword, index.vectors = keyword, vectors
            index.importance = {r.id: float(r.importance) for r in rows}
            index.seq = int(latest or 0)
        return index

    def search_knowledge(
        self,
        query: str,
        *,
        namespace: str = "default",
        k: int = 4,
        mode: str = "hybrid",
        tags: Iterable[str] | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        rerank: bool | None = None,
    ) -> builtins.list[SearchHit]:
        """Recall the chunks of a namespace's knowledge base that best answer ``query``.

        The same pipeline as memories (BM25 + vectors → RRF → gate → rerank), weighted by the
        document's importance. Hits carry ``knowledge=True`` and a synthetic entry: its id is the
        chunk id, its metadata the document's plus ``doc_id``, ``chunk_index`` and ``source``.

        Args:
            query: Natural-language query.
            namespace: Whose knowledge base.
            k: How many chunks.
            mode: ``hybrid``, ``keyword`` or ``vector``.
            tags: Only documents carrying all these tags.
            since: Only documents added at or after this.
            until: Only documents added before this.
            rerank: Override ``memory.rerankEnabled`` for this call.
        """
        check_namespace(namespace)
        if not isinstance(query, str):
            raise InvalidInput("query", "must be a string")
        if mode not in ("hybrid", "keyword", "vector"):
            raise InvalidInput("mode", f"must be hybrid, keyword or vector, not {mode!r}")
        if not isinstance(k, int) or isinstance(k, bool) or k < 0:
            raise InvalidInput("k", "must be a non-negative integer")
        if k == 0 or not query.strip():
            return []
        index = self._knowledge_index(namespace)
        if not len(index.keyword) and not len(index.vectors):
            return []
        allowed = None
        wanted = set(tags or ())
        if wanted or since is not None or until is not None:
            allowed = self._chunks_matching(namespace, wanted, since, until).__contains__
        tokens = tokenize(query)
        pool = max(self.config.candidate_pool, k * 3)
        qvec = self._query_vector(query) if mode != "keyword" else None
        with index.lock:
            kw = index.keyword.search(tokens, pool, allowed=allowed) if mode != "vector" else []
            vec = index.vectors.search(qvec, pool, allowed=allowed) if qvec is not None else []
            cand = list(dict.fromkeys([i for i, _ in kw] + [i for i, _ in vec]))
            doc_terms = {i: index.keyword.terms_of(i) for i in cand}
            sims = dict(vec)
            if qvec is not None:
                sims.update(index.vectors.similarities(qvec, [i for i in cand if i not in sims]))
            idf = {tok: index.keyword.idf(tok) for tok in set(tokens)}
            max_idf = index.keyword.max_idf()
            importance = {i: index.importance.get(i, 0.5) for i in cand}
        use_rerank = self.config.rerank_enabled if rerank is None else rerank
        get_reranker = getattr(self, "_get_reranker", None)
        reranker = get_reranker() if use_rerank and mode == "hybrid" and get_reranker else None
        # Without a reranker no chunk text is needed to rank: only the winners are read.
        found = self._chunk_entries(cand) if reranker is not None else {}
        ranked = rank_candidates(
            tokens,
            kw,
            vec,
            config=self.config,
            idf=idf.__getitem__,
            max_idf=max_idf,
            doc_tokens=doc_terms,
            similarity=sims,
            importance=importance,
            reranker=reranker,
            query_text=query,
            doc_text={i: e.content for i, e in found.items()} if found else None,
            gate=mode == "hybrid",
            limit=k,
        )
        if reranker is None:
            found = self._chunk_entries([c.id for c in ranked])
        return [
            SearchHit(found[c.id], c.score, dict(c.scores), knowledge=True)
            for c in ranked
            if c.id in found  # a chunk deleted by another process since the index was read
        ]

    def _chunks_matching(
        self, namespace: str, tags: set[str], since: datetime | None, until: datetime | None
    ) -> set[str]:
        d, c = knowledge_docs.c, knowledge_chunks.c
        query = sa.select(d.id, d.tags).where(d.namespace == namespace)
        if since is not None:
            query = query.where(d.created_at >= to_ts(since))
        if until is not None:
            query = query.where(d.created_at < to_ts(until))
        with db_errors("filter the knowledge base"), self._read() as conn:
            docs = [r.id for r in conn.execute(query) if tags.issubset(loads(r.tags, []))]
            out: set[str] = set()
            for start in range(0, len(docs), 500):
                part = docs[start : start + 500]
                out.update(r[0] for r in conn.execute(sa.select(c.id).where(c.doc_id.in_(part))))
        return out

    def _chunk_entries(self, ids: Sequence[str]) -> dict[str, MemoryEntry]:
        """Chunks as `MemoryEntry` values, so knowledge hits travel like memory hits."""
        out: dict[str, MemoryEntry] = {}
        c, d = knowledge_chunks.c, knowledge_docs.c
        with db_errors("read knowledge chunks"), self._read() as conn:
            for start in range(0, len(ids), 500):
                part = list(ids[start : start + 500])
                rows = conn.execute(
                    sa.select(
                        c.id,
                        c.doc_id,
                        c.chunk_index,
                        c.content,
                        c.namespace,
                        d.source,
                        d.importance,
                        d.provenance,
                        d.tags,
                        d.metadata,
                        d.created_at,
                        d.chunk_count,
                    )
                    .join(knowledge_docs, d.id == c.doc_id)
                    .where(c.id.in_(part))
                )
                for r in rows:
                    created = cast(datetime, from_ts(r.created_at))
                    meta = {
                        **loads(r.metadata, {}),
                        "source": r.source,
                        "doc_id": r.doc_id,
                        "chunk_index": r.chunk_index,
                        "chunk_count": r.chunk_count,
                    }
                    out[r.id] = MemoryEntry(
                        id=r.id,
                        type=MemoryType.ENVIRONMENT,
                        tier=MemoryTier.SEMANTIC,
                        key=f"kb:{r.doc_id}#{r.chunk_index}",
                        content=r.content,
                        tags=tuple(loads(r.tags, [])),
                        source_session="",
                        created_at=created,
                        updated_at=created,
                        importance=r.importance,
                        access_count=0,
                        last_accessed=created,
                        embedding_id=r.id,
                        episode_id=None,
                        version=1,
                        superseded_by=None,
                        source=ProvenanceLevel(r.provenance),
                        pinned=False,
                        namespace=r.namespace,
                        metadata=meta,
                    )
        return out

    def search_with_knowledge(
        self,
        query: str,
        *,
        namespace: str = "default",
        k: int = 10,
        mode: str = "hybrid",
        tags: Iterable[str] | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        reinforce: bool = True,
        rerank: bool | None = None,
        now: datetime | None = None,
        **memory_filters: Any,
    ) -> builtins.list[SearchHit]:
        """Recall memories and knowledge chunks together, merged by final score.

        ``tags``, ``since`` and ``until`` filter both; ``tiers``, ``types`` and ``episode_id``
        (passed through ``memory_filters`` to `search`) filter memories only. Only memory hits
        that make the final ``k`` are reinforced.
        """
        tags = None if tags is None else list(tags)
        memory = cast(Any, self).search(
            query,
            namespace=namespace,
            k=k,
            mode=mode,
            tags=tags,
            since=since,
            until=until,
            reinforce=False,
            rerank=rerank,
            now=now,
            **memory_filters,
        )
        knowledge = self.search_knowledge(
            query,
            namespace=namespace,
            k=k,
            mode=mode,
            tags=tags,
            since=since,
            until=until,
            rerank=rerank,
        )
        hits = merge_hits(memory, knowledge, k)
        recalled = [h.entry.id for h in hits if not h.knowledge]
        if reinforce and recalled:
            cast(Any, self).reinforce(recalled, namespace=namespace, now=now)
        return hits

    # -- async twins ------------------------------------------------------------------------

    async def aadd_knowledge(self, documents: Any, **kwargs: Any) -> builtins.list[KnowledgeDoc]:
        """Async twin of `add_knowledge`."""
        return await run_sync(self.add_knowledge, documents, **kwargs)

    async def adelete_knowledge(self, doc_id: str, **kwargs: Any) -> None:
        """Async twin of `delete_knowledge`."""
        await run_sync(self.delete_knowledge, doc_id, **kwargs)

    async def aget_knowledge(self, doc_id: str, **kwargs: Any) -> KnowledgeDoc | None:
        """Async twin of `get_knowledge`."""
        return await run_sync(self.get_knowledge, doc_id, **kwargs)

    async def alist_knowledge(self, namespace: str = "default") -> builtins.list[KnowledgeDoc]:
        """Async twin of `list_knowledge`."""
        return await run_sync(self.list_knowledge, namespace)

    async def asearch_knowledge(self, query: str, **kwargs: Any) -> builtins.list[SearchHit]:
        """Async twin of `search_knowledge`."""
        return await run_sync(self.search_knowledge, query, **kwargs)

    async def asearch_with_knowledge(self, query: str, **kwargs: Any) -> builtins.list[SearchHit]:
        """Async twin of `search_with_knowledge`."""
        return await run_sync(self.search_with_knowledge, query, **kwargs)

    async def areembed_knowledge(self, **kwargs: Any) -> int:
        """Async twin of `reembed_knowledge`."""
        return await run_sync(self.reembed_knowledge, **kwargs)
