"""Recall latency percentiles (in process) and metric histories (from the audit log)."""

from __future__ import annotations

import threading
import time
from collections import deque
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..store import TieredMemoryStore

__all__ = ["METRIC_NAMES", "LatencyRecorder", "metric_history", "percentile"]

METRIC_NAMES = ("memory_count", "blocked_writes", "imports", "recall_latency_ms")
_DAY = 86_400.0


def percentile(sorted_values: list[float], q: float) -> float:
    """Linear-interpolated percentile (``q`` in 0..100) of already sorted values."""
    if not sorted_values:
        return 0.0
    pos = (len(sorted_values) - 1) * q / 100.0
    lo = int(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


class LatencyRecorder:
    """The last ``size`` recall latencies per namespace, with their wall-clock times."""

    def __init__(self, size: int = 5000) -> None:
        self.size = size
        self._samples: dict[str, deque[tuple[float, float]]] = {}
        self._lock = threading.Lock()

    def record(self, namespace: str, millis: float) -> None:
        """Add one sample."""
        with self._lock:
            self._samples.setdefault(namespace, deque(maxlen=self.size)).append(
                (time.time(), millis))

    def samples(self, namespace: str) -> list[tuple[float, float]]:
        """``(unix time, milliseconds)`` pairs, oldest first."""
        with self._lock:
            return list(self._samples.get(namespace, ()))

    def percentiles(self, namespace: str) -> dict[str, float]:
        """Count, p50, p95, p99 and max of the recorded latencies (ms)."""
        values = sorted(ms for _, ms in self.samples(namespace))
        return {"count": len(values), "p50": round(percentile(values, 50), 3),
                "p95": round(percentile(values, 95), 3), "p99": round(percentile(values, 99), 3),
                "max": round(values[-1], 3) if values else 0.0}


def metric_history(
    store: TieredMemoryStore, namespace: str, name: str, latency: LatencyRecorder
) -> list[dict[str, float]]:
    """Points ``{"ts", "value"}`` of one metric: daily values from the audit log
    (``memory_count`` cumulative, ``blocked_writes`` and ``imports`` per day), or the raw recall
    latency samples."""
    if name == "recall_latency_ms":
        return [{"ts": ts, "value": ms} for ts, ms in latency.samples(namespace)]
    deltas = {
        "memory_count": {"add": 1.0, "delete": -1.0, "gc_purge": -1.0},
        "blocked_writes": {"blocked": 1.0},
        "imports": {"source_add": 1.0},
    }[name]
    per_day: dict[float, float] = {}
    for row in store.audit_log(namespace=namespace):
        delta = deltas.get(row["action"])
        if delta:
            day = float(row["ts"]) // _DAY * _DAY
            per_day[day] = per_day.get(day, 0.0) + delta
    points: list[dict[str, float]] = []
    running = 0.0
    for day in sorted(per_day):
        running = running + per_day[day] if name == "memory_count" else per_day[day]
        points.append({"ts": day, "value": running})
    return points
