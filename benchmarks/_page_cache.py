"""The OS page cache before a measured run: the same state for every backend.

Without this, whichever backend was built or measured last finds its pages in the page cache and
the others read theirs from disk, which a latency comparison then measures instead of the search.
"""

from __future__ import annotations

import time
from pathlib import Path

import psycopg


def database_files(pgdata: Path, conninfo: str) -> list[Path]:
    """The files of the PostgreSQL database ``conninfo`` names, in the cluster at ``pgdata``."""
    with psycopg.connect(conninfo) as c:
        row = c.execute("SELECT oid FROM pg_database WHERE datname = current_database()").fetchone()
    assert row is not None
    return sorted(p for p in (pgdata / "base" / str(row[0])).iterdir() if p.is_file())


def drop() -> bool:
    """Drop the OS page cache (root only): pages then come from disk."""
    try:
        with open("/proc/sys/vm/drop_caches", "w") as f:
            f.write("1\n")
    except OSError:
        return False
    return True


def prepare(files: list[Path], mode: str) -> str:
    """``warm``: read ``files`` once through the page cache (a server whose data fits in memory);
    ``cold``: drop the page cache. Returns what was done, to print."""
    if mode == "cold":
        return "OS page cache dropped" if drop() else "OS page cache as left (not root)"
    start, total = time.perf_counter(), 0
    for path in files:
        with path.open("rb", buffering=0) as f:
            while chunk := f.read(1 << 22):
                total += len(chunk)
    return f"OS page cache warmed ({total / 2**30:.1f} GiB read in {time.perf_counter() - start:.0f} s)"
