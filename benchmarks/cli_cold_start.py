"""Cold start of a command-line search: the full model path against the numpy query path.

Each run is a fresh process that opens the store and answers one query, as `tiered-memory
search` does. ``full`` embeds the query with sentence-transformers (torch + transformers, the
path before issue 15); ``numpy`` with `QuickQueryEmbeddings` (the CLI's path now). Also timed:
the real ``tiered-memory search`` and ``tiered-memory list`` commands. Prints the median of the
runs (the machine is shared: medians, not means).

Run: ``python benchmarks/cli_cold_start.py [runs]``.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

QUERY = "what does she drink in the morning?"
FACTS = [
    "Alice prefers green tea over coffee",
    "Alice lives in Lyon with her cat Tom",
    "Alice works as a nurse at the city hospital",
    "Alice is allergic to peanuts",
]
SNIPPET = """
import sys
from langchain_tiered_memory import TieredMemoryStore
from langchain_tiered_memory.config import MemoryConfig
from langchain_tiered_memory.{module} import {cls}
store = TieredMemoryStore(sys.argv[1], embeddings={cls}(), config=MemoryConfig.from_env({{}}))
hits = store.search({query!r}, namespace="alice", k=3)
assert hits, "no hit"
print(hits[0].entry.content)
"""


def _time(cmd: list[str], env: dict[str, str]) -> tuple[float, str]:
    started = time.perf_counter()
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    return time.perf_counter() - started, done.stdout.strip().splitlines()[0]


def main(runs: int = 3) -> None:
    db = Path(tempfile.mkdtemp()) / "bench.db"
    url = f"sqlite:///{db}"
    env = {
        **os.environ,
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "TOKENIZERS_PARALLELISM": "false",
        "HF_HUB_DISABLE_PROGRESS_BARS": "1",
    }
    from langchain_tiered_memory import TieredMemoryStore

    with TieredMemoryStore(url) as store:
        for fact in FACTS:
            store.add(fact, namespace="alice")
    binary = str(Path(sys.executable).parent / "tiered-memory")
    variants = {
        "full (sentence-transformers)": [
            sys.executable,
            "-c",
            SNIPPET.format(module="embeddings", cls="LocalEmbeddings", query=QUERY),
            url,
        ],
        "numpy query path": [
            sys.executable,
            "-c",
            SNIPPET.format(module="minilm", cls="QuickQueryEmbeddings", query=QUERY),
            url,
        ],
        "tiered-memory search": [binary, "search", QUERY, "--db", url, "-n", "alice", "--json"],
        "tiered-memory list": [binary, "list", "--db", url, "-n", "alice", "--json"],
    }
    times: dict[str, list[float]] = {name: [] for name in variants}
    answers: dict[str, str] = {}
    for _ in range(runs):  # interleaved, so a busy moment hits every variant alike
        for name, cmd in variants.items():
            took, first = _time(cmd, env)
            times[name].append(took)
            answers[name] = first
    for name, values in times.items():
        print(
            f"{name:32s} median {statistics.median(values):6.2f} s  "
            f"(runs: {', '.join(f'{v:.2f}' for v in values)})"
        )
    full = statistics.median(times["full (sentence-transformers)"])
    quick = statistics.median(times["numpy query path"])
    print(
        f"cold start cut: {100 * (1 - quick / full):.0f} % "
        f"(same top hit: {answers['full (sentence-transformers)'] == answers['numpy query path']})"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
