"""Under search pushdown the write-time checks, auto-links and episode search read the database,
give what the in-process index gives, and no namespace index is ever loaded (issue 16)."""

from __future__ import annotations

import contextlib
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
import sqlalchemy as sa

from langchain_tiered_memory import Episode, MemoryConfig, ProvenanceLevel, TieredMemoryStore
from langchain_tiered_memory.contradiction import Verdict
from langchain_tiered_memory.provenance import WritePath
from langchain_tiered_memory.store import _tables as t
from langchain_tiered_memory.store._db_neighbours import DatabaseNeighbours
from langchain_tiered_memory.store._neighbours import IndexNeighbours, token_matches
from langchain_tiered_memory.text import tokenize
from tests.helpers import Clock, HashEmbeddings
from tests.pgvector.conftest import RandomEmbeddings
from tests.pgvector.test_db_search import CORPUS
from tests.pgvector.test_db_search import QUERIES as MEMORY_QUERIES

T0 = datetime(2025, 6, 1, tzinfo=timezone.utc)
TOPICS = [
    ("kayak trip down the river with Maria", ("Maria",)),
    ("violin lesson, Bob practised scales", ("Bob",)),
    ("orchard visit, apples and pears with Maria and Bob", ("Maria", "Bob")),
    ("glacier hike, very cold, Carol slipped twice", ("Carol",)),
    ("lantern festival at night by the river", ()),
    ("saffron risotto cooking class with Carol", ("Carol",)),
    ("tundra documentary, reindeer and snow", ()),
    ("river cleanup day, plastic and bottles, Bob helped", ("Bob",)),
]
QUERIES = ["river trip", "Maria", "cooking with Carol", "snow and cold", "Bob bottles", "violin"]


class Unsure:
    """A verifier that can never tell: every candidate pair stays pending."""

    def verify(self, a: str, b: str, *, key_a: str | None = None,
               key_b: str | None = None) -> Verdict:
        return Verdict(None, 0.4, "cannot tell")

    async def averify(self, a: str, b: str, *, key_a: str | None = None,
                      key_b: str | None = None) -> Verdict:
        return self.verify(a, b)


def _episodes(namespace: str = "u") -> list[Episode]:
    return [
        Episode(session_key=f"s{i}", summary=summary, message_range_start=0,
                message_range_end=3, entity_ids=entities, importance=0.2 + 0.1 * i,
                namespace=namespace, created_at=T0 + timedelta(days=i))
        for i, (summary, entities) in enumerate(TOPICS)
    ]


def _writes(s: TieredMemoryStore, clock: Clock) -> list[str]:
    """Writes exercising every on-write check; returns the ids written with checks suspended."""
    s.add("I live in Paris", namespace="u", source=ProvenanceLevel.USER_STATED)
    clock.advance(days=1)
    s.add("I live in London", namespace="u", path=WritePath.AGENT_TOOL)  # loses: provenance
    s.add("My favourite colour is blue", namespace="u", tags=["colour"])
    clock.advance(days=1)
    s.add("My favourite colour is green", namespace="u", tags=["colour"])  # newer wins
    s.add("I have 2 kids", namespace="u")
    clock.advance(hours=1)
    s.add("I have 3 kids", namespace="u")
    s.add("Sprint planning notes", namespace="u", tags=["atlas"])
    s.add("Budget spreadsheet owner", namespace="u", tags=["atlas", "finance"])
    s.add("Met Maria at the conference", namespace="u", metadata={"entities": ["Maria"]})
    s.add("Maria prefers async updates", namespace="u", metadata={"entities": ["Maria"]})
    s.add("the quick brown fox jumps over the lazy dog", namespace="u")
    s.add("the quick brown fox jumps over the lazy dog again", namespace="u")
    s.add_many(["The office is on floor three", "The office is on floor five"], namespace="u")
    clock.advance(hours=1)
    s.contradiction_verifier = Unsure()
    s.add("My car is red", namespace="u", key="car")
    clock.advance(hours=1)
    s.add("My car is blue", namespace="u")  # pending: the verifier cannot tell
    s.contradiction_verifier = None
    clock.advance(hours=1)
    with s.suspend_checks():
        later = [s.add("My favourite colour is purple", namespace="u", tags=["colour"]).id,
                 s.add("I have 4 kids", namespace="u").id]
    return later


