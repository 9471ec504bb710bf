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
import os
from collections.abc import Iterable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np
import sqlalchemy as sa
from langchain_core.documents import Document

from ..errors import ConfigError, EntryNotFound, InvalidInput
from ..provenance import WritePath, max_provenance
from ..text import tokenize
from ..types import ProvenanceLevel, new_id
from ._db import db_errors, dumps, to_ts
from ._knowledge_files import (
    _STATE_LOCK,
    KnowledgeDoc,
    _as_documents,
    _doc_from_row,
    _Prepared,
    _read_sidecar,
    _State,
    _Vectors,
    _write_sidecar,
    knowledge_sidecar_path,
    merge_hits,
)
from ._rows import Draft, check_metadata, check_namespace, check_tags
from ._shared import StoreContext
from ._tables import knowledge_chunks, knowledge_docs
from ._writer import Writer

__all__ = ["Knowledge", "KnowledgeDoc", "knowledge_sidecar_path", "merge_hits"]


class Knowledge:
    """The knowledge base: user documents, chunked, with vectors in a .npz sidecar."""

    def __init__(self, ctx: StoreContext, writer: Writer) -> None:
        self._ctx = ctx
        self._writer = writer
        # Built on first use, so a store that never touches its knowledge base pays nothing.
        self._kb_state: _State | None = None
        self._knowledge_path: Path | None = None

    # -- state ------------------------------------------------------------------------------

    def state(self) -> _State:
        """The sidecar path, vector cache and per-namespace chunk indexes (built on first use)."""
        state = self._kb_state
        if state is None:
            with _STATE_LOCK:
                state = self._kb_state
                if state is None:
                    state = _State(self._resolve_knowledge_path())
                    self._kb_state = state
        return state

    def _resolve_knowledge_path(self) -> Path | None:
        explicit = self._knowledge_path or self._ctx.config.extra.get("knowledge_path")
        if explicit:
            return Path(explicit)
        return knowledge_sidecar_path(self._ctx.url)

    @property
    def knowledge_path(self) -> Path | None:
        """The ``.npz`` sidecar holding knowledge vectors (None: kept in memory).

        Derived from a SQLite file URL; set it before first use for other databases.
        """
        return self.state().path

    @knowledge_path.setter
    def knowledge_path(self, value: str | os.PathLike[str] | None) -> None:
        self._knowledge_path = None if value is None else Path(value)
        with _STATE_LOCK:
            self._kb_state = _State(self._resolve_knowledge_path())

    def load_vectors(self, state: _State) -> _Vectors:
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
        tag_tuple = check_tags(
            list(tags)
            if isinstance(tags, Iterable) and not isinstance(tags, str | bytes | Mapping)
            else tags,
            self._ctx.limits,
        )
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
        matrix = self._ctx.embed(texts) if texts else None
        state = self.state()
        now = self._ctx.clock()
        with state.lock, db_errors("add knowledge"), self._ctx.write() as conn, conn.begin():
            replaced: set[str] = set()
            new_vectors: dict[str, np.ndarray] = {}
            row = 0
            for p in todo:
                replaced |= self._drop_doc(conn, p.doc_id, namespace)
                self._insert_doc(conn, p, namespace, now, path)
                for idx, chunk in enumerate(p.chunks):
                    chunk_id = new_id(namespace)
                    conn.execute(
                        sa.insert(knowledge_chunks).values(
                            id=chunk_id,
                            doc_id=p.doc_id,
                            namespace=namespace,
                            chunk_index=idx,
                            content=chunk,
                            terms=" ".join(tokenize(chunk + " " + " ".join(p.tags))),
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
        if metadata is not None and not isinstance(metadata, Mapping):
            raise InvalidInput("metadata", "must be a dict", item_index=index)
        meta = {**doc.metadata, **(metadata or {})}
        src = source if source is not None else str(meta.get("source", ""))
        meta["source"] = src
        doc_id = doc.id or new_id()
        if not isinstance(doc_id, str) or len(doc_id) > 64:
            raise InvalidInput(
                "documents", "a document id is a string of <= 64 characters", item_index=index
            )
        whole = Draft(
            content=doc.page_content,
            namespace=namespace,
            tags=tags,
            metadata=check_metadata(meta, self._ctx.limits, index),
            source=level,
        )
        # The whole text first: an injection split across a chunk boundary is still caught.
        # The guard applies the PII policy to the metadata and tags too: keep what it returns.
        whole = self._writer.guard(whole, path, index)
        text, meta, tags = whole.content, whole.metadata, whole.tags
        src = str(meta.get("source", ""))
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
            self._writer.guard(Draft(content=chunk, namespace=namespace, source=level), path, index)
        return _Prepared(doc_id, text, chunks, meta, src, digest, importance, level, tags, None)

    def _doc_by_hash(self, namespace: str, digest: str) -> KnowledgeDoc | None:
        d = knowledge_docs.c
        with db_errors("read the knowledge base"), self._ctx.read() as conn:
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
        self._ctx.audit(
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
            # Ids are global: say no more than that this one cannot be used, not where it is.
            raise InvalidInput("documents", "this document id cannot be used; choose another")
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
        current = self.load_vectors(state)
        live = {r[0] for r in conn.execute(sa.select(knowledge_chunks.c.id))}
        model = model_id or self._ctx.model_id
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
        state = self.state()
        with state.lock, db_errors("delete knowledge"), self._ctx.write() as conn, conn.begin():
            dropped = self._drop_doc(conn, doc.id, doc.namespace)
            self._ctx.audit(
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
        state = self.state()
        if rebuild:
            with state.lock:
                self._store_vectors(state, _Vectors())
        done = 0
        while True:
            with state.lock:
                current = self.load_vectors(state).rows
                with db_errors("read the knowledge base"), self._ctx.read() as conn:
                    rows = [
                        r
                        for r in conn.execute(
                            sa.select(
                                knowledge_chunks.c.id,
                                knowledge_chunks.c.content,
                                knowledge_chunks.c.namespace,
                            )
                        )
                        if r.id not in current or current[r.id][0] != self._ctx.model_id
                    ][:batch_size]
            if not rows:
                return done
            matrix = self._ctx.embed([r.content for r in rows])
            with state.lock, db_errors("re-embed knowledge"), self._ctx.write() as conn, conn.begin():
                self._rewrite_sidecar(
                    conn, state, drop=set(), add={r.id: matrix[i] for i, r in enumerate(rows)}
                )
                for ns in sorted({r.namespace for r in rows}):
                    self._ctx.audit(conn, "knowledge_reembed", ns, entry_id=None, actor="reembed")
            done += len(rows)

    def knowledge_reembed_pending(self) -> int:
        """How many chunks have no vector from the current embedding model."""
        state = self.state()
        with state.lock:
            current = self.load_vectors(state).rows
            with db_errors("read the knowledge base"), self._ctx.read() as conn:
                ids = [r[0] for r in conn.execute(sa.select(knowledge_chunks.c.id))]
        return sum(1 for i in ids if i not in current or current[i][0] != self._ctx.model_id)

    # -- reads ------------------------------------------------------------------------------

    def get_knowledge(self, doc_id: str, *, namespace: str | None = None) -> KnowledgeDoc | None:
        """A knowledge document by id (with ``namespace``, only if it belongs to it)."""
        if not isinstance(doc_id, str):
            raise InvalidInput("doc_id", "must be a string")
        query = sa.select(knowledge_docs).where(knowledge_docs.c.id == doc_id)
        if namespace is not None:
            query = query.where(knowledge_docs.c.namespace == namespace)
        with db_errors("read the knowledge base"), self._ctx.read() as conn:
            row = conn.execute(query).first()
        return _doc_from_row(row) if row else None

    def list_knowledge(self, namespace: str = "default") -> builtins.list[KnowledgeDoc]:
        """The documents of a namespace's knowledge base, newest first."""
        check_namespace(namespace)
        d = knowledge_docs.c
        with db_errors("list the knowledge base"), self._ctx.read() as conn:
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
        with db_errors("read the knowledge base"), self._ctx.read() as conn:
            rows = conn.execute(query.order_by(c.chunk_index))
            return [r[0] for r in rows]






