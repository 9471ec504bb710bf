"""A byte-bounded, least-recently-used cache of per-namespace search indexes.

A process that serves many users must not keep every namespace it ever touched. Each namespace's
`NamespaceIndex` is charged its approximate size after it loads or catches up; when the total
goes over ``memory.indexCacheBytes`` the least recently used namespaces are dropped. Dropping
loses nothing: the rows are in the database and the next search reloads them, audit catch-up
included.

A namespace in use (pinned by a search, a load or a contradiction check) is never dropped under its
user. Whatever could not be dropped for that reason is dropped when the last user unpins it, so the
budget holds again as soon as the searches that held it end. (Skipping busy namespaces without
that second pass left the cache over budget after concurrent searches: 151,992 of 120,000 bytes
with four threads.)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from ._index import NamespaceIndex

__all__ = ["IndexCache", "IndexCacheStats"]

# Per memory: RowMeta (slots, boxed floats, tag set, id string) and its dict entry, beyond what
# the two indexes report; calibrated with tracemalloc on 30,000 memories.
_META_BYTES = 700


@dataclass(frozen=True, slots=True)
class IndexCacheStats:
    """Counters of the index cache since the store opened.

    Attributes:
        hits: Searches that found their namespace loaded.
        misses: Searches that had to create it.
        loads: Full loads from the database (a miss, or a reload after a failed load).
        evictions: Namespaces dropped to stay within the budget.
        bytes: Approximate bytes held now.
        budget: The budget (``memory.indexCacheBytes``).
        namespaces: Namespaces held now.
    """

    hits: int
    misses: int
    loads: int
    evictions: int
    bytes: int
    budget: int
    namespaces: int


def index_nbytes(index: NamespaceIndex) -> int:
    """Approximate memory held by one namespace's indexes."""
    return (
        index.keyword.nbytes()
        + index.vectors.nbytes()
        + index.episode_keyword.nbytes()
        + index.episode_vectors.nbytes()
        + _META_BYTES * len(index.meta)
    )


class IndexCache:
    """Namespace → `NamespaceIndex`, least recently used first, within a byte budget.

    Args:
        budget: Bytes the cached indexes may hold together. One namespace larger than the budget
            is still served (and dropped once another is needed).
    """

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self._lock = threading.Lock()
        self._items: OrderedDict[str, NamespaceIndex] = OrderedDict()
        self._sizes: dict[str, int] = {}
        self._pins: dict[str, int] = {}
        self._hits = self._misses = self._loads = self._evictions = 0

    def pin(self, namespace: str) -> NamespaceIndex:
        """The namespace's index (empty and unloaded on a miss), marked most recently used and
        kept until `unpin`."""
        with self._lock:
            self._pins[namespace] = self._pins.get(namespace, 0) + 1
            index = self._items.get(namespace)
            if index is None:
                self._misses += 1
                index = self._items[namespace] = NamespaceIndex()
                self._sizes[namespace] = 0
            else:
                self._hits += 1
                self._items.move_to_end(namespace)
            return index

    def unpin(self, namespace: str) -> None:
        """End a use begun by `pin`; the last user out drops what the budget could not hold."""
        with self._lock:
            left = self._pins[namespace] - 1
            if left:
                self._pins[namespace] = left
                return
            del self._pins[namespace]
            self._evict(keep=None)

    def get(self, namespace: str) -> NamespaceIndex | None:
        """The namespace's index if cached, without counting a use."""
        with self._lock:
            return self._items.get(namespace)

    def charge(self, namespace: str, index: NamespaceIndex, *, loaded: bool) -> None:
        """Record the index's size after a load or catch-up, then evict down to the budget."""
        size = index_nbytes(index)
        with self._lock:
            if loaded:
                self._loads += 1
            if self._items.get(namespace) is index:
                self._sizes[namespace] = size
            self._evict(keep=namespace)

    def _evict(self, *, keep: str | None) -> None:
        total = sum(self._sizes.values())
        if total <= self.budget:
            return
        for name in list(self._items):
            if total <= self.budget:
                break
            if name == keep or name in self._pins:
                continue
            del self._items[name]
            total -= self._sizes.pop(name, 0)
            self._evictions += 1

    def clear(self) -> None:
        """Drop every namespace (counters are kept)."""
        with self._lock:
            self._items.clear()
            self._sizes.clear()

    def stats(self) -> IndexCacheStats:
        """The counters and the bytes held now."""
        with self._lock:
            return IndexCacheStats(
                self._hits, self._misses, self._loads, self._evictions,
                sum(self._sizes.values()), self.budget, len(self._items),
            )
