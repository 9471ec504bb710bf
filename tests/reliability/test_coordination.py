"""Leases (`store._coordination`): one holder at a time, expiry takeover, and the re-embed queue
drained once across processes."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest
import sqlalchemy as sa

from langchain_tiered_memory.store._coordination import (
    LeaseLost,
    acquire_lease,
    hold_lease,
    lease_holder,
    lease_owner_id,
    release_lease,
    renew_lease,
)
from tests.reliability._checks import consistency_problems
from tests.reliability._procs import open_store


@pytest.fixture
def store(backend_url: str):
    s = open_store(backend_url)
    yield s
    s.close()


def test_one_holder_at_a_time_and_expiry_takeover(store) -> None:
    with store._services.ctx.write() as conn:
        assert acquire_lease(conn, "job", "w1", 30, now=1000.0)
        assert not acquire_lease(conn, "job", "w2", 30, now=1010.0)  # held and alive
        assert acquire_lease(conn, "job", "w1", 30, now=1010.0)  # re-entrant: extends it
        assert lease_holder(conn, "job", now=1020.0) == ("w1", 1040.0)
        assert renew_lease(conn, "job", "w1", 30, now=1035.0)
        assert not acquire_lease(conn, "job", "w2", 30, now=1060.0)  # renewed to 1065
        assert acquire_lease(conn, "job", "w2", 30, now=1065.0)  # lapsed: taken over
        assert not renew_lease(conn, "job", "w1", 30, now=1066.0)  # w1 learns it lost it
        assert not release_lease(conn, "job", "w1")
        assert release_lease(conn, "job", "w2")
        assert lease_holder(conn, "job", now=1066.0) is None
        assert acquire_lease(conn, "job", "w3", 30, now=1067.0)


def test_lease_joins_the_callers_transaction(store) -> None:
    with store._services.ctx.write() as conn:
        with conn.begin() as tx:
            assert acquire_lease(conn, "tx", "w1", 30)
            tx.rollback()  # the claim is rolled back with the work it guarded
        assert acquire_lease(conn, "tx", "w2", 30)


def test_dead_process_lease_is_taken_over_at_once(store) -> None:
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    ghost = lease_owner_id().split(":")[0] + f":{int(dead.stdout)}:gone"
    with store._services.ctx.write() as conn:
        assert acquire_lease(conn, "dead", ghost, 3600)
        assert acquire_lease(conn, "dead", lease_owner_id("me"), 30)
        other_host = "elsewhere:1:x"
        assert acquire_lease(conn, "remote", other_host, 3600)
        assert not acquire_lease(conn, "remote", lease_owner_id("me"), 30)  # cannot tell: wait


def test_hold_lease_heartbeat_renews_and_detects_loss(store) -> None:
    with hold_lease(store._services.ctx.write, "beat", "w1", ttl=0.6) as lease:
        assert lease
        time.sleep(1.0)  # longer than ttl: only the heartbeat keeps it
        with store._services.ctx.write() as conn:
            assert not acquire_lease(conn, "beat", "w2", 10)
            conn.execute(sa.text("UPDATE tm_leases SET owner = 'thief', expires = expires + 3600 WHERE name = 'beat'"))
            conn.commit()
        time.sleep(0.5)
        assert lease.lost
        with pytest.raises(LeaseLost):
            lease.check()
    with store._services.ctx.write() as conn:  # the loser does not release the thief's lease
        assert lease_holder(conn, "beat") is not None
    with hold_lease(store._services.ctx.write, "free", "w1") as first, \
            hold_lease(store._services.ctx.write, "free", "w2") as second:
        assert first and not second
    with store._services.ctx.write() as conn:
        assert lease_holder(conn, "free") is None  # released on exit


def test_reembed_queue_is_drained_once_across_processes(backend_url: str, workers) -> None:
    legacy = open_store(backend_url, model_id="test/old-32", dim=32)
    try:
        legacy.add_many([f"fact number {i} about lighthouses" for i in range(300)], namespace="r")
    finally:
        legacy.close()
    trio = [w.open(backend_url) for w in workers[:3]]
    for w in trio:  # all three ask at once
        w.send("reembed_once", batch_size=20)
    done = [w.result(120) for w in trio]
    for w in trio:
        w.call("close")
    assert sorted(done) == [0, 0, 300]
    engine = sa.create_engine(backend_url)
    with engine.connect() as conn:
        reembeds = conn.execute(
            sa.text("SELECT count(*) FROM tm_audit_log WHERE action = 'reembed'")).scalar()
        models = conn.execute(sa.text("SELECT DISTINCT model_id FROM tm_vectors")).all()
    engine.dispose()
    assert reembeds == 300  # no batch embedded twice
    assert [m[0] for m in models] == ["test/hash-64"]
    assert consistency_problems(backend_url) == []


def test_reembed_once_resumes_after_a_lost_worker(store) -> None:
    old = open_store(store.url, model_id="test/old-32", dim=32)
    old.add_many([f"note {i}" for i in range(40)])
    old.close()
    with store._services.ctx.write() as conn:  # a worker on another host took the lease, then vanished
        assert acquire_lease(conn, f"reembed:{store.model_id}", "elsewhere:1:x", 0.3)
    assert store.reembed() == 0  # still held
    time.sleep(0.4)
    assert store.reembed(batch_size=7) == 40
    assert store.reembed_pending() == 0