def _state(s: TieredMemoryStore) -> dict[str, Any]:
    """What the checks decided, by content (ids differ between two databases)."""
    entries = s.list(namespace="u", include_superseded=True, limit=None)
    text = {e.id: e.content for e in entries}
    return {
        "entries": sorted((e.content, text.get(e.superseded_by or ""), e.tier.value)
                          for e in entries),
        "contradictions": sorted((text[c.entry_a_id], text[c.entry_b_id], c.resolution or "")
                                 for c in s.contradictions("u")),
        "links": sorted({(min(text[e.id], text[o.id]), max(text[e.id], text[o.id]), rel)
                         for e in entries for o, rel in s.linked(e.id)}),
    }


def _no_index(s: TieredMemoryStore) -> None:
    stats = s.index_cache_stats()
    assert (stats.loads, stats.misses, stats.bytes, stats.namespaces) == (0, 0, 0, 0)


def _process_store(url: str, clock: Clock) -> TieredMemoryStore:
    return TieredMemoryStore(url, embeddings=HashEmbeddings(), clock=clock, config=MemoryConfig(
        rerank_enabled=False, search_backend="process"))


def test_write_checks_links_and_check_contradictions_match_in_process(
        open_pg, pgvector_cluster, clock):
    pushed = open_pg()
    assert pushed._services.ctx.pushdown() is not None
    in_process = _process_store(pgvector_cluster.new_database(), Clock(clock.now))
    try:
        assert in_process._services.ctx.search_db is None  # a fresh database: no search tables
        found = []
        for s, c in ((pushed, clock), (in_process, in_process._services.ctx.clock)):
            later = _writes(s, c)  # type: ignore[arg-type]
            found.append(sorted((r.resolution or "", r.confidence)
                                for r in s.check_contradictions(later)))
        assert found[0] == found[1] and found[0]  # the suspended writes' conflicts are found
        want, got = _state(in_process), _state(pushed)
        assert any(r == "pending" for *_, r in want["contradictions"])
        assert {rel for *_, rel in want["links"]} >= {"shared_tag", "shared_entity", "similar"}
        assert got == want
    finally:
        in_process.close()
    _no_index(pushed)


def test_database_neighbours_answer_as_the_index(open_pg):
    """Each question of `NeighbourSource`, asked of both sources over one database."""
    pushed = open_pg(embeddings=RandomEmbeddings())
    words, colours = ["tea", "coffee", "river", "snow", "moon"], ["red", "blue", "green"]
    texts = [f"note {i} about {words[i % 5]} and {colours[i % 3]}" for i in range(40)]
    entries = pushed.add_many([{"content": x, "tags": ["t"]} for x in texts], namespace="a")
    pushed.update(entries[0].id, content="note zero about tea, revised", namespace="a")
    pushed.delete(entries[1].id, namespace="a")
    pushed.add("another namespace about tea", namespace="b")
    process = open_pg(embeddings=RandomEmbeddings(), config={"memory.searchBackend": "process"})
    ctx = pushed._services.ctx
    uses = contextlib.ExitStack()
    db = uses.enter_context(ctx.neighbours("a"))
    assert isinstance(db, DatabaseNeighbours)
    index = IndexNeighbours(uses.enter_context(process._services.ctx.index("a")))
    live = pushed.list(namespace="a", include_superseded=True, limit=None)
    for k in (1, 9, 60):
        want, got = index.nearest(live, k), db.nearest(live, k)
        assert [[i for i, _ in got[e.id]] for e in live] == [[i for i, _ in want[e.id]]
                                                           for e in live]
        for e in live:
            assert [s for _, s in got[e.id]] == pytest.approx([s for _, s in want[e.id]],
                                                               abs=1e-5)
    for tokens in (["tea"], ["tea", "red"], ["revised"], ["nothing"]):
        assert set(db.lexical(tokens, 100)) == set(index.lexical(tokens, 100))
    assert token_matches(db, ["t", "river"]) and set(token_matches(db, ["river"])) == set(
        token_matches(index, ["river"]))
    pushed.add_many(CORPUS, namespace="c")
    ranked = IndexNeighbours(uses.enter_context(process._services.ctx.index("c")))
    by_sql = uses.enter_context(ctx.neighbours("c"))
    assert isinstance(by_sql, DatabaseNeighbours)
    keyword = uses.enter_context(process._services.ctx.index("c")).keyword
    compared = 0
    for query in MEMORY_QUERIES:
        tokens = tokenize(query)
        scores = [x for _, x in keyword.search(tokens, 4)]
        if len(set(scores)) == len(scores):  # no tie: the order is defined
            compared += 1
            assert by_sql.lexical(tokens, 3) == ranked.lexical(tokens, 3)
    assert compared >= 3
    ids = [e.id for e in live] + ["missing"]
    assert db.live_semantic(ids) == index.live_semantic(ids) != set()
    first = live[2].id
    assert db.similarities(first, ids) == pytest.approx(index.similarities(first, ids), abs=1e-5)
    uses.close()
    _no_index(pushed)


