"""The provenance rule: a less trusted source never replaces a more trusted one."""

from __future__ import annotations

import enum

from .errors import MemoryWriteBlocked
from .types import MemoryEntry, ProvenanceLevel

__all__ = ["WritePath", "check_replace", "max_provenance", "provenance_guard"]


class WritePath(str, enum.Enum):
    """Who is writing; each path has a ceiling on the provenance it may claim."""

    API = "api"  # the application calling the store directly: any level
    USER = "user"  # explicit user-facing calls (REST with a user token, CLI edit)
    CONSOLIDATION = "consolidation"
    AGENT_TOOL = "agent_tool"
    IMPORT = "import"
    LANGGRAPH_STORE = "langgraph_store"


_CEILING = {
    WritePath.API: ProvenanceLevel.USER_STATED,
    WritePath.USER: ProvenanceLevel.USER_STATED,
    WritePath.CONSOLIDATION: ProvenanceLevel.CONSOLIDATED,
    WritePath.IMPORT: ProvenanceLevel.CONSOLIDATED,
    WritePath.AGENT_TOOL: ProvenanceLevel.MODEL_INFERRED,
    WritePath.LANGGRAPH_STORE: ProvenanceLevel.MODEL_INFERRED,
}


def max_provenance(path: WritePath) -> ProvenanceLevel:
    """The highest provenance a write through ``path`` may claim."""
    return _CEILING[path]


def provenance_guard(existing: MemoryEntry, incoming: MemoryEntry) -> bool:
    """Return True when ``incoming`` may replace ``existing`` (its source is at least as trusted)."""
    return int(incoming.source) >= int(existing.source)


def check_replace(existing: MemoryEntry, incoming: MemoryEntry) -> None:
    """Raise `MemoryWriteBlocked` when `provenance_guard` refuses the replacement."""
    if not provenance_guard(existing, incoming):
        raise MemoryWriteBlocked(
            "provenance",
            rule="provenance_guard",
            detail=(
                f"a {incoming.source.label} write cannot replace the {existing.source.label} "
                f"entry {existing.id} for key {existing.key!r}"
            ),
        )
