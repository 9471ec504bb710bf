"""Issue 13, item 4 and the facts cap: an import reads deep JSON within bounds, with a typed
error, and keeps at most ``memory.maxFactsPerEpisode`` facts of one conversation."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import pytest

from langchain_tiered_memory import MemoryConfig, TieredMemoryStore
from langchain_tiered_memory.errors import InvalidInput, TieredMemoryError
from langchain_tiered_memory.ingest import parse_file
from tests.helpers import Clock, HashEmbeddings


def _peak(fn: object) -> int:
    tracemalloc.start()
    try:
        fn()  # type: ignore[operator]
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return peak


@pytest.mark.parametrize(
    ("name", "body"),
    [
        ("brackets.json", "[" * 30_000 + "]" * 30_000),  # the 58 KB REST body of the issue
        ("deep.json", "[" * 100_000 + "]" * 100_000),  # the 200 KB file killed at 24 GB
        ("wrapped.json", '{"conversations": [' + '{"a":' * 50_000 + "1" + "}" * 50_000 + "]}"),
        ("object.json", '{"messages": ' + "[" * 50_000 + "]" * 50_000 + "}"),
    ],
)
def test_deep_json_import_is_refused_with_a_typed_error_in_bounded_memory(
    store: TieredMemoryStore, tmp_path: Path, name: str, body: str
) -> None:
    path = tmp_path / name
    path.write_text(body)
    caught: list[BaseException] = []

    def run() -> None:
        try:
            store.import_file(path, format="json", namespace="alice")
        except TieredMemoryError as exc:
            caught.append(exc)

    peak = _peak(run)
    assert caught and isinstance(caught[0], InvalidInput), caught
    assert "nested deeper" in str(caught[0])
    assert peak < 20 * 1024 * 1024, peak
    assert store.list(namespace="alice") == []


def test_deep_jsonl_line_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "deep.jsonl"
    good = json.dumps({"role": "user", "content": "I live in Lyon."})
    path.write_text(good + "\n" + good + "\n" + '{"a": ' + "[" * 5000 + "]" * 5000 + "}\n")
    with pytest.raises(InvalidInput, match="nested deeper"):
        parse_file(path)


def test_depth_limit_is_a_config_key_and_normal_exports_pass(tmp_path: Path) -> None:
    path = tmp_path / "ok.json"
    nested = {"messages": [{"role": "user", "content": "I live in Lyon.", "x": [[["deep"]]]}]}
    path.write_text(json.dumps(nested))
    convs, _ = parse_file(path)
    assert convs[0].messages[0].content == "I live in Lyon."
    with pytest.raises(InvalidInput):
        parse_file(path, max_depth=4)


def test_facts_per_episode_are_capped(tmp_path: Path, clock: Clock) -> None:
    store = TieredMemoryStore(
        f"sqlite:///{tmp_path / 'm.db'}",
        embeddings=HashEmbeddings(),
        config=MemoryConfig(rerank_enabled=False, max_facts_per_episode=3),
        clock=clock,
    )
    cities = ["Lyon", "Paris", "Nice", "Lille", "Brest", "Dijon", "Metz", "Caen"]
    foods = ["tea", "rice", "soup", "bread", "figs", "kale", "plums", "dates"]
    lines = [
        {"role": "user", "content": f"My friend {i} lives in {c}. I really like {f}."}
        for i, (c, f) in enumerate(zip(cities, foods, strict=True))
    ]
    path = tmp_path / "chat.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines))
    report = store.import_file(path, namespace="alice")
    written = report.facts_active + report.facts_pending
    assert written <= 3 and report.facts_over_cap > 0
    assert len(store.list(namespace="alice", status=None)) <= 3
    store.close()
