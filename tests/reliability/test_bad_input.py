"""Bad input through the public API: typed errors only (`TieredMemoryError` subclasses), and a
refused call leaves nothing behind (no row, no vector, no audit row other than "blocked")."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from langchain_tiered_memory import MemoryConfig
from langchain_tiered_memory.errors import TieredMemoryError
from langchain_tiered_memory.store import _tables as t
from tests.reliability._checks import consistency_problems
from tests.reliability._procs import open_store

# Any valid Unicode text, NUL and bidi/zero-width controls included. (Lone surrogates are the
# subject of `test_unencodable_text_is_invalid_input` below.)
ANY_TEXT = st.text(
    st.characters(codec="utf-8") | st.sampled_from(["\x00", "\u202e", "\ufeff", "\u200b"]),
    max_size=80,
)
WORDY = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1,
                max_size=40)
SCALARS = st.none() | st.booleans() | st.integers() | st.floats() | ANY_TEXT
JSONISH = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(ANY_TEXT | st.integers(), inner, max_size=3)
    | st.sets(st.integers(), max_size=2)
    | st.just(b"bytes"),
    max_leaves=8,
)
SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])


@pytest.fixture(scope="module", params=["sqlite-file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    if request.param == "postgres":
        url = str(request.getfixturevalue("pg_cluster").new_database())
    else:
        url = f"sqlite:///{tmp_path_factory.mktemp('bad') / 'memory.db'}"
    s = open_store(url)
    yield s
    s.close()
    assert consistency_problems(url) == []


def snapshot(store: Any) -> tuple[int, int, int]:
    """Rows of every table a write touches (blocked-write audit rows excluded)."""
    with store.engine.connect() as conn:
        a = t.audit_log.c
        return (
            int(conn.execute(sa.select(sa.func.count()).select_from(t.memories)).scalar() or 0),
            int(conn.execute(sa.select(sa.func.count()).select_from(t.vectors)).scalar() or 0),
            int(conn.execute(sa.select(sa.func.count()).select_from(t.audit_log)
                             .where(a.action != "blocked")).scalar() or 0),
        )


def attempt(store: Any, call: Any) -> Any:
    """Run ``call``; a refusal must be typed and leave the store as it was."""
    before = snapshot(store)
    try:
        return call()
    except TieredMemoryError:
        assert snapshot(store) == before
        return None


@SETTINGS
@given(
    content=ANY_TEXT | SCALARS,
    key=st.none() | ANY_TEXT | st.integers(),
    tags=st.lists(ANY_TEXT, max_size=3) | ANY_TEXT | st.none() | st.integers(),
    metadata=st.none() | JSONISH,
    importance=st.floats() | st.integers(-2, 2) | st.booleans() | ANY_TEXT,
    type_=st.sampled_from(["user", "environment", "USER", "", "fact"]) | st.integers(),
    tier=st.sampled_from(["semantic", "episodic", "archival", "working", "nope"]),
    namespace=ANY_TEXT,
)
def test_add_refuses_with_typed_errors_only(
    store: Any, content: Any, key: Any, tags: Any, metadata: Any, importance: Any, type_: Any,
    tier: str, namespace: Any,
) -> None:
    entry = attempt(store, lambda: store.add(
        content, key=key, tags=tags if tags is not None else (), metadata=metadata,
        importance=importance, type=type_, tier=tier, namespace=namespace or "default"))
    if entry is not None:
        back = store.get(entry.id)
        assert back is not None and back.content == entry.content


@SETTINGS
@given(items=st.lists(
    WORDY | st.fixed_dictionaries({"content": ANY_TEXT}, optional={"key": ANY_TEXT,
                                                                   "metadata": JSONISH,
                                                                   "bogus": st.just(1)}),
    min_size=1, max_size=4))
def test_add_many_is_all_or_nothing(store: Any, items: list[Any]) -> None:
    before = snapshot(store)
    written = attempt(store, lambda: store.add_many(items, namespace="batch"))
    if written is not None:
        assert snapshot(store)[0] == before[0] + len(items)


@SETTINGS
@given(query=ANY_TEXT | st.integers() | st.none(), k=st.integers(-3, 30) | st.floats(),
       mode=st.sampled_from(["hybrid", "keyword", "vector", "bm25"]),
       tags=st.none() | st.lists(ANY_TEXT, max_size=2))
def test_search_refuses_with_typed_errors_only(store: Any, query: Any, k: Any, mode: str,
                                               tags: Any) -> None:
    attempt(store, lambda: store.search(query, namespace="batch", k=k, mode=mode, tags=tags))


FIELDS = [f for f in MemoryConfig.__dataclass_fields__ if f != "extra"]


@SETTINGS
@given(data=st.dictionaries(st.sampled_from(FIELDS) | ANY_TEXT, SCALARS | JSONISH, max_size=3))
def test_config_refuses_with_typed_errors_only(data: dict[Any, Any]) -> None:
    try:
        config = MemoryConfig.from_dict(data)
    except TieredMemoryError:
        return
    assert 0.0 <= config.archive_threshold <= 1.0
    assert config.busy_timeout_seconds > 0 and not math.isnan(config.busy_timeout_seconds)


@pytest.mark.parametrize("field", ["content", "key", "tags", "metadata"])
def test_unencodable_text_is_invalid_input(store: Any, field: str) -> None:
    bad = "lone \ud800 surrogate"
    kwargs: dict[str, Any] = {"content": "a fine sentence"}
    kwargs[field] = {"content": bad, "key": bad, "tags": [bad], "metadata": {"x": bad}}[field]
    attempt(store, lambda: store.add(**kwargs, namespace="surrogates"))
