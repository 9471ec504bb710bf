"""The tiered store: SQLAlchemy Core tables, in-memory indexes, audit log, jobs."""

from ._store import TieredMemoryStore

__all__ = ["TieredMemoryStore"]
