"""The background scheduler and durable jobs: exactly once, saturation, retries, crashes, latency."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder
from langchain_core.runnables.history import RunnableWithMessageHistory

from langchain_tiered_memory import MemoryConfig, TieredMemoryStore, WorkingMemoryHistory
from langchain_tiered_memory.consolidation import (
    ConsolidationScheduler,
    TaskPriority,
    enqueue_session,
)
from langchain_tiered_memory.consolidation.pipeline import Steps
from tests.consolidation._fakes import ScriptedChat
from tests.helpers import HashEmbeddings

ROOT = Path(__file__).resolve().parents[2]
SESSION = [
    HumanMessage("Hi, my name is Alice and I prefer dark mode."),
    AIMessage("Nice to meet you, Alice."),
    HumanMessage("I live in Berlin."),
]


def _fast(**kw: Any) -> ConsolidationScheduler:
    return ConsolidationScheduler(backoff_base=0.01, backoff_max=0.05, **kw)


def _facts(store: Any, namespace: str = "alice") -> list[Any]:
    return store.list(namespace=namespace, status=None)


# -- exactly once --------------------------------------------------------------------------------


def test_session_ended_twice_and_concurrently_is_consolidated_once(
    store: Any, db_path: Path, hash_embeddings: Any
) -> None:
    other = TieredMemoryStore(db_path, embeddings=hash_embeddings,
                              config=MemoryConfig(rerank_enabled=False))
    schedulers = [_fast(), _fast(), _fast(max_concurrency=2)]
    barrier = threading.Barrier(6)
    jobs: list[Any] = []

    def end(scheduler: ConsolidationScheduler, target: Any) -> None:
        barrier.wait()
        jobs.append(scheduler.schedule_session(target, "alice", "s1", SESSION))

    threads = [
        threading.Thread(target=end, args=(s, st))
        for s in schedulers for st in (store, other)
    ]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    for s in schedulers:
        assert s.drain(timeout=20)
    assert len({j.id for j in jobs}) == 1
    [job] = store.list_jobs(namespace="alice")
    assert job.status == "done" and job.attempts == 1
    assert len(store.list_episodes(namespace="alice", session_key="s1")) == 1
    facts = _facts(store)
    assert sorted(e.key for e in facts) == ["identity.name", "location.home", "preference.mode"]
    # Ending it once more (same messages) changes nothing.
    schedulers[0].schedule_session(store, "alice", "s1", SESSION)
    schedulers[0].drain(timeout=10)
    assert len(_facts(store)) == 3 and len(store.list_jobs()) == 1
    other.close()


def test_history_end_session_twice_from_two_threads(store: Any) -> None:
    scheduler = _fast()
    history = WorkingMemoryHistory("s7", store=store, namespace="alice", scheduler=scheduler)
    history.add_messages(SESSION)
    results: list[Any] = []
    threads = [threading.Thread(target=lambda: results.append(history.end_session()))
               for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert scheduler.drain(timeout=20)
    assert sum(r is not None for r in results) == 1
    assert len(store.list_jobs()) == 1 and store.list_jobs()[0].status == "done"
    assert len(store.list_episodes(namespace="alice", session_key="s7")) == 1


# -- saturation, retries, triggers ---------------------------------------------------------------


def test_durable_tasks_under_saturation_all_complete_best_effort_dropped() -> None:
    scheduler = _fast(max_concurrency=1, max_queue=2)
    gate = threading.Event()
    done: list[int] = []

    def task(i: int) -> Any:
        def run() -> None:
            gate.wait(5)
            done.append(i)
        return run

    accepted = [scheduler.submit(("d", i), task(i), priority=TaskPriority.DURABLE)
                for i in range(8)]
    assert all(accepted) and scheduler.saturated
    assert scheduler.submit(("b", 0), task(100), priority=TaskPriority.BEST_EFFORT) is False
    assert scheduler.submit(("d", 3), task(99)) is False  # already pending: runs once
    gate.set()
    assert scheduler.drain(timeout=10)
    assert sorted(done) == list(range(8))
    stats = scheduler.stats
    assert stats.completed == 8 and stats.dropped == 1 and stats.deduplicated == 1
    assert scheduler.submit(("b", 1), task(101), priority=TaskPriority.BEST_EFFORT) is True
    assert scheduler.drain(timeout=5) and 101 in done


def test_task_failing_twice_is_retried_from_its_factory_with_backoff() -> None:
    waits: list[float] = []
    scheduler = ConsolidationScheduler(backoff_base=0.5, backoff_max=10, sleep=waits.append)
    calls: list[int] = []

    def factory() -> Any:
        calls.append(1)

        async def work() -> str:  # a fresh coroutine per attempt
            if len(calls) <= 2:
                raise RuntimeError("flaky")
            return "ok"

        return work()

    assert scheduler.submit("k", factory)
    assert scheduler.drain(timeout=5)
    assert len(calls) == 3 and waits == [0.5, 1.0]
    assert scheduler.stats.retries == 2 and scheduler.stats.completed == 1
    assert scheduler.stats.failed == 0


def test_store_job_failing_twice_then_succeeding(
    store: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = Steps.write
    failures = {"left": 2}

    def flaky(self: Steps, state: Any) -> Any:
        if failures["left"]:
            failures["left"] -= 1
            raise RuntimeError("database hiccup")
        return real(self, state)

    monkeypatch.setattr(Steps, "write", flaky)
    scheduler = _fast()
    job = scheduler.schedule_session(store, "alice", "s1", SESSION)
    assert scheduler.drain(timeout=20)
    final = store.get_job(job.id)
    assert final.status == "done" and final.attempts == 3 and final.error is None
    assert len(_facts(store)) == 3


def test_idle_timeout_and_manual_trigger(store: Any) -> None:
    scheduler = _fast()
    config = MemoryConfig(rerank_enabled=False, consolidation_idle_seconds=0.2)
    idle = WorkingMemoryHistory("idle", store=store, namespace="alice", config=config,
                                scheduler=scheduler)
    idle.add_messages(SESSION)
    deadline = time.monotonic() + 10
    while not store.list_jobs(status="done") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [j.payload["session_id"] for j in store.list_jobs(status="done")] == ["idle"]
    assert idle.messages == []

    slow = MemoryConfig(rerank_enabled=False, consolidation_idle_seconds=3600)
    manual = WorkingMemoryHistory("manual", store=store, namespace="alice", config=slow,
                                  scheduler=scheduler)
    manual.add_messages([HumanMessage("I prefer tea.")])
    assert scheduler.trigger() == 1
    assert scheduler.drain(timeout=10)
    assert {j.payload["session_id"] for j in store.list_jobs(status="done")} == {"idle", "manual"}
    scheduler.close()


# -- leases and crashes --------------------------------------------------------------------------


def test_lease_blocks_a_second_worker_until_it_lapses(store: Any) -> None:
    job, _ = enqueue_session(store, "alice", "s1", SESSION)
    assert store.claim_job(job.id, "elsewhere:1", lease_seconds=0.2) is not None
    assert store.claim_job(job.id, "me") is None
    assert store.resume_pending() == []
    time.sleep(0.25)
    assert [j.id for j in store.resume_pending()] == [job.id]
    claimed = store.claim_job(job.id, "me")
    assert claimed is not None and claimed.attempts == 2
    assert store.complete_job(job.id, "elsewhere:1") is False  # a lapsed holder cannot finish it
    assert store.complete_job(job.id, "me") is True


def test_process_killed_mid_job_resumes_on_reopen(db_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.consolidation._crash_child", str(db_path)],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert child.stdout is not None
        line = child.stdout.readline()
        assert line.startswith("MIDJOB"), child.stderr.read() if child.stderr else line
        _, job_id, written = line.split()
        assert int(written) == 3
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=10)

    store = TieredMemoryStore(db_path, embeddings=HashEmbeddings(),
                              config=MemoryConfig(rerank_enabled=False))
    before = store.get_job(job_id)
    assert before.status == "running" and before.attempts == 1
    assert len(_facts(store, "carol")) == 3
    scheduler = _fast()
    resumed = scheduler.resume(store)
    assert [j.id for j in resumed] == [job_id]
    assert scheduler.drain(timeout=20)
    after = store.get_job(job_id)
    assert after.status == "done" and after.attempts == 2
    facts = _facts(store, "carol")
    assert len(facts) == 3 and all(e.superseded_by is None for e in facts)
    assert len(store.list_episodes(namespace="carol", session_key="s1")) == 1
    assert scheduler.resume(store) == []
    store.close()


# -- the reply path ------------------------------------------------------------------------------


def test_reply_latency_excludes_consolidation(store: Any) -> None:
    slow_llm = ScriptedChat(text="Alice said she prefers dark mode.", delay=0.6)
    scheduler = _fast(llm=slow_llm)
    prompt = ChatPromptTemplate.from_messages(
        [("system", "You are helpful."), MessagesPlaceholder("history"), ("human", "{input}")]
    )
    chat = RunnableWithMessageHistory(
        prompt | ScriptedChat(text="Hello!"),
        lambda sid: WorkingMemoryHistory(sid, store=store, namespace="alice",
                                         scheduler=scheduler),
        input_messages_key="input",
        history_messages_key="history",
    )
    config = {"configurable": {"session_id": "fast"}}
    chat.invoke({"input": "My name is Alice and I prefer dark mode."}, config)

    started = time.perf_counter()
    reply = chat.invoke({"input": "I live in Berlin."}, config)
    WorkingMemoryHistory("fast", store=store, namespace="alice",
                         scheduler=scheduler).end_session()
    reply_path = time.perf_counter() - started

    assert reply.content == "Hello!"
    assert scheduler.pending  # still consolidating after the reply returned
    background_started = time.perf_counter()
    assert scheduler.drain(timeout=30)
    background = time.perf_counter() - background_started + reply_path
    print(f"reply path {reply_path * 1000:.1f} ms; consolidation {background * 1000:.0f} ms")
    assert reply_path < 0.5 < 1.1 < background
    [job] = store.list_jobs(status="done")
    assert job.payload["result"]["summary_source"] == "llm"
    assert len(slow_llm.calls) >= 2
