"""The search-index cache: bounded in bytes, least recently used out, reloaded on demand."""

from __future__ import annotations

import threading
from pathlib import Path

from langchain_tiered_memory import MemoryConfig, TieredMemoryStore
from tests.helpers import HashEmbeddings


def _store(path: Path, budget: int) -> TieredMemoryStore:
    return TieredMemoryStore(
        f"sqlite:///{path}", embeddings=HashEmbeddings(),
        config=MemoryConfig(rerank_enabled=False, index_cache_bytes=budget),
    )


def test_budget_holds_and_every_search_stays_correct(tmp_path: Path) -> None:
    store = _store(tmp_path / "m.db", budget=150_000)
    for n in range(30):
        store.add_many([f"user {n} fact {i} about topic{n}x{i}" for i in range(40)],
                       namespace=f"ns{n}")
    one = store.index_cache_stats()
    for _ in range(2):
        for n in range(30):
            hits = store.search(f"topic{n}x7", namespace=f"ns{n}", k=3, reinforce=False)
            assert hits[0].entry.content == f"user {n} fact 7 about topic{n}x7"
            stats = store.index_cache_stats()
            assert stats.bytes <= stats.budget or stats.namespaces == 1
    stats = store.index_cache_stats()
    assert stats.evictions > 0 and stats.loads > one.loads + 30
    assert stats.namespaces < 30
    store.close()


def test_eviction_never_loses_a_write(tmp_path: Path) -> None:
    store = _store(tmp_path / "m.db", budget=60_000)
    store.add_many([f"alpha note {i}" for i in range(40)], namespace="a")
    assert store.search("alpha note", namespace="a", k=1)
    for n in range(10):  # push "a" out of the cache
        store.add_many([f"filler {n} {i}" for i in range(40)], namespace=f"f{n}")
        store.search("filler", namespace=f"f{n}", k=1)
    assert store._services.ctx.indexes.get("a") is None
    # A writer in another process (a second store on the file) adds to the evicted namespace.
    other = _store(tmp_path / "m.db", budget=1 << 30)
    other.add("alpha rare zebra fact", namespace="a")
    other.close()
    hits = store.search("zebra", namespace="a", k=1, reinforce=False)
    assert hits and hits[0].entry.content == "alpha rare zebra fact"
    store.close()


def test_concurrent_searches_keep_the_budget(tmp_path: Path) -> None:
    store = _store(tmp_path / "m.db", budget=120_000)
    for n in range(12):
        store.add_many([f"item {n} number {i} tag{n}t{i}" for i in range(40)], namespace=f"n{n}")
    errors: list[BaseException] = []

    def worker(offset: int) -> None:
        try:
            for r in range(3):
                for n in range(12):
                    ns = (n + offset + r) % 12
                    hits = store.search(f"tag{ns}t3", namespace=f"n{ns}", k=1, reinforce=False)
                    assert hits[0].entry.content == f"item {ns} number 3 tag{ns}t3"
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors
    stats = store.index_cache_stats()
    assert stats.bytes <= stats.budget
    store.close()


def test_a_namespace_in_use_is_kept_then_dropped_when_its_user_ends(tmp_path: Path) -> None:
    """Regression (CI, session 25): eviction skipped namespaces in use and never came back to
    them, so after concurrent searches ended the cache stayed over budget (151,992 of 120,000
    bytes). A namespace in use is still never dropped under its user."""
    store = _store(tmp_path / "m.db", budget=100_000)  # room for one 40-memory namespace
    for name in ("a", "b"):
        store.add_many([f"{name} item {i} mark{name}{i}" for i in range(40)], namespace=name)
    ctx = store._services.ctx
    held, done = threading.Event(), threading.Event()
    seen: list[object] = []

    def searching_a() -> None:  # a search of "a" in progress on another thread
        with ctx.index("a") as index:
            seen.append(index)
            held.set()
            done.wait(10)

    other = threading.Thread(target=searching_a)
    other.start()
    assert held.wait(10)
    try:
        hits = store.search("markb5", namespace="b", k=1, reinforce=False)
        assert hits[0].entry.content == "b item 5 markb5"
        assert ctx.indexes.get("a") is seen[0]  # not dropped under its user
        stats = store.index_cache_stats()
        assert stats.bytes <= stats.budget  # "b" made room once its own search ended
    finally:
        done.set()
        other.join()
    hits = store.search("markb6", namespace="b", k=1, reinforce=False)
    assert hits[0].entry.content == "b item 6 markb6"
    stats = store.index_cache_stats()
    assert stats.bytes <= stats.budget and stats.namespaces == 1  # "a" went once its user ended
    hits = store.search("marka7", namespace="a", k=1, reinforce=False)
    assert hits[0].entry.content == "a item 7 marka7"
    store.close()