def _ranked(s: TieredMemoryStore, **kw: Any) -> list[list[tuple[str, float]]]:
    return [[(e.id, score) for e, score in s.search_episodes(q, namespace="u", k=10, **kw)]
            for q in QUERIES]


def _same(got: list[list[tuple[str, float]]], want: list[list[tuple[str, float]]]) -> None:
    assert any(want)
    for g, w in zip(got, want, strict=True):
        # Equal scores may come in either order (ties: by id here, by load order in process).
        assert dict(g) == pytest.approx(dict(w), rel=1e-5)
        assert [x for _, x in g] == pytest.approx([x for _, x in w], rel=1e-5)


def test_episode_search_ranks_like_in_process(open_pg):
    pushed = open_pg(config={"memory.episodeRetention": 5, "memory.archivedWeight": 0.5})
    for episode in _episodes():
        pushed.add_episode(episode)
    assert pushed.list_episodes(namespace="u", tier="archival")  # some are ARCHIVAL, weighted
    process = open_pg(config={"memory.searchBackend": "process", "memory.episodeRetention": 5,
                              "memory.archivedWeight": 0.5})
    _same(_ranked(pushed), _ranked(process))
    _same(_ranked(pushed, entities=["Bob"]), _ranked(process, entities=["Bob"]))
    _same(_ranked(pushed, since=T0 + timedelta(days=3)),
          _ranked(process, since=T0 + timedelta(days=3)))
    assert pushed.search_episodes("river", namespace="other") == []
    _no_index(pushed)


def test_existing_episodes_are_backfilled_when_pushdown_is_enabled(open_pg, pg_url):
    before = open_pg(config={"memory.searchBackend": "process"})
    for episode in _episodes():
        before.add_episode(episode)
    after = open_pg()
    _same(_ranked(after), _ranked(before))
    # A database made searchable before episodes were: the next pushdown store back-fills them.
    engine = sa.create_engine(pg_url)
    with engine.begin() as conn:
        conn.execute(sa.delete(t.meta).where(t.meta.c.key == "search_pushdown_episodes"))
        for table in (t.search_postings, t.search_terms, t.search_namespaces):
            conn.execute(sa.delete(table).where(table.c.kind == "episode"))
        conn.execute(sa.delete(t.search_docs).where(t.search_docs.c.kind == "episode"))
        conn.execute(sa.delete(t.search_vectors).where(t.search_vectors.c.kind == "episode"))
    engine.dispose()
    assert not any(_ranked(after))  # gone from the search tables
    _same(_ranked(open_pg()), _ranked(before))


def test_reembedded_episodes_are_searched_with_the_new_model(open_pg):
    old = open_pg()
    for episode in _episodes():
        old.add_episode(episode)
    new_model = HashEmbeddings(dim=32, model_id="test/hash-32")
    pushed = open_pg(embeddings=new_model)
    assert pushed.reembed() == len(TOPICS)
    process = open_pg(embeddings=new_model, config={"memory.searchBackend": "process"})
    _same(_ranked(pushed), _ranked(process))
    _no_index(pushed)


def test_a_checked_write_does_not_ask_the_catalog_for_hnsw_indexes(open_pg, monkeypatch):
    # Whether the namespace has its HNSW index comes from the search backend's cached list
    # (re-read every 30 s), not from a pg_indexes query in every checked write.
    import psycopg

    s = open_pg(embeddings=RandomEmbeddings())
    s.add_many([f"note {i} about tea" for i in range(20)], namespace="a")
    s.add("I work at Acme", namespace="a")  # the first check lists the index names once
    seen: list[str] = []
    execute = psycopg.Cursor.execute

    def counted(self, query, *args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(str(query))
        return execute(self, query, *args, **kwargs)

    monkeypatch.setattr(psycopg.Cursor, "execute", counted)
    for i in range(5):
        s.add(f"I work at company {i}", namespace="a")
    assert seen  # the writes and their checks did run
    assert not [q for q in seen if "pg_indexes" in q]
