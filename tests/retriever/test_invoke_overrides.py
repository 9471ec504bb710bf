"""Per-call overrides (``invoke(query, since=..., tiers=...)``) are coerced like the fields."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from langchain_tiered_memory import InvalidInput, MemoryTier, TieredMemoryRetriever
from langchain_tiered_memory.store import TieredMemoryStore
from tests.helpers import Clock


@pytest.fixture
def retriever(store: TieredMemoryStore, clock: Clock) -> TieredMemoryRetriever:
    store.add("Alice prefers dark mode in every editor", namespace="alice", tags=["ui"])
    clock.advance(days=10)
    store.add("Alice switched her editor to light mode", namespace="alice", tags=["ui"])
    return TieredMemoryRetriever(store=store, namespace="alice", reinforce=False)


def test_string_datetime_override_matches_the_field(retriever: TieredMemoryRetriever) -> None:
    # Both entries were written in January 2026, the second ten days after the first.
    cut = "2026-01-05T00:00:00+00:00"
    by_field = TieredMemoryRetriever(
        store=retriever.store, namespace="alice", since=cut, reinforce=False
    ).invoke("editor mode")
    by_call = retriever.invoke("editor mode", since=cut)
    assert [d.page_content for d in by_call] == [d.page_content for d in by_field]
    assert [d.page_content for d in by_call] == ["Alice switched her editor to light mode"]
    until = retriever.invoke("editor mode", until=datetime(2026, 1, 5, tzinfo=timezone.utc))
    assert [d.page_content for d in until] == ["Alice prefers dark mode in every editor"]


async def test_async_override_is_coerced_too(retriever: TieredMemoryRetriever) -> None:
    docs = await retriever.ainvoke("editor mode", since="2026-01-05T00:00:00+00:00")
    assert [d.page_content for d in docs] == ["Alice switched her editor to light mode"]


def test_enum_strings_are_accepted(retriever: TieredMemoryRetriever) -> None:
    assert retriever.invoke("editor mode", tiers=("semantic",))
    assert retriever.invoke("editor mode", tiers=[MemoryTier.ARCHIVAL]) == []


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("since", "not a date"),
        ("tiers", ["nope"]),
        ("tags", "ui"),  # a bare string would be read as one tag per character
        ("mode", "fuzzy"),
        ("k", "3"),
    ],
)
def test_bad_override_names_the_argument(
    retriever: TieredMemoryRetriever, name: str, value: object
) -> None:
    with pytest.raises(InvalidInput) as info:
        retriever.invoke("editor mode", **{name: value})
    assert info.value.field == name
