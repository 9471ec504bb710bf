"""Child process for the crash test: claims a consolidation job, writes facts, then hangs."""

from __future__ import annotations

import sys
import threading

from langchain_core.messages import HumanMessage

from langchain_tiered_memory import MemoryConfig, TieredMemoryStore
from langchain_tiered_memory.consolidation import enqueue_session, run_consolidation_job
from langchain_tiered_memory.consolidation.pipeline import Steps
from tests.helpers import HashEmbeddings

MESSAGES = [
    HumanMessage("My name is Carol and I prefer green tea."),
    HumanMessage("I live in Oslo."),
]


def main(db: str) -> None:
    store = TieredMemoryStore(
        db, embeddings=HashEmbeddings(), config=MemoryConfig(rerank_enabled=False)
    )
    job, _ = enqueue_session(store, "carol", "s1", MESSAGES)

    def hang(self: Steps, state: dict) -> dict:  # after the writes, before completion
        print(f"MIDJOB {job.id} {len(state['written'])}", flush=True)
        threading.Event().wait()
        return {}

    Steps.contradictions = hang  # type: ignore[method-assign]
    run_consolidation_job(store, job.id, lease_seconds=600)


if __name__ == "__main__":
    main(sys.argv[1])
