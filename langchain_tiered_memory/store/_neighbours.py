"""Where the write-time checks find an entry's neighbours: the in-process index or the database.

The contradiction check and automatic linking (`_contradictions`, `_lattice`) ask four things of a
namespace: an entry's nearest entries by vector, the best BM25 matches of some tokens, which ids are
live SEMANTIC entries, and how similar an entry is to a few others. `NeighbourSource` names those
questions. `IndexNeighbours` answers them from the namespace's in-process `NamespaceIndex`;
`_db_neighbours.DatabaseNeighbours` from the search tables, so that a store whose search is pushed
down to PostgreSQL never loads an index for its checks either.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from ..text import tokenize
from ..types import MemoryEntry, MemoryTier
from ._index import NamespaceIndex

__all__ = ["IndexNeighbours", "NeighbourSource", "Neighbours", "token_matches"]

# Nearest ids by entry id, best first, with their cosine similarities.
Neighbours = dict[str, list[tuple[str, float]]]

# Most ids one tag / entity lookup may return.
TOKEN_MATCHES = 20


class NeighbourSource(Protocol):
    """What the contradiction check and automatic linking need of one namespace."""

    def nearest(self, entries: Sequence[MemoryEntry], k: int) -> Neighbours:
        """Each entry's ``k`` nearest active entries (itself included), best first.

        An entry without a vector of the store's embedding model gets an empty list.
        """
        ...

    def lexical(self, tokens: Sequence[str], k: int) -> list[str]:
        """Ids of the ``k`` active entries scoring best for ``tokens`` (BM25), best first."""
        ...

    def live_semantic(self, ids: Iterable[str]) -> set[str]:
        """Those of ``ids`` that are active, SEMANTIC and not superseded."""
        ...

    def similarities(self, entry_id: str, ids: Sequence[str]) -> dict[str, float]:
        """Cosine similarity of ``entry_id``'s vector to each of ``ids`` that has one."""
        ...


def token_matches(source: NeighbourSource, values: Sequence[str]) -> list[str]:
    """Ids whose indexed terms hold each value's tokens (tags are indexed with the content):
    an index lookup instead of a LIKE scan over JSON columns."""
    out: list[str] = []
    for value in values:
        tokens = tokenize(value)
        if tokens:
            out.extend(source.lexical(tokens, TOKEN_MATCHES))
    return list(dict.fromkeys(out))


class IndexNeighbours:
    """A `NeighbourSource` over a namespace's in-process index (caught up with the last write).

    Args:
        index: The namespace's index (`StoreContext.index`).
    """

    def __init__(self, index: NamespaceIndex) -> None:
        self._index = index

    def nearest(self, entries: Sequence[MemoryEntry], k: int) -> Neighbours:
        index = self._index
        out: Neighbours = {}
        with index.lock:
            for entry in entries:
                stored = index.vectors.get(entry.id)
                out[entry.id] = [] if stored is None else index.vectors.search(stored.copy(), k)
        return out

    def lexical(self, tokens: Sequence[str], k: int) -> list[str]:
        with self._index.lock:
            return [i for i, _ in self._index.keyword.search(tokens, k)]

    def live_semantic(self, ids: Iterable[str]) -> set[str]:
        # The index knows every active row's tier and successor: no SQL needed.
        semantic = MemoryTier.SEMANTIC.value
        with self._index.lock:
            meta = self._index.meta
            return {i for i in ids if (m := meta.get(i)) is not None
                    and m.tier == semantic and m.superseded_by is None}

    def similarities(self, entry_id: str, ids: Sequence[str]) -> dict[str, float]:
        index = self._index
        with index.lock:
            vec = index.vectors.get(entry_id)
            return {} if vec is None else index.vectors.similarities(vec.copy(), ids)
