"""The knowledge base's storage: its tables, its documents, and the .npz vector sidecar."""

from __future__ import annotations

import builtins
import contextlib
import os
import tempfile
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, cast

import numpy as np
import sqlalchemy as sa
from langchain_core.documents import Document

from ..errors import ConfigError, InvalidInput, StoreError
from ..retrieval import KeywordIndex
from ..types import ProvenanceLevel, SearchHit
from ._db import from_ts, loads
from ._vectors import VectorMatrix

# Audit actions of the knowledge base (their entry_id is a document id, not a memory entry).
KNOWLEDGE_ACTIONS = frozenset({"knowledge_add", "knowledge_delete", "knowledge_reembed"})

_STATE_LOCK = threading.Lock()


@dataclass(frozen=True, slots=True)
class KnowledgeDoc:
    """One document of the knowledge base (its chunks are searched, not the document itself)."""

    id: str
    namespace: str
    source: str
    chunk_count: int
    chars: int
    importance: float
    tags: tuple[str, ...]
    metadata: Mapping[str, Any]
    created_at: datetime
    sha256: str


# -- the sidecar file ---------------------------------------------------------------------------


@dataclass
class _Vectors:
    """The sidecar's content: chunk id → (model id, unit vector)."""

    rows: dict[str, tuple[str, np.ndarray]] = field(default_factory=dict)


def knowledge_sidecar_path(url: str) -> Path | None:
    """Where the knowledge vectors of a store at ``url`` live (``x.db`` → ``x.knowledge.npz``).

    Returns None for an in-memory SQLite database (the sidecar is then kept in memory too).

    Raises:
        ConfigError: A server database has no file to sit next to; set ``knowledge_path``.
    """
    parsed = sa.engine.make_url(url)
    if parsed.get_backend_name() != "sqlite":
        raise ConfigError(
            "knowledge_path",
            "the knowledge base of a server database needs a sidecar path: set "
            "store.knowledge_path or MemoryConfig(extra={'knowledge_path': ...})",
        )
    db = parsed.database
    if db in (None, "", ":memory:") or (db or "").startswith("file::memory:"):
        return None
    path = Path(cast(str, db))
    return path.with_name(f"{path.stem}.knowledge.npz")


def _read_sidecar(path: Path) -> _Vectors:
    if not path.exists():
        return _Vectors()
    try:
        with np.load(path, allow_pickle=False) as z:
            ids, models, dims, data = z["ids"], z["model_ids"], z["dims"], z["data"]
    except Exception as exc:  # a truncated or foreign file must not take recall down silently
        raise StoreError(
            f"cannot read the knowledge sidecar {path}: {exc}; "
            "store.reembed_knowledge(rebuild=True) rebuilds it from the database"
        ) from exc
    out = _Vectors()
    offset = 0
    for chunk_id, model, dim in zip(ids.tolist(), models.tolist(), dims.tolist(), strict=True):
        out.rows[chunk_id] = (model, data[offset : offset + dim])
        offset += dim
    return out


def _write_sidecar(path: Path, vectors: _Vectors) -> None:
    """Write the whole sidecar to a temporary file, then rename it over the old one (atomic)."""
    ids = list(vectors.rows)
    models = [vectors.rows[i][0] for i in ids]
    arrays = [np.asarray(vectors.rows[i][1], dtype=np.float32).ravel() for i in ids]
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            np.savez(
                fh,
                ids=np.array(ids, dtype=str),
                model_ids=np.array(models, dtype=str),
                dims=np.array([len(a) for a in arrays], dtype=np.int64),
                data=np.concatenate(arrays) if arrays else np.zeros(0, dtype=np.float32),
            )
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


@dataclass
class _NamespaceKnowledge:
    keyword: KeywordIndex = field(default_factory=KeywordIndex)
    vectors: VectorMatrix = field(default_factory=VectorMatrix)
    importance: dict[str, float] = field(default_factory=dict)  # chunk id → its doc's
    seq: int = -1
    lock: threading.RLock = field(default_factory=threading.RLock)


@dataclass
class _State:
    path: Path | None
    memory: _Vectors = field(default_factory=_Vectors)  # the sidecar of an in-memory store
    cache_key: tuple[int, int, int] | None = None
    cache: _Vectors | None = None
    indexes: dict[str, _NamespaceKnowledge] = field(default_factory=dict)
    lock: threading.RLock = field(default_factory=threading.RLock)


def merge_hits(
    memory: Sequence[SearchHit], knowledge: Sequence[SearchHit], k: int
) -> builtins.list[SearchHit]:
    """Merge memory and knowledge hits by final score (ties: memories first), keeping ``k``.

    Both scores are fused RRF scores times an importance (the entry's effective importance, the
    document's importance), so they are on the same scale.
    """
    return sorted([*memory, *knowledge], key=lambda h: -h.score)[:k]


@dataclass(slots=True)
class _Prepared:
    """One document, checked and chunked, waiting for its transaction."""

    doc_id: str
    text: str
    chunks: builtins.list[str]
    metadata: dict[str, Any]
    source: str
    sha256: str
    importance: float
    level: ProvenanceLevel
    tags: tuple[str, ...]
    existing: KnowledgeDoc | None

    def as_doc(self, namespace: str, now: datetime) -> KnowledgeDoc:
        return KnowledgeDoc(
            id=self.doc_id,
            namespace=namespace,
            source=self.source,
            chunk_count=len(self.chunks),
            chars=len(self.text),
            importance=self.importance,
            tags=self.tags,
            metadata=self.metadata,
            created_at=now,
            sha256=self.sha256,
        )


def _as_documents(documents: Any) -> builtins.list[Document]:
    if isinstance(documents, str | Document):
        documents = [documents]
    try:
        items = list(documents)
    except TypeError:
        raise InvalidInput("documents", "expected a str, a Document or a list of them") from None
    if not items:
        raise InvalidInput("documents", "nothing to add")
    out: builtins.list[Document] = []
    for i, item in enumerate(items):
        if isinstance(item, str):
            out.append(Document(page_content=item))
        elif isinstance(item, Document):
            out.append(item)
        else:
            raise InvalidInput(
                "documents",
                f"expected a str or a Document, got {type(item).__name__}",
                item_index=i,
            )
    return out


def _strings_arg(value: Iterable[str], name: str) -> builtins.list[str]:
    if isinstance(value, str):
        raise InvalidInput(name, "must be a list of strings")
    items = list(value)
    if not all(isinstance(x, str) and x.strip() for x in items):
        raise InvalidInput(name, "every item must be a non-empty string")
    return items


def _doc_from_row(row: Any) -> KnowledgeDoc:
    m = row._mapping
    return KnowledgeDoc(
        id=m["id"],
        namespace=m["namespace"],
        source=m["source"],
        chunk_count=m["chunk_count"],
        chars=m["chars"],
        importance=m["importance"],
        tags=tuple(loads(m["tags"], [])),
        metadata=loads(m["metadata"], {}),
        created_at=cast(datetime, from_ts(m["created_at"])),
        sha256=m["sha256"],
    )
