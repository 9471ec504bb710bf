"""Contradiction verification with any LangChain chat model, falling back to the heuristics.

The model is asked for a small JSON object. When it supports ``with_structured_output`` that is
used; otherwise the JSON is dug out of the reply text. Junk, errors and timeouts never raise: the
verifier answers with its fallback (the offline `HeuristicVerifier` by default) or, without one,
with an *unsure* verdict.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Mapping
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langchain_core.runnables import Runnable

from .._runtime import CallTimedOut, call_with_timeout
from ..config import MemoryConfig
from .heuristic import HeuristicVerifier
from .verdict import Verdict, Verifier

__all__ = ["VERDICT_SCHEMA", "LLMVerifier", "build_messages", "parse_verdict"]

_SYSTEM_PROMPT = """\
You check a personal long-term memory for contradictions.
You get two memory statements, A and B, about the same user (they may be in English or Chinese).
They CONTRADICT when both cannot be true about the present at the same time, for example:
- the same attribute with a different value ("My favourite colour is blue" / "...is green",
  "I live in Paris" / "I live in London", "我住在北京" / "我住在上海");
- one denies the other ("I like sushi" / "I no longer like sushi", "喜欢猫" / "不喜欢猫");
- a changed number or date of the same fact ("I have 2 kids" / "I have 3 kids").
They do NOT contradict when both can hold: additions ("I like tea" / "I also like coffee"),
different people or things, past vs present ("I lived in Rome" / "I live in Oslo"), a sequence of
dated events, or unrelated facts.
Answer with ONLY a JSON object, no prose:
{"contradicts": true | false | null, "confidence": <number 0..1>, "description": "<one sentence>"}
Use null when you cannot tell."""

#: JSON schema handed to ``with_structured_output``.
VERDICT_SCHEMA: dict[str, Any] = {
    "title": "ContradictionVerdict",
    "description": "Whether two memory statements contradict each other.",
    "type": "object",
    "properties": {
        "contradicts": {
            "type": ["boolean", "null"],
            "description": "true if both cannot be true at once, false if they can, null if unsure",
        },
        "confidence": {"type": "number", "description": "confidence in [0, 1]"},
        "description": {"type": "string", "description": "one sentence explaining why"},
    },
    "required": ["contradicts", "confidence", "description"],
}

_TRUE = {"true", "yes", "y", "contradicts", "contradiction", "是", "矛盾", "1"}
_FALSE = {"false", "no", "n", "compatible", "consistent", "否", "不矛盾", "0"}
_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)


def build_messages(
    a: str, b: str, *, key_a: str | None = None, key_b: str | None = None
) -> list[BaseMessage]:
    """The chat messages sent to the model for one pair."""
    lines = [f"A: {a}", f"B: {b}"]
    if key_a or key_b:
        lines.append(f"(keys: A={key_a or '-'}, B={key_b or '-'})")
    return [SystemMessage(content=_SYSTEM_PROMPT), HumanMessage(content="\n".join(lines))]


def _json_objects(text: str) -> list[str]:
    """Balanced ``{...}`` substrings of ``text``, outermost first."""
    found: list[str] = []
    depth, start, in_str, escape = 0, -1, False, False
    for i, ch in enumerate(text):
        if in_str:
            if escape:
                escape = False
            elif ch == "\\":
                escape = True
            elif ch == '"':
                in_str = False
        elif ch == '"' and depth > 0:
            in_str = True
        elif ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}" and depth > 0:
            depth -= 1
            if depth == 0:
                found.append(text[start : i + 1])
    return found


def _as_flag(value: Any) -> tuple[bool, bool | None]:
    """(understood, flag) for the ``contradicts`` field."""
    if value is None:
        return True, None
    if isinstance(value, bool):
        return True, value
    if isinstance(value, (int, float)) and value in (0, 1):
        return True, bool(value)
    if isinstance(value, str):
        text = value.strip().lower()
        if text in _TRUE:
            return True, True
        if text in _FALSE:
            return True, False
        if text in ("null", "none", "unsure", "unknown", "uncertain", "不确定"):
            return True, None
    return False, None


def _as_confidence(value: Any) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return 0.5
    if number != number:  # NaN
        return 0.5
    if 1.0 < number <= 100.0:  # a percentage
        number /= 100.0
    return min(1.0, max(0.0, number))


def parse_verdict(raw: Any) -> Verdict | None:
    """Read a model's answer (a dict, a message, or text holding JSON) into a `Verdict`.

    Returns:
        The verdict, or None when the answer is junk (no usable ``contradicts`` field).
    """
    content: Any = getattr(raw, "content", raw)
    data: Mapping[str, Any] | None = None
    if isinstance(content, Mapping):
        data = content
    elif hasattr(content, "model_dump"):
        data = content.model_dump()
    elif isinstance(content, (str, list)):
        text = content if isinstance(content, str) else " ".join(
            part if isinstance(part, str) else str(part.get("text", ""))
            for part in content
            if isinstance(part, (str, dict))
        )
        fenced = _FENCE.findall(text)
        for candidate in [*fenced, *_json_objects(text)]:
            try:
                loaded = json.loads(candidate)
            except (json.JSONDecodeError, ValueError):
                continue
            if isinstance(loaded, dict) and "contradicts" in loaded:
                data = loaded
                break
    if data is None or "contradicts" not in data:
        return None
    understood, flag = _as_flag(data.get("contradicts"))
    if not understood:
        return None
    description = str(data.get("description") or data.get("reason") or "").strip()
    return Verdict(
        flag,
        _as_confidence(data.get("confidence", 0.5)),
        description or "judged by the language model",
        method="llm",
    )


class _Default:
    """Marker for "use the heuristic fallback" (None means no fallback at all)."""


_DEFAULT = _Default()


class LLMVerifier:
    """Ask a LangChain chat model whether two statements contradict; never raises.

    Args:
        model: Any ``BaseChatModel``.
        config: Supplies ``llm_timeout_seconds``; defaults otherwise.
        fallback: Answers when the model fails, times out or returns junk; the offline
            `HeuristicVerifier` by default, None for a plain *unsure* verdict.
        structured: Try ``with_structured_output`` first (default True); models that do not
            support it are detected and asked for JSON text instead.
        timeout: Overrides ``config.llm_timeout_seconds``.
    """

    def __init__(
        self,
        model: BaseChatModel,
        *,
        config: MemoryConfig | None = None,
        fallback: Verifier | _Default | None = _DEFAULT,
        structured: bool = True,
        timeout: float | None = None,
    ) -> None:
        self.model = model
        self.config = config if config is not None else MemoryConfig()
        self.fallback: Verifier | None = (
            HeuristicVerifier() if isinstance(fallback, _Default) else fallback
        )
        self.timeout = timeout if timeout is not None else self.config.llm_timeout_seconds
        self._structured: Runnable[Any, Any] | None = None
        if structured:
            try:
                self._structured = model.with_structured_output(VERDICT_SCHEMA)
            except Exception:  # NotImplementedError, or a provider refusing the schema
                self._structured = None

    # -- sync -----------------------------------------------------------------------------------

    def verify(
        self, a: str, b: str, *, key_a: str | None = None, key_b: str | None = None
    ) -> Verdict:
        """Judge ``a`` against ``b``; model failures turn into the fallback's verdict."""
        messages = build_messages(a, b, key_a=key_a, key_b=key_b)
        try:
            verdict = self._call_sync(messages)
            problem = "returned an answer that could not be parsed" if verdict is None else ""
        except CallTimedOut:
            verdict, problem = None, f"timed out after {self.timeout:g}s"
        except Exception as exc:  # any provider error must not break consolidation
            verdict, problem = None, f"failed ({type(exc).__name__})"
        if verdict is not None:
            return verdict
        if self.fallback is None:
            return Verdict(None, 0.0, f"the language model {problem}", method="llm")
        return self._mark(self.fallback.verify(a, b, key_a=key_a, key_b=key_b), problem)

    def _call_sync(self, messages: list[BaseMessage]) -> Verdict | None:
        return call_with_timeout(
            lambda: self._invoke_sync(messages), self.timeout, name="tiered-memory-verify"
        )

    def _invoke_sync(self, messages: list[BaseMessage]) -> Verdict | None:
        if self._structured is not None:
            try:
                verdict = parse_verdict(self._structured.invoke(messages))
                if verdict is not None:
                    return verdict
            except Exception:
                self._structured = None  # the model cannot do it; use text from now on
        return parse_verdict(self.model.invoke(messages))

    # -- async ----------------------------------------------------------------------------------

    async def averify(
        self, a: str, b: str, *, key_a: str | None = None, key_b: str | None = None
    ) -> Verdict:
        """Async twin of `verify`; the timeout cancels the model call."""
        messages = build_messages(a, b, key_a=key_a, key_b=key_b)
        try:
            verdict = await asyncio.wait_for(self._invoke_async(messages), self.timeout)
            problem = "returned an answer that could not be parsed" if verdict is None else ""
        except asyncio.TimeoutError:
            verdict, problem = None, f"timed out after {self.timeout:g}s"
        except Exception as exc:
            verdict, problem = None, f"failed ({type(exc).__name__})"
        if verdict is not None:
            return verdict
        if self.fallback is None:
            return Verdict(None, 0.0, f"the language model {problem}", method="llm")
        fallback = await self.fallback.averify(a, b, key_a=key_a, key_b=key_b)
        return self._mark(fallback, problem)

    async def _invoke_async(self, messages: list[BaseMessage]) -> Verdict | None:
        if self._structured is not None:
            try:
                verdict = parse_verdict(await self._structured.ainvoke(messages))
                if verdict is not None:
                    return verdict
            except Exception:
                self._structured = None
        return parse_verdict(await self.model.ainvoke(messages))

    @staticmethod
    def _mark(verdict: Verdict, problem: str) -> Verdict:
        return Verdict(
            verdict.contradicts,
            verdict.confidence,
            f"{verdict.description} (language model {problem}; heuristic answer)",
            method=f"llm+{verdict.method}",
            rule=verdict.rule,
        )
