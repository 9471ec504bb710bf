"""LLM extraction and summary with fake chat models, and their fallbacks."""

from __future__ import annotations

import json
import time
from typing import Any

from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.runnables import RunnableLambda

from langchain_tiered_memory.ingest.llm import (
    aextract_facts_llm,
    asummarize_llm,
    extract_facts_llm,
    summarize_llm,
)

MSGS = [("user", "Hi, my name is Dana and I prefer dark roast coffee."), ("assistant", "Hi Dana!")]
HEURISTIC_KEYS = ["identity.name", "preference.coffee"]


def _answer(facts: list[dict[str, Any]]) -> str:
    return "Here you go:\n```json\n" + json.dumps({"facts": facts}) + "\n```"


def test_json_answer_is_used_and_validated() -> None:
    llm = FakeListChatModel(responses=[_answer([
        {"content": "User is called Dana", "key": "identity.name", "kind": "identity",
         "confidence": 1.7, "source_index": 0},
        {"content": "User likes coffee", "key": "Bad Key!!", "kind": "preference"},
        {"content": "from the assistant", "key": "fact.x", "kind": "fact", "source_index": 1},
        {"content": "", "key": "x.y", "kind": "fact"},
        {"content": "bogus kind", "key": "x.y", "kind": "opinion"},
    ])])
    facts = extract_facts_llm(MSGS, llm)
    assert [f.content for f in facts] == ["User is called Dana", "User likes coffee",
                                          "from the assistant"]
    assert facts[0].confidence == 1.0 and facts[0].is_user_type
    assert facts[1].key.startswith("preference.") and facts[1].confidence == 0.7
    assert facts[2].source_index == 0  # index 1 is an assistant turn: re-attributed to a user turn


def test_empty_fact_list_is_a_valid_answer() -> None:
    assert extract_facts_llm(MSGS, FakeListChatModel(responses=['{"facts": []}'])) == []


def test_junk_error_and_timeout_fall_back_to_heuristics() -> None:
    junk = FakeListChatModel(responses=["I have no idea what you mean."])
    assert [f.key for f in extract_facts_llm(MSGS, junk)] == HEURISTIC_KEYS
    all_bad = FakeListChatModel(responses=[_answer([{"content": "x", "kind": "nonsense"}])])
    assert [f.key for f in extract_facts_llm(MSGS, all_bad)] == HEURISTIC_KEYS

    class Broken(FakeListChatModel):
        def invoke(self, *args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("provider down")

    assert [f.key for f in extract_facts_llm(MSGS, Broken(responses=["x"]))] == HEURISTIC_KEYS
    slow = FakeListChatModel(responses=['{"facts": []}'], sleep=1.0)
    start = time.perf_counter()
    assert [f.key for f in extract_facts_llm(MSGS, slow, timeout=0.2)] == HEURISTIC_KEYS
    assert time.perf_counter() - start < 0.9


def test_structured_output_is_preferred_when_supported() -> None:
    calls: list[Any] = []

    class Structured(FakeListChatModel):
        def with_structured_output(self, schema: Any, **kwargs: Any) -> Any:  # type: ignore[override]
            def run(prompt: Any) -> Any:
                calls.append(prompt)
                return schema(facts=[{"content": "User lives in Lisbon", "key": "location.home",
                                      "kind": "identity", "source_index": 0}])

            return RunnableLambda(run)

    facts = extract_facts_llm(MSGS, Structured(responses=["unused"]))
    assert [f.key for f in facts] == ["location.home"] and len(calls) == 1


def test_no_user_turns_means_no_call() -> None:
    class Exploding(FakeListChatModel):
        def invoke(self, *args: Any, **kwargs: Any) -> Any:
            raise AssertionError("should not be called")

    assert extract_facts_llm([("assistant", "I prefer tea.")], Exploding(responses=["x"])) == []


async def test_async_twins() -> None:
    good = FakeListChatModel(responses=[_answer([
        {"content": "User is called Dana", "key": "identity.name", "kind": "identity"}])])
    assert [f.content for f in await aextract_facts_llm(MSGS, good)] == ["User is called Dana"]
    slow = FakeListChatModel(responses=["Dana likes coffee."], sleep=1.0)
    assert [f.key for f in await aextract_facts_llm(MSGS, slow, timeout=0.1)] == HEURISTIC_KEYS
    assert await asummarize_llm(MSGS, FakeListChatModel(responses=["Dana likes coffee."])) == (
        "Dana likes coffee."
    )
    fallback = await asummarize_llm(MSGS, slow, timeout=0.1)
    assert fallback.startswith("Hi, my name is Dana")


def test_summary_llm_cleans_and_falls_back() -> None:
    ok = FakeListChatModel(responses=["Summary: Dana likes dark roast coffee. She said hi."])
    assert summarize_llm(MSGS, ok, max_chars=40) == "Dana likes dark roast coffee."
    for junk in ('{"summary": 1}', "I'm sorry, I can't help with that.", "   "):
        out = summarize_llm(MSGS, FakeListChatModel(responses=[junk]))
        assert out.startswith("Hi, my name is Dana")
