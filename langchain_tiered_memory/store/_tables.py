"""Schema: every table of the store, its version, and the in-place upgrades of older files."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import sqlalchemy as sa

SCHEMA_VERSION = 4

metadata = sa.MetaData()

meta = sa.Table(
    "tm_meta",
    metadata,
    sa.Column("key", sa.String(64), primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
)

memories = sa.Table(
    "tm_memories",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("namespace", sa.String(255), nullable=False),
    sa.Column("type", sa.String(16), nullable=False),
    sa.Column("tier", sa.String(16), nullable=False),
    sa.Column("key", sa.String(512), nullable=False),
    sa.Column("content", sa.Text, nullable=False),
    sa.Column("tags", sa.Text, nullable=False, default="[]"),
    sa.Column("source_session", sa.String(255), nullable=False, default=""),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
    sa.Column("importance", sa.Float, nullable=False),
    sa.Column("access_count", sa.Integer, nullable=False, default=0),
    sa.Column("last_accessed", sa.Float, nullable=False),
    sa.Column("embedding_id", sa.String(64), nullable=False),
    sa.Column("episode_id", sa.String(64), nullable=True),
    sa.Column("version", sa.Integer, nullable=False, default=1),
    sa.Column("superseded_by", sa.String(64), nullable=True),
    sa.Column("superseded_at", sa.Float, nullable=True),
    sa.Column("source", sa.Integer, nullable=False),
    sa.Column("pinned", sa.Boolean, nullable=False, default=False),
    sa.Column("metadata", sa.Text, nullable=False, default="{}"),
    sa.Column("terms", sa.Text, nullable=False, default=""),
    # Added in schema 2.
    sa.Column("event_at", sa.Float, nullable=True),
    sa.Column("status", sa.String(16), nullable=False, default="active"),
    sa.UniqueConstraint("namespace", "key", "version", name="uq_tm_memories_key_version"),
)
sa.Index("ix_tm_memories_ns_tier", memories.c.namespace, memories.c.tier)
sa.Index("ix_tm_memories_ns_created", memories.c.namespace, memories.c.created_at)

vectors = sa.Table(
    "tm_vectors",
    metadata,
    sa.Column("owner_id", sa.String(64), primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False),  # memory | episode
    sa.Column("namespace", sa.String(255), nullable=False),
    sa.Column("model_id", sa.String(255), nullable=False),
    sa.Column("dim", sa.Integer, nullable=False),
    sa.Column("vector", sa.LargeBinary, nullable=False),
)
sa.Index("ix_tm_vectors_ns_kind_model", vectors.c.namespace, vectors.c.kind, vectors.c.model_id)
sa.Index("ix_tm_vectors_model", vectors.c.model_id)

episodes = sa.Table(
    "tm_episodes",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("namespace", sa.String(255), nullable=False),
    sa.Column("session_key", sa.String(255), nullable=False),
    sa.Column("summary", sa.Text, nullable=False),
    sa.Column("message_range_start", sa.Integer, nullable=False),
    sa.Column("message_range_end", sa.Integer, nullable=False),
    sa.Column("entity_ids", sa.Text, nullable=False, default="[]"),
    sa.Column("importance", sa.Float, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("event_at", sa.Float, nullable=True),
    sa.Column("metadata", sa.Text, nullable=False, default="{}"),
    sa.Column("terms", sa.Text, nullable=False, default=""),
    # Added in schema 3: EPISODIC, or ARCHIVAL once the namespace's retention budget pushed it out.
    sa.Column("tier", sa.String(16), nullable=False, default="episodic"),
)
sa.Index("ix_tm_episodes_ns_session", episodes.c.namespace, episodes.c.session_key)
_episodes_ns_tier = sa.Index(
    "ix_tm_episodes_ns_tier", episodes.c.namespace, episodes.c.tier, episodes.c.importance
)

contradictions = sa.Table(
    "tm_contradictions",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("namespace", sa.String(255), nullable=False),
    sa.Column("entry_a_id", sa.String(64), nullable=False),
    sa.Column("entry_b_id", sa.String(64), nullable=False),
    sa.Column("description", sa.Text, nullable=False),
    sa.Column("confidence", sa.Float, nullable=False),
    sa.Column("resolution", sa.String(255), nullable=True),
    sa.Column("resolved_at", sa.Float, nullable=True),
    sa.Column("created_at", sa.Float, nullable=False),
)
sa.Index("ix_tm_contradictions_ns", contradictions.c.namespace)
# A memory's contradictions and links are read by either end (``a = x OR b = x``): without an
# index on each end that read scanned the whole table, every namespace's rows, on each delete,
# supersede, purge and linked-context read (measured on SQLite, 200,000 links: 59 ms a read,
# 0.3 ms with the index).
_contradictions_a = sa.Index("ix_tm_contradictions_a", contradictions.c.entry_a_id)
_contradictions_b = sa.Index("ix_tm_contradictions_b", contradictions.c.entry_b_id)

links = sa.Table(
    "tm_links",
    metadata,
    sa.Column("namespace", sa.String(255), nullable=False),
    sa.Column("a", sa.String(64), primary_key=True),
    sa.Column("b", sa.String(64), primary_key=True),
    sa.Column("relation", sa.String(64), primary_key=True),
    sa.Column("created_at", sa.Float, nullable=False),
)
# ``a`` leads the primary key; ``b`` needs its own (see the contradictions' indexes).
_links_b = sa.Index("ix_tm_links_b", links.c.b)

audit_log = sa.Table(
    "tm_audit_log",
    metadata,
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("ts", sa.Float, nullable=False),
    sa.Column("namespace", sa.String(255), nullable=False),
    sa.Column("entry_id", sa.String(64), nullable=True),
    sa.Column("action", sa.String(32), nullable=False),
    sa.Column("actor", sa.String(64), nullable=False),
    sa.Column("old_value", sa.Text, nullable=True),
    sa.Column("new_value", sa.Text, nullable=True),
    sa.Column("reason", sa.Text, nullable=True),
)
sa.Index("ix_tm_audit_ns_seq", audit_log.c.namespace, audit_log.c.seq)
sa.Index("ix_tm_audit_entry", audit_log.c.entry_id)

jobs = sa.Table(
    "tm_jobs",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("namespace", sa.String(255), nullable=False),
    sa.Column("kind", sa.String(32), nullable=False),
    sa.Column("session_key", sa.String(255), nullable=False),
    sa.Column("status", sa.String(16), nullable=False),  # queued | running | done | failed
    sa.Column("payload", sa.Text, nullable=False, default="{}"),
    sa.Column("attempts", sa.Integer, nullable=False, default=0),
    sa.Column("error", sa.Text, nullable=True),
    sa.Column("lease_owner", sa.String(128), nullable=True),
    sa.Column("lease_expires", sa.Float, nullable=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
    sa.UniqueConstraint("namespace", "kind", "session_key", name="uq_tm_jobs_session"),
)

sources = sa.Table(
    "tm_sources",
    metadata,
    sa.Column("namespace", sa.String(255), primary_key=True),
    sa.Column("sha256", sa.String(64), primary_key=True),
    sa.Column("platform", sa.String(64), nullable=False),
    sa.Column("filename", sa.String(1024), nullable=False),
    sa.Column("stats", sa.Text, nullable=False, default="{}"),
    sa.Column("created_at", sa.Float, nullable=False),
)


# The knowledge base: user documents and their chunks (vectors live in a .npz sidecar).
knowledge_docs = sa.Table(
    "tm_knowledge_docs",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("namespace", sa.String(255), nullable=False),
    sa.Column("source", sa.String(1024), nullable=False, default=""),
    sa.Column("sha256", sa.String(64), nullable=False),
    sa.Column("chunk_count", sa.Integer, nullable=False),
    sa.Column("chars", sa.Integer, nullable=False),
    sa.Column("importance", sa.Float, nullable=False),
    sa.Column("provenance", sa.Integer, nullable=False),
    sa.Column("tags", sa.Text, nullable=False, default="[]"),
    sa.Column("metadata", sa.Text, nullable=False, default="{}"),
    sa.Column("created_at", sa.Float, nullable=False),
)
sa.Index("ix_tm_knowledge_docs_ns", knowledge_docs.c.namespace, knowledge_docs.c.sha256)

knowledge_chunks = sa.Table(
    "tm_knowledge_chunks",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("doc_id", sa.String(64), nullable=False),
    sa.Column("namespace", sa.String(255), nullable=False),
    sa.Column("chunk_index", sa.Integer, nullable=False),
    sa.Column("content", sa.Text, nullable=False),
    sa.Column("terms", sa.Text, nullable=False, default=""),
)
sa.Index("ix_tm_knowledge_chunks_ns", knowledge_chunks.c.namespace)
sa.Index("ix_tm_knowledge_chunks_doc", knowledge_chunks.c.doc_id)

# Named leases (re-embed queue, consolidation jobs): one holder at a time, with expiry.
leases = sa.Table(
    "tm_leases",
    metadata,
    sa.Column("name", sa.String(255), primary_key=True),
    sa.Column("owner", sa.String(255), nullable=False),
    sa.Column("expires", sa.Float, nullable=False),
    sa.Column("acquired_at", sa.Float, nullable=False),
)


def _upgrade_1_to_2(conn: sa.Connection) -> None:
    # Schema 1 had neither event time nor entry status, nor memory links.
    cols = {c["name"] for c in sa.inspect(conn).get_columns("tm_memories")}
    if "event_at" not in cols:
        conn.execute(sa.text("ALTER TABLE tm_memories ADD COLUMN event_at FLOAT"))
    if "status" not in cols:
        conn.execute(
            sa.text(
                "ALTER TABLE tm_memories ADD COLUMN status VARCHAR(16) NOT NULL DEFAULT 'active'"
            )
        )


def _upgrade_2_to_3(conn: sa.Connection) -> None:
    # Schema 2 kept every episode in the EPISODIC tier: nothing was ever archived.
    insp = sa.inspect(conn)
    if "tm_episodes" not in insp.get_table_names():
        return  # created whole by ``create_all``
    if "tier" not in {c["name"] for c in insp.get_columns("tm_episodes")}:
        conn.execute(
            sa.text(
                "ALTER TABLE tm_episodes ADD COLUMN tier VARCHAR(16) NOT NULL DEFAULT 'episodic'"
            )
        )
    # ``create_all`` adds indexes only with their table.
    _episodes_ns_tier.create(conn, checkfirst=True)


def _upgrade_3_to_4(conn: sa.Connection) -> None:
    # Schema 3 read contradictions and links by either end through a scan of the whole table.
    existing = set(sa.inspect(conn).get_table_names())
    for table, indexes in (
        ("tm_contradictions", (_contradictions_a, _contradictions_b)),
        ("tm_links", (_links_b,)),
    ):
        if table in existing:  # otherwise ``create_all`` creates it with them
            for index in indexes:
                index.create(conn, checkfirst=True)


UPGRADES = {1: _upgrade_1_to_2, 2: _upgrade_2_to_3, 3: _upgrade_3_to_4}


# -- search pushed down to PostgreSQL + pgvector (store/_db_search.py) ---------------------------
# Kept out of ``metadata``: they exist only on PostgreSQL with the ``vector`` extension, and are
# created (and back-filled from ``tm_memories`` / ``tm_vectors``) when pushdown is first enabled.


@functools.cache
def _vector_format(dim: int) -> str:
    return "[" + ",".join(["%.9g"] * dim) + "]"


def vector_text(values: Any) -> str:
    """pgvector's text form of a vector (``[0.1,0.2,...]``), exact for float32.

    Nine significant digits identify a float32 uniquely, so pgvector parses back the same
    value; one C-level ``%`` format costs a fifth of a ``repr`` per element.
    """
    floats = tuple(np.asarray(values, dtype=np.float32).tolist())
    return _vector_format(len(floats)) % floats


class PgVector(sa.types.UserDefinedType[list[float]]):
    """pgvector's ``vector`` type, bound as its text form (``[0.1,0.2,...]``).

    Without a dimension so one column holds every embedding model's vectors; the HNSW indexes
    cast to ``vector(dim)`` and are partial on ``dim``.
    """

    cache_ok = True

    def __init__(self, dim: int | None = None) -> None:
        self.dim = dim

    def get_col_spec(self, **_kw: object) -> str:
        return "vector" if self.dim is None else f"vector({self.dim})"

    def bind_processor(self, dialect: sa.Dialect) -> Callable[[Any], Any]:
        def process(value: Any) -> Any:
            if value is None or isinstance(value, str):
                return value
            return vector_text(value)

        return process


search_metadata = sa.MetaData()

search_docs = sa.Table(
    "tm_search_docs",
    search_metadata,
    sa.Column("doc_id", sa.String(64), primary_key=True),
    sa.Column("namespace", sa.String(255), nullable=False),
    sa.Column("kind", sa.String(16), nullable=False),  # memory
    sa.Column("length", sa.Integer, nullable=False),
)

search_postings = sa.Table(
    "tm_search_postings",
    search_metadata,
    sa.Column("namespace", sa.String(255), primary_key=True),
    sa.Column("kind", sa.String(16), primary_key=True),
    sa.Column("term", sa.Text, primary_key=True),
    sa.Column("doc_id", sa.String(64), primary_key=True),
    sa.Column("tf", sa.Integer, nullable=False),
    sa.Column("doc_len", sa.Integer, nullable=False),
)
sa.Index("ix_tm_search_postings_doc", search_postings.c.doc_id)
# A posting's BM25 impact with a fixed reference document length (`IMPACT_AVGDL`): the factor
# ``tf / (tf + k1 (1 - b + b dl / avgdl))`` that orders one term's postings by their share of a
# score (the term's idf is the same for all of them). The namespace's real average length moves
# the order only where tf and length trade off, so the search treats it as a proxy.
IMPACT_AVGDL = 16.0
IMPACT = (f"(tf::float8 / (tf::float8 + 0.3::float8 + 0.9::float8 * doc_len::float8"
          f" / {IMPACT_AVGDL!r}::float8))")
# The keyword list reads a namespace's postings of a few terms: with every column it needs in
# the index, that is an index-only scan over a few contiguous leaf pages, where the table's own
# rows of one term are spread over as many heap pages as the namespace fills (measured: 923
# pages read for 2,731 postings of an 8,000-memory namespace). Ordered by impact within a term,
# the same index gives a common term's best postings first, so a large namespace's search reads
# a few hundred of them instead of all (`_db_function`); the order ends on doc_id so that the
# cut is deterministic among equal impacts.
postings_impact = sa.Index(
    "ix_tm_search_postings_impact",
    search_postings.c.namespace,
    search_postings.c.kind,
    search_postings.c.term,
    sa.text(f"{IMPACT} DESC"),
    search_postings.c.doc_id,
    postgresql_include=["tf", "doc_len"],
)
# What earlier releases created in its place (same leading columns, no order): dropped once the
# impact index exists (`_db_function.ensure_search_function`).
POSTINGS_COVER = "ix_tm_search_postings_cover"

search_terms = sa.Table(
    "tm_search_terms",
    search_metadata,
    sa.Column("namespace", sa.String(255), primary_key=True),
    sa.Column("kind", sa.String(16), primary_key=True),
    sa.Column("term", sa.Text, primary_key=True),
    sa.Column("df", sa.Integer, nullable=False),
)

search_namespaces = sa.Table(
    "tm_search_namespaces",
    search_metadata,
    sa.Column("namespace", sa.String(255), primary_key=True),
    sa.Column("kind", sa.String(16), primary_key=True),
    sa.Column("n_docs", sa.Integer, nullable=False),
    sa.Column("total_len", sa.BigInteger, nullable=False),
)

search_vectors = sa.Table(
    "tm_search_vectors",
    search_metadata,
    sa.Column("owner_id", sa.String(64), primary_key=True),
    sa.Column("namespace", sa.String(255), nullable=False),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("model_id", sa.String(255), nullable=False),
    sa.Column("dim", sa.Integer, nullable=False),
    sa.Column("embedding", PgVector(), nullable=False),
)
sa.Index(
    "ix_tm_search_vectors_ns",
    search_vectors.c.namespace,
    search_vectors.c.kind,
    search_vectors.c.model_id,
    search_vectors.c.dim,
)
