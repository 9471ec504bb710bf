"""Crash safety: SIGKILL in the middle of add_many, an import, a consolidation and a re-embed.

On reopen the store is consistent (every entry has its vector and every vector its owner, no
half version chain, the audit log matches the rows) and the interrupted work resumes. All the
children of one backend run in parallel (starting an interpreter is the slow part).
`benchmarks/crash_loop.py` runs this 20 times in a row.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
import sqlalchemy as sa

from tests.reliability._checks import consistency_problems
from tests.reliability._crash import Crash, run_crashes
from tests.reliability._crash_child import MESSAGES, batch
from tests.reliability._procs import open_store

MODES = ("add_many", "loop", "import", "consolidation", "reembed")


def write_export(path: Path, n: int = 40) -> Path:
    """A JSONL chat export whose conversations state facts (some keys restated, some changed)."""
    cities = ["Oslo", "Lima", "Kyoto", "Quito"]
    with path.open("w") as f:
        for i in range(n):
            msgs = [{"role": "user", "content": f"I live in {cities[i % 4]}."},
                    {"role": "assistant", "content": "Noted."},
                    {"role": "user", "content": f"I have a cat called Tom{i}."}]
            f.write(json.dumps({"id": f"c{i}", "messages": msgs}) + "\n")
    return path


def new_url(request: pytest.FixtureRequest, backend: str, tmp: Path, name: str) -> str:
    if backend == "postgres":
        return str(request.getfixturevalue("pg_cluster").new_database())
    return f"sqlite:///{tmp / (name + '.db')}"


@pytest.fixture(scope="module", params=["sqlite-file", "postgres"])
def crashed(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    """Every crash mode run once on fresh databases of one backend: ``{mode: Crash}``."""
    tmp = tmp_path_factory.mktemp("crash")
    export = write_export(tmp / "export.jsonl")
    crashes = {}
    for mode in MODES:
        url = new_url(request, request.param, tmp, mode)
        seed = open_store(url, model_id="test/old-32", dim=32) if mode == "reembed" else None
        if seed is not None:
            seed.add_many([f"old note {i} about pebbles" for i in range(60)], namespace="emb")
            seed.close()
        else:
            open_store(url).close()
        crashes[mode] = Crash(mode, url, str(export) if mode == "import" else "")
    run_crashes(list(crashes.values()), seed=7)
    return {"crashes": crashes, "export": export, "tmp": tmp, "backend": request.param}


def count(url: str, sql: str) -> int:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            return int(conn.execute(sa.text(sql)).scalar() or 0)
    finally:
        engine.dispose()


def test_add_many_killed_inside_its_transaction(crashed) -> None:
    c = crashed["crashes"]["add_many"]
    assert consistency_problems(c.url) == []
    store = open_store(c.url)
    try:
        assert store.count(namespace="crash") == 30  # round 1 only: round 2 left no trace
        live = store.list(namespace="crash", include_superseded=False)
        assert all(e.content.startswith("round 1 ") for e in live)
        # Resume: the interrupted call runs again from the start and succeeds.
        store.add_many(batch(2), namespace="crash")
        assert [e.version for e in store.history("k3", namespace="crash")] == [1, 2, 3, 4]
        hits = store.search("round 2 item 13 maple", namespace="crash", mode="keyword", k=1)
        assert hits and hits[0].entry.content == "round 2 item 13 about maple 3"
    finally:
        store.close()
    assert consistency_problems(c.url) == []


def test_add_many_killed_at_a_random_moment(crashed) -> None:
    c = crashed["crashes"]["loop"]
    committed = [line.split()[2].split(",") for line in c.lines if line.startswith("COMMITTED")]
    assert len(committed) >= 2
    assert consistency_problems(c.url) == []
    store = open_store(c.url)
    try:
        acked = [i for ids in committed for i in ids]
        assert len(store.get_many(acked, namespace="crash")) == len(acked)  # no lost batch
        assert store.count(namespace="crash") % 20 == 0  # whole batches only
        store.add_many(batch(99, 20), namespace="crash")
    finally:
        store.close()
    assert consistency_problems(c.url) == []


def test_import_killed_mid_batch_resumes(crashed, request: pytest.FixtureRequest) -> None:
    from langchain_tiered_memory.importer import import_file

    c = crashed["crashes"]["import"]
    assert consistency_problems(c.url) == []
    store = open_store(c.url)
    try:
        report = import_file(store, crashed["export"], namespace="imp", batch_size=10)
        assert not report.skipped and report.conversations == 40
        resumed = {e.key: e.content for e in store.list(namespace="imp",
                                                       include_superseded=False)}
        episodes = Counter(e.session_key for e in store.list_episodes(namespace="imp"))
    finally:
        store.close()
    assert consistency_problems(c.url) == []
    clean_url = new_url(request, crashed["backend"], crashed["tmp"], "clean-import")
    clean = open_store(clean_url)
    try:
        import_file(clean, crashed["export"], namespace="imp", batch_size=10)
        expected = {e.key: e.content for e in clean.list(namespace="imp",
                                                         include_superseded=False)}
    finally:
        clean.close()
    assert resumed == expected  # the same live facts as an import that never crashed
    assert len(episodes) == 40
    crashed["import_episodes"] = episodes


def test_resumed_import_writes_each_episode_once(crashed) -> None:
    episodes = crashed.get("import_episodes")
    assert episodes is not None
    assert max(episodes.values()) == 1


def test_consolidation_killed_mid_write_resumes(crashed) -> None:
    from langchain_tiered_memory.consolidation import enqueue_session, run_consolidation_job

    c = crashed["crashes"]["consolidation"]
    job_id = next(line.split()[1] for line in c.lines if line.startswith("JOB"))
    assert consistency_problems(c.url) == []
    store = open_store(c.url)
    try:
        pending = store.resume_pending(namespace="carol")
        assert [j.id for j in pending] == [job_id]  # running, but its owner is dead
        again, created = enqueue_session(store, "carol", "s1", MESSAGES)
        assert again.id == job_id and not created  # the session is not queued twice
        final = run_consolidation_job(store, job_id)
        assert final is not None
        job = store.get_job(job_id)
        assert job is not None and job.status == "done" and job.attempts == 2
        live = store.list(namespace="carol", include_superseded=False)
        keys = Counter(e.key for e in live)
        assert keys and max(keys.values()) == 1
        assert {e.content for e in live} >= {"User lives in Oslo", "User's name is Carol"}
        assert len({e.content for e in store.list(namespace="carol")}) == len(
            store.list(namespace="carol"))  # nothing written twice by the two attempts
        assert len(store.list_episodes(namespace="carol")) == 1
    finally:
        store.close()
    assert consistency_problems(c.url) == []


def test_reembed_killed_mid_queue_resumes(crashed) -> None:

    c = crashed["crashes"]["reembed"]
    assert consistency_problems(c.url) == []
    store = open_store(c.url)
    try:
        assert store.reembed_pending() == 40  # two batches of ten committed before the kill
        assert store.reembed() == 40  # the dead worker's lease is taken over at once
        assert store.reembed_pending() == 0
    finally:
        store.close()
    assert count(c.url, "SELECT count(*) FROM tm_audit_log WHERE action = 'reembed'") == 60
