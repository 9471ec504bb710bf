"""LLMVerifier with langchain-core fake chat models: JSON, junk, errors, timeouts, fallback."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.language_models.fake_chat_models import (
    FakeListChatModel,
    GenericFakeChatModel,
)
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import RunnableLambda

from langchain_tiered_memory.config import MemoryConfig
from langchain_tiered_memory.contradiction import LLMVerifier, parse_verdict
from langchain_tiered_memory.contradiction.llm import build_messages

PARIS, LONDON = "I live in Paris.", "I live in London."


def test_parses_plain_json_reply() -> None:
    model = FakeListChatModel(
        responses=['{"contradicts": true, "confidence": 0.93, "description": "two cities"}']
    )
    verdict = LLMVerifier(model).verify(PARIS, LONDON)
    assert verdict.contradicts is True
    assert verdict.confidence == 0.93
    assert verdict.description == "two cities"
    assert verdict.method == "llm"


def test_parses_fenced_json_with_prose_around() -> None:
    reply = (
        "Sure! Here is my answer:\n```json\n"
        '{"contradicts": false, "confidence": 80, "description": "tea and coffee can both be liked"}'
        "\n```\nHope that helps {not json}."
    )
    model = GenericFakeChatModel(messages=iter([AIMessage(content=reply)]))
    verdict = LLMVerifier(model).verify("I like tea.", "I also like coffee.")
    assert verdict.contradicts is False
    assert verdict.confidence == 0.8  # a percentage is read as a share
    assert verdict.method == "llm"


def test_llm_unsure_is_kept() -> None:
    model = FakeListChatModel(responses=['{"contradicts": null, "confidence": 0.2}'])
    verdict = LLMVerifier(model).verify(PARIS, LONDON)
    assert verdict.contradicts is None
    assert verdict.method == "llm"


def test_junk_without_fallback_is_unsure() -> None:
    for junk in ["I think maybe?", '{"answer": "yes"}', '{"contradicts": "perhaps"}', "{broken"]:
        model = FakeListChatModel(responses=[junk])
        verdict = LLMVerifier(model, fallback=None).verify(PARIS, LONDON)
        assert verdict.contradicts is None, junk
        assert verdict.confidence == 0.0
        assert "could not be parsed" in verdict.description


def test_junk_falls_back_to_heuristic() -> None:
    model = FakeListChatModel(responses=["lol no idea"])
    verdict = LLMVerifier(model).verify(PARIS, LONDON)
    assert verdict.contradicts is True  # the heuristic's answer
    assert verdict.method == "llm+heuristic"
    assert verdict.rule == "same_slot"
    assert "could not be parsed" in verdict.description


class _Boom(BaseChatModel):
    @property
    def _llm_type(self) -> str:
        return "boom"

    def _generate(self, messages: list[BaseMessage], stop: Any = None,
                  run_manager: CallbackManagerForLLMRun | None = None, **kw: Any) -> ChatResult:
        raise RuntimeError("provider down")


class _Slow(BaseChatModel):
    delay: float = 2.0

    @property
    def _llm_type(self) -> str:
        return "slow"

    def _reply(self) -> ChatResult:
        text = '{"contradicts": false, "confidence": 1, "description": "late"}'
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])

    def _generate(self, messages: list[BaseMessage], stop: Any = None,
                  run_manager: CallbackManagerForLLMRun | None = None, **kw: Any) -> ChatResult:
        time.sleep(self.delay)
        return self._reply()

    async def _agenerate(self, messages: list[BaseMessage], stop: Any = None,
                         run_manager: AsyncCallbackManagerForLLMRun | None = None,
                         **kw: Any) -> ChatResult:
        await asyncio.sleep(self.delay)
        return self._reply()


def test_model_error_falls_back() -> None:
    verdict = LLMVerifier(_Boom()).verify("我住在北京。", "我住在上海。")
    assert verdict.contradicts is True
    assert "failed (RuntimeError)" in verdict.description
    unsure = LLMVerifier(_Boom(), fallback=None).verify("a", "b")
    assert unsure.contradicts is None


def test_slow_model_times_out_sync() -> None:
    verifier = LLMVerifier(_Slow(delay=1.0), config=MemoryConfig(llm_timeout_seconds=0.2))
    start = time.perf_counter()
    verdict = verifier.verify(PARIS, LONDON)
    assert time.perf_counter() - start < 0.9
    assert verdict.contradicts is True  # heuristic, not the late "false"
    assert "timed out after 0.2s" in verdict.description


async def test_slow_model_times_out_async() -> None:
    verifier = LLMVerifier(_Slow(delay=5.0), timeout=0.1, fallback=None)
    start = time.perf_counter()
    verdict = await verifier.averify(PARIS, LONDON)
    # The model sleeps 5 s; well under that proves the 0.1 s timeout (one CI run on a loaded
    # 2-core machine took 1.09 s to start the worker thread and give up).
    assert time.perf_counter() - start < 2.0
    assert verdict.contradicts is None
    assert "timed out" in verdict.description


async def test_async_json_and_fallback() -> None:
    model = FakeListChatModel(responses=['{"contradicts": true, "confidence": 0.9, '
                                         '"description": "x"}', "junk"])
    verifier = LLMVerifier(model)
    first = await verifier.averify(PARIS, LONDON)
    assert (first.contradicts, first.method) == (True, "llm")
    second = await verifier.averify("I like tea.", "I also like coffee.")
    assert (second.contradicts, second.method) == (False, "llm+heuristic")


class _Structured(FakeListChatModel):
    """A fake whose structured output returns a dict, like a tool-calling provider would."""

    def with_structured_output(self, schema: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        assert schema["required"] == ["contradicts", "confidence", "description"]
        return RunnableLambda(
            lambda _: {"contradicts": True, "confidence": 0.77, "description": "structured"}
        )


def test_uses_structured_output_when_supported() -> None:
    model = _Structured(responses=["this text path must not be used"])
    verdict = LLMVerifier(model).verify(PARIS, LONDON)
    assert (verdict.contradicts, verdict.confidence, verdict.description) == (
        True, 0.77, "structured")


class _BrokenStructured(FakeListChatModel):
    def with_structured_output(self, schema: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        def fail(_: Any) -> Any:
            raise ValueError("tool call missing")

        return RunnableLambda(fail)


def test_structured_failure_falls_back_to_text() -> None:
    model = _BrokenStructured(responses=['{"contradicts": false, "confidence": 0.6, '
                                         '"description": "text path"}'])
    verdict = LLMVerifier(model).verify(PARIS, LONDON)
    assert (verdict.contradicts, verdict.description) == (False, "text path")


def test_prompt_carries_both_statements_and_keys() -> None:
    messages = build_messages("A text", "B text", key_a="k.a")
    assert "JSON" in str(messages[0].content)
    assert "A: A text" in str(messages[1].content)
    assert "B: B text" in str(messages[1].content)
    assert "A=k.a" in str(messages[1].content)


def test_parse_verdict_variants() -> None:
    assert parse_verdict({"contradicts": "yes", "confidence": "0.7"}).contradicts is True  # type: ignore[union-attr]
    assert parse_verdict({"contradicts": "否"}).contradicts is False  # type: ignore[union-attr]
    assert parse_verdict({"contradicts": True, "confidence": 7}).confidence == 0.07  # type: ignore[union-attr]
    assert parse_verdict({"contradicts": True, "confidence": -3}).confidence == 0.0  # type: ignore[union-attr]
    assert parse_verdict({"contradicts": True, "confidence": "high"}).confidence == 0.5  # type: ignore[union-attr]
    assert parse_verdict(AIMessage(content='x {"a": {"b": 1}} {"contradicts": false}')) is not None
    assert parse_verdict(AIMessage(content=[{"type": "text", "text": '{"contradicts": true}'}]))
    assert parse_verdict("") is None
    assert parse_verdict(None) is None
    assert parse_verdict('{"contradicts": "maybe"}') is None
