"""LLM-backed fact extraction and summaries, each falling back to the offline heuristics.

Any LangChain chat model works. Extraction first asks for structured output (a pydantic schema,
used only at this edge); models without tool calling are asked for JSON in plain text instead.
The answer is validated fact by fact; when the model raises, exceeds ``timeout`` or returns
something unusable, the heuristic result is returned instead, so callers never need a try/except.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from langchain_core.messages import BaseMessage
from pydantic import BaseModel, Field

from langchain_tiered_memory.ingest.extraction import (
    FACT_KINDS,
    ExtractedFact,
    MessageLike,
    as_role_text,
    extract_facts,
)
from langchain_tiered_memory.ingest.summary import summarize
from langchain_tiered_memory.text import tokenize

from .._runtime import call_with_timeout
from ..errors import InvalidInput

__all__ = ["aextract_facts_llm", "asummarize_llm", "extract_facts_llm", "summarize_llm"]

T = TypeVar("T")
_USER_KINDS = ("identity", "preference")
_USER_KEY_PREFIXES = ("health.", "diet.", "relation.", "family.", "location.")
_KEY_RE = re.compile(r"^[\w-]+(?:\.[\w-]+){1,3}$")
_JSON_BLOCK_RE = re.compile(r"\{.*\}|\[.*\]", re.DOTALL)
_REFUSAL_RE = re.compile(r"^\s*(?:i'm sorry|i am sorry|as an ai|i cannot|i can't)", re.IGNORECASE)


class _Fact(BaseModel):
    content: str = Field(description="Third-person statement, e.g. 'User prefers dark roast coffee'")
    key: str = Field(description="Stable dotted key, e.g. 'preference.coffee', 'identity.name'")
    kind: str = Field(description="preference|identity|goal|constraint|decision|fact")
    confidence: float = Field(default=0.7, description="0 to 1")
    source_index: int | None = Field(default=None, description="index of the user message")


class _FactList(BaseModel):
    """Durable facts about the user found in the conversation."""

    facts: list[_Fact] = Field(default_factory=list)


_FACT_INSTRUCTIONS = (
    "Extract durable facts the USER states about themselves: preferences, identity (name, job, "
    "home, employer, age), goals, constraints (allergies, diet, budget, limits) and decisions. "
    "Ignore questions, hypotheticals, what other people said, and the assistant's turns. "
    "Write each fact in the third person starting with 'User' (for Chinese input, start with "
    "'用户'). Give a stable dotted key (preference.coffee, identity.name, location.home, "
    "goal.learn_rust, health.allergy.peanut, decision.database), the kind, a confidence "
    "between 0 and 1 and the index of the user message. Answer only with JSON: "
    '{"facts": [{"content": ..., "key": ..., "kind": ..., "confidence": ..., '
    '"source_index": ...}]}. Return {"facts": []} when there is nothing durable.'
)


def _fact_prompt(pairs: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    lines = [f"[{i}] {role}: {text}" for i, (role, text) in enumerate(pairs) if text]
    return [("system", _FACT_INSTRUCTIONS), ("human", "Conversation:\n" + "\n".join(lines))]


def _parse_json(text: str) -> Any:
    text = text.strip()
    if text.startswith("```"):
        text = re.sub(r"^```\w*\s*|\s*```$", "", text)
    try:
        return json.loads(text)
    except ValueError:
        match = _JSON_BLOCK_RE.search(text)
        if match is None:
            raise
        return json.loads(match.group(0))


def _content_text(result: Any) -> str:
    content = getattr(result, "content", result)
    if isinstance(content, list):
        return "".join(p if isinstance(p, str) else str(p.get("text", "")) for p in content)
    return content if isinstance(content, str) else str(content)


def _raw_facts(result: Any) -> list[Any]:
    if isinstance(result, _FactList):
        return [f.model_dump() for f in result.facts]
    if isinstance(result, BaseMessage | str):
        result = _parse_json(_content_text(result))
    elif isinstance(result, BaseModel):
        result = result.model_dump()
    if isinstance(result, Mapping):
        result = result.get("facts")
    if not isinstance(result, list):
        raise InvalidInput("facts", "the model's answer has no 'facts' list")
    return result


def _best_user_index(content: str, pairs: Sequence[tuple[str, str]]) -> int:
    words = set(tokenize(content))
    best, best_overlap = -1, 0
    for i, (role, text) in enumerate(pairs):
        if role in ("user", "human"):
            overlap = len(words & set(tokenize(text)))
            if best == -1 or overlap > best_overlap:
                best, best_overlap = i, overlap
    return best


def _validate(raw: list[Any], pairs: Sequence[tuple[str, str]]) -> list[ExtractedFact] | None:
    """Keep well-formed facts; None (junk) when the model returned items but none were usable."""
    out: list[ExtractedFact] = []
    for item in raw:
        if not isinstance(item, Mapping):
            continue
        content, kind = item.get("content"), str(item.get("kind") or "").strip().lower()
        if not isinstance(content, str) or not content.strip() or len(content) > 500:
            continue
        if kind not in FACT_KINDS:
            continue
        key = str(item.get("key") or "").strip().lower().replace(" ", "_")
        if not _KEY_RE.match(key):
            key = f"{kind}." + (re.sub(r"\W+", "_", content.lower()).strip("_")[:40] or "general")
        try:
            confidence = max(0.0, min(1.0, float(item.get("confidence", 0.7))))
        except (TypeError, ValueError):
            confidence = 0.7
        index = item.get("source_index")
        valid_index = (
            isinstance(index, int)
            and not isinstance(index, bool)
            and 0 <= index < len(pairs)
            and pairs[index][0] in ("user", "human")
        )
        out.append(
            ExtractedFact(
                content=content.strip(),
                key=key,
                kind=kind,  # type: ignore[arg-type]  # checked against FACT_KINDS above
                confidence=round(confidence, 3),
                tags=tuple(dict.fromkeys((kind, key.rsplit(".", 1)[-1]))),
                is_user_type=kind in _USER_KINDS or key.startswith(_USER_KEY_PREFIXES),
                source_index=index if valid_index else _best_user_index(content, pairs),  # type: ignore[arg-type]
                evidence="",
            )
        )
    if raw and not out:
        return None
    return out


def _structured_runnable(llm: Any) -> Any | None:
    try:
        return llm.with_structured_output(_FactList)
    except (NotImplementedError, AttributeError, TypeError, ValueError):
        return None


def _ask_facts(llm: Any, prompt: Any) -> list[Any]:
    structured = _structured_runnable(llm)
    if structured is not None:
        try:
            return _raw_facts(structured.invoke(prompt))
        except Exception:  # any model failure: retry as plain JSON
            pass
    return _raw_facts(llm.invoke(prompt))


async def _aask_facts(llm: Any, prompt: Any) -> list[Any]:
    structured = _structured_runnable(llm)
    if structured is not None:
        try:
            return _raw_facts(await structured.ainvoke(prompt))
        except Exception:  # any model failure: retry as plain JSON
            pass
    return _raw_facts(await llm.ainvoke(prompt))


def extract_facts_llm(
    messages: Sequence[MessageLike], llm: Any, *, timeout: float | None = 30.0
) -> list[ExtractedFact]:
    """Extract user facts with a chat model; fall back to `extract_facts` on any failure.

    Args:
        messages: Messages in any form `extract_facts` accepts.
        llm: A LangChain ``BaseChatModel`` (structured output used when supported).
        timeout: Seconds to wait for the model (None: no limit).

    Returns:
        Validated facts from the model, or the heuristic facts when the model raised, timed out
        or returned junk.
    """
    pairs = [as_role_text(m) for m in messages]
    if not any(role in ("user", "human") and text for role, text in pairs):
        return []
    try:
        raw = call_with_timeout(
            lambda: _ask_facts(llm, _fact_prompt(pairs)), timeout, name="tiered-memory-facts"
        )
        facts = _validate(raw, pairs)
    except Exception:  # the contract is "never fail": heuristics take over
        facts = None
    return facts if facts is not None else extract_facts(messages)


async def aextract_facts_llm(
    messages: Sequence[MessageLike], llm: Any, *, timeout: float | None = 30.0
) -> list[ExtractedFact]:
    """Async twin of `extract_facts_llm`."""
    pairs = [as_role_text(m) for m in messages]
    if not any(role in ("user", "human") and text for role, text in pairs):
        return []
    try:
        raw = await asyncio.wait_for(_aask_facts(llm, _fact_prompt(pairs)), timeout)
        facts = _validate(raw, pairs)
    except Exception:  # the contract is "never fail": heuristics take over
        facts = None
    return facts if facts is not None else extract_facts(messages)


_SUMMARY_INSTRUCTIONS = (
    "Summarise this conversation in at most {max_chars} characters, in the language of the "
    "conversation. Keep facts the user stated about themselves, decisions, and open tasks. "
    "Write plain sentences; no preamble, no lists, no JSON."
)


def _summary_prompt(pairs: Sequence[tuple[str, str]], max_chars: int) -> list[tuple[str, str]]:
    lines = [f"{role}: {text}" for role, text in pairs if text and role != "tool"]
    return [
        ("system", _SUMMARY_INSTRUCTIONS.format(max_chars=max_chars)),
        ("human", "\n".join(lines)),
    ]


def _clean_summary(result: Any, max_chars: int) -> str | None:
    text = _content_text(result).strip()
    if not text or text[0] in "{[" or _REFUSAL_RE.match(text):
        return None
    text = re.sub(r"^(?:summary|摘要)\s*[:：]\s*", "", text, flags=re.IGNORECASE).strip()
    if len(text) <= max_chars:
        return text or None
    cut = text[:max_chars]
    end = max(cut.rfind(p) for p in ".!?。！？")
    return cut[: end + 1] if end >= max_chars // 3 else cut[: max_chars - 1].rstrip() + "…"


def summarize_llm(
    messages: Sequence[MessageLike],
    llm: Any,
    *,
    max_chars: int = 600,
    timeout: float | None = 30.0,
) -> str:
    """Summarise with a chat model; fall back to the extractive `summarize` on any failure.

    Returns:
        At most ``max_chars`` characters.
    """
    pairs = [as_role_text(m) for m in messages]
    try:
        result = call_with_timeout(
            lambda: llm.invoke(_summary_prompt(pairs, max_chars)), timeout,
            name="tiered-memory-summary",
        )
        text = _clean_summary(result, max_chars)
    except Exception:  # the contract is "never fail": heuristics take over
        text = None
    return text if text is not None else summarize(messages, max_chars=max_chars)


async def asummarize_llm(
    messages: Sequence[MessageLike],
    llm: Any,
    *,
    max_chars: int = 600,
    timeout: float | None = 30.0,
) -> str:
    """Async twin of `summarize_llm`."""
    pairs = [as_role_text(m) for m in messages]
    try:
        result = await asyncio.wait_for(llm.ainvoke(_summary_prompt(pairs, max_chars)), timeout)
        text = _clean_summary(result, max_chars)
    except Exception:  # the contract is "never fail": heuristics take over
        text = None
    return text if text is not None else summarize(messages, max_chars=max_chars)
