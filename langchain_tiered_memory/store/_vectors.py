"""An in-memory matrix of unit vectors with id bookkeeping: O(1) add and remove, one matmul search."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np

from ..errors import EmbeddingError

__all__ = ["VectorMatrix"]


class VectorMatrix:
    """Rows of L2-normalised float32 vectors addressed by string id.

    Capacity grows by doubling up to ``max_growth`` rows at a time, then linearly; a removed row is
    filled with the last one. The linear step bounds the worst copy a single write can trigger
    once the matrix is large (a query right after a write must not pay for a 150 MB copy often).
    """

    max_growth = 16_384

    def __init__(self, dim: int | None = None) -> None:
        self.dim = dim
        self._data = np.zeros((0, dim or 0), dtype=np.float32)
        self._ids: list[str] = []
        self._row: dict[str, int] = {}

    def __len__(self) -> int:
        return len(self._ids)

    def __contains__(self, item_id: object) -> bool:
        return item_id in self._row

    def nbytes(self) -> int:
        """Approximate memory held: the matrix (with its spare capacity) and the id maps."""
        return int(self._data.nbytes) + 120 * len(self._ids)

    @property
    def ids(self) -> list[str]:
        """Ids in row order (a copy)."""
        return list(self._ids)

    def _ensure(self, dim: int, extra: int) -> None:
        if self.dim is None:
            self.dim = dim
            self._data = np.zeros((0, dim), dtype=np.float32)
        if dim != self.dim:
            raise EmbeddingError(f"vector dimension {dim} does not match the index ({self.dim})")
        need = len(self._ids) + extra
        if need > self._data.shape[0]:
            current = self._data.shape[0]
            capacity = max(need, current + min(max(current, 64), self.max_growth))
            grown = np.zeros((capacity, dim), dtype=np.float32)
            grown[: len(self._ids)] = self._data[: len(self._ids)]
            self._data = grown

    def upsert_many(self, ids: Iterable[str], matrix: np.ndarray) -> None:
        """Insert or replace rows (``matrix`` has one row per id, already normalised)."""
        ids = list(ids)
        if not ids:
            return
        self._ensure(int(matrix.shape[1]), len(ids))
        if not any(i in self._row for i in ids) and len(set(ids)) == len(ids):
            # All new (the bulk load at open): one slice assignment.
            start = len(self._ids)
            self._data[start : start + len(ids)] = matrix
            self._row.update(zip(ids, range(start, start + len(ids)), strict=True))
            self._ids.extend(ids)
            return
        for item_id, vector in zip(ids, matrix, strict=True):
            row = self._row.get(item_id)
            if row is None:
                row = len(self._ids)
                self._ids.append(item_id)
                self._row[item_id] = row
            self._data[row] = vector

    def remove(self, item_id: str) -> None:
        """Drop a row if present (the last row moves into its place)."""
        row = self._row.pop(item_id, None)
        if row is None:
            return
        last = len(self._ids) - 1
        if row != last:
            moved = self._ids[last]
            self._data[row] = self._data[last]
            self._ids[row] = moved
            self._row[moved] = row
        self._ids.pop()

    def get(self, item_id: str) -> np.ndarray | None:
        """The stored vector of ``item_id`` (a view), or None."""
        row = self._row.get(item_id)
        return None if row is None else self._data[row]

    def search(
        self,
        query: np.ndarray,
        k: int,
        *,
        allowed: Callable[[str], bool] | None = None,
    ) -> list[tuple[str, float]]:
        """Top-``k`` ids by cosine similarity to ``query`` (a unit vector)."""
        n = len(self._ids)
        if n == 0 or k <= 0 or self.dim is None or query.shape[-1] != self.dim:
            return []
        sims = self._data[:n] @ query.astype(np.float32, copy=False)
        if allowed is None:
            take = min(k, n)
            top = np.argpartition(-sims, take - 1)[:take] if take < n else np.arange(n)
            top = top[np.argsort(-sims[top], kind="stable")]
            return [(self._ids[i], float(sims[i])) for i in top]
        order = np.argsort(-sims, kind="stable")
        out: list[tuple[str, float]] = []
        for i in order:
            item_id = self._ids[i]
            if allowed(item_id):
                out.append((item_id, float(sims[i])))
                if len(out) >= k:
                    break
        return out

    def similarities(self, query: np.ndarray, ids: Iterable[str]) -> dict[str, float]:
        """Cosine similarity of ``query`` to each of ``ids`` that is in the index."""
        out: dict[str, float] = {}
        for item_id in ids:
            row = self._row.get(item_id)
            if row is not None:
                out[item_id] = float(self._data[row] @ query)
        return out
