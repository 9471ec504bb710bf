"""The memory block of the system prompt: token estimate, level layout, and the LangGraph node.

`TieredMemoryStore.context` gathers four levels and this module lays them out:

- **L0 identity** — who the user is (name, language): always first.
- **L1 core snapshot** — pinned entries and USER entries: always present.
- **L2 recall** — what the store recalls for the current query.
- **L3 on demand** — episode summaries and items linked to the recalled ones.

L0 takes what it needs, up to half the budget; L1/L2/L3 share the rest 40/45/15
(`LEVEL_SHARES`), and whatever a level leaves unused passes to the next. L0 and L1 are ordered by
text, not by score, so that the start of the block — and with it the prompt prefix a provider can
cache — only changes when those memories do.

Token estimate (`estimate_tokens`): one token per CJK character plus one per four other
characters, rounded up. It over-counts English slightly compared with BPE tokenizers, which keeps
the block safely inside a model's window without loading a tokenizer.
"""

from __future__ import annotations

import asyncio
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .history import WorkingMemoryHistory
from .scope import context_fields, current_run, resolve_session

if TYPE_CHECKING:
    from langchain_core.runnables import RunnableConfig, RunnableLambda

    from .store import TieredMemoryStore

__all__ = [
    "LEVEL_SHARES",
    "LEVEL_TITLES",
    "MEMORY_MESSAGE_ID",
    "ContextBlock",
    "ContextItem",
    "compose_memory_block",
    "estimate_tokens",
    "last_user_text",
    "layout_levels",
    "memory_context_node",
    "memory_pre_model_hook",
]

LEVEL_SHARES: Mapping[str, float] = {"L0": 0.50, "L1": 0.40, "L2": 0.45, "L3": 0.15}
"""L0: the most of the budget identity may take; L1-L3: their shares of what L0 leaves."""
LEVEL_TITLES: Mapping[str, str] = {
    "L0": "Identity",
    "L1": "Core memory",
    "L2": "Relevant memories",
    "L3": "Earlier sessions and related notes",
}
MEMORY_MESSAGE_ID = "tiered-memory-context"
_HEADER = "## Memory"
_CJK_RE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_SPACE_RE = re.compile(r"\s+")


def estimate_tokens(text: str) -> int:
    """Rough token count: each CJK character is one token, other characters four to a token."""
    if not text:
        return 0
    cjk = len(_CJK_RE.findall(text))
    return cjk + math.ceil((len(text) - cjk) / 4)


@dataclass(frozen=True, slots=True)
class ContextItem:
    """One line of the block.

    Attributes:
        text: The line's text (without the bullet).
        id: The entry or episode id it came from.
        level: ``L0`` .. ``L3``.
        kind: ``entry``, ``episode`` or ``link``.
    """

    text: str
    id: str
    level: str
    kind: str = "entry"


@dataclass(frozen=True, slots=True)
class ContextBlock:
    """The assembled block and what went into it.

    Attributes:
        text: Markdown for the system prompt ("" when there is nothing to say).
        items: Lines kept, per level, in output order.
        dropped: Ids that did not fit their level's budget.
        tokens: Estimated tokens of ``text``.
        budget: The token budget it was built for.
    """

    text: str
    items: Mapping[str, tuple[ContextItem, ...]] = field(default_factory=dict)
    dropped: tuple[str, ...] = ()
    tokens: int = 0
    budget: int = 0

    def ids(self, level: str | None = None) -> list[str]:
        """Ids of the kept items (of one level, or all)."""
        levels = [level] if level else list(self.items)
        return [item.id for lv in levels for item in self.items.get(lv, ())]


def _one_line(text: str) -> str:
    return _SPACE_RE.sub(" ", text).strip()


def layout_levels(levels: Mapping[str, Sequence[ContextItem]], budget: int) -> ContextBlock:
    """Fit the candidate items of each level into its share of ``budget`` and render markdown.

    Candidates must arrive in priority order within a level; items that do not fit are skipped
    (a shorter one after them may still fit). Kept L0/L1 items are re-sorted by text so the block
    start is stable; L2/L3 keep their priority order.

    Args:
        levels: Candidate items keyed ``L0`` .. ``L3``.
        budget: Total token budget, header included.

    Returns:
        The block; its ``tokens`` never exceed ``budget``.
    """
    header_cost = estimate_tokens(_HEADER) + 1
    if budget <= header_cost:
        return ContextBlock("", {}, tuple(i.id for v in levels.values() for i in v), 0, budget)
    available = budget - header_cost
    carry = 0.0
    kept: dict[str, tuple[ContextItem, ...]] = {}
    dropped: list[str] = []
    sections: list[str] = []
    rest = available
    for level in ("L0", "L1", "L2", "L3"):
        if level == "L0":
            # Identity is what a model most needs: it may take up to half of a tight budget.
            share = available * LEVEL_SHARES["L0"]
        else:
            share = rest * LEVEL_SHARES[level] + carry
        candidates = list(levels.get(level, ()))
        title = f"### {LEVEL_TITLES[level]}"
        cost = estimate_tokens(title) + 2  # title line plus the blank line before it
        chosen: list[ContextItem] = []
        for item in candidates:
            line = f"- {_one_line(item.text)}"
            need = estimate_tokens(line) + 1
            if cost + need <= share:
                chosen.append(item)
                cost += need
            else:
                dropped.append(item.id)
        if not chosen:
            carry = 0.0 if level == "L0" else share
            continue
        if level in ("L0", "L1"):
            chosen.sort(key=lambda i: (_one_line(i.text).lower(), i.id))
        kept[level] = tuple(chosen)
        sections.append("\n".join([title, *(f"- {_one_line(i.text)}" for i in chosen)]))
        if level == "L0":
            rest = available - cost
        else:
            carry = max(0.0, share - cost)
    if not sections:
        return ContextBlock("", {}, tuple(dropped), 0, budget)
    text = "\n\n".join([_HEADER, *sections])
    return ContextBlock(text, kept, tuple(dropped), estimate_tokens(text), budget)


# -- the whole block: long-term levels plus the session's WORKING buffer -----------------------


def compose_memory_block(
    store: TieredMemoryStore,
    namespace: str,
    query: str | None,
    *,
    working: WorkingMemoryHistory | None = None,
    budget: int | None = None,
    k: int = 8,
) -> str:
    """The memory block a model sees: L0–L3 (``## Memory``), then the session's working memory.

    `TieredMemoryStore.context` assembles the long-term levels only; the WORKING tier lives in
    the integration (`WorkingMemoryHistory`), so it is composed here. Both share one token
    budget: working memory may take up to half of it (and at most ``memory.workingCharBudget``
    characters), and the long-term levels get what it leaves. The long-term part comes first,
    so the prompt prefix a provider caches only changes when those memories do.

    Args:
        store: The tiered store.
        namespace: Whose memory.
        query: The current user message (enables L2 and L3 recall).
        working: The session's buffer; None leaves working memory out.
        budget: Token budget of the whole block (default ``memory.contextTokenBudget``).
        k: How many entries L2 recall considers.

    Returns:
        Markdown, or "" when there is nothing to say.
    """
    total = store.config.context_token_budget if budget is None else int(budget)
    working_text = ""
    if working is not None:
        # estimate_tokens counts four characters a token: half the budget is 2 * total chars.
        chars = min(working.config.working_char_budget, 2 * max(total, 0))
        working_text = working.render(chars)
    rest = total - (estimate_tokens(working_text) + 1 if working_text else 0)
    long_term = store.context(namespace, query, budget=rest, k=k) if rest > 0 else ""
    return "\n\n".join(part for part in (long_term, working_text) if part)


# -- LangGraph integration ---------------------------------------------------------------------


def last_user_text(messages: Sequence[Any]) -> str | None:
    """The text of the last human/user message in a message list, or None."""
    for message in reversed(list(messages)):
        role = getattr(message, "type", None)
        content: Any = getattr(message, "content", None)
        if isinstance(message, Mapping):
            role = message.get("role") or message.get("type")
            content = message.get("content")
        elif isinstance(message, tuple) and len(message) == 2:
            role, content = message
        if role in ("human", "user"):
            if isinstance(content, list):
                parts = [p.get("text", "") if isinstance(p, Mapping) else str(p) for p in content]
                content = " ".join(p for p in parts if p)
            return str(content or "") or None
    return None


def _namespace_of(config: Any, default: str | None, context: Any = None) -> str:
    values = {
        **((config or {}).get("configurable", {}) if isinstance(config, Mapping) else {}),
        **context_fields(context),
    }
    for key in ("namespace", "user_id"):
        value = values.get(key)
        if isinstance(value, str) and value:
            return value
    return default or "default"


def _block_for(
    store: TieredMemoryStore,
    state: Mapping[str, Any],
    config: Any,
    namespace: str | None,
    budget: int | None,
    k: int,
    working: bool,
) -> tuple[list[Any], str]:
    messages = list(state.get("messages", []))
    query = last_user_text(messages)
    context, _ = current_run()
    ns = _namespace_of(config, namespace, context)
    history = (
        WorkingMemoryHistory(resolve_session(context, config), store=store, namespace=ns)
        if working
        else None
    )
    text = compose_memory_block(store, ns, query, working=history, budget=budget, k=k)
    return messages, text


def _node_update(messages: list[Any], text: str) -> dict[str, Any]:
    from langchain_core.messages import RemoveMessage, SystemMessage
    from langgraph.graph.message import REMOVE_ALL_MESSAGES

    existing = next((m for m in messages if getattr(m, "id", None) == MEMORY_MESSAGE_ID), None)
    if not text:
        return {"messages": [RemoveMessage(id=MEMORY_MESSAGE_ID)]} if existing else {}
    block = SystemMessage(content=text, id=MEMORY_MESSAGE_ID)
    if existing is not None:
        # Same id: the reducer replaces it where it stands, so the list is not reordered.
        return {"messages": [block]} if existing.content != text else {}
    # First injection: rebuild the list so the memory sits after any leading system messages.
    lead = 0
    while lead < len(messages) and getattr(messages[lead], "type", None) == "system":
        lead += 1
    rebuilt = [*messages[:lead], block, *messages[lead:]]
    return {"messages": [RemoveMessage(id=REMOVE_ALL_MESSAGES), *rebuilt]}


def memory_context_node(
    store: TieredMemoryStore,
    *,
    namespace: str | None = None,
    budget: int | None = None,
    k: int = 8,
    working: bool = True,
) -> RunnableLambda[Mapping[str, Any], dict[str, Any]]:
    """A LangGraph node that puts the memory block into ``MessagesState`` as a system message.

    Add it before the model node (``START → memory → model``): it recalls for the last user
    message and writes one `SystemMessage` (id ``tiered-memory-context``) after any leading system
    messages; later turns replace that message in place, so the history is not reordered.

    Args:
        store: A `TieredMemoryStore`.
        namespace: Whose memory, unless the runtime context or ``config["configurable"]``
            names one (``namespace``, else ``user_id``); default ``"default"``.
        budget: Token budget of the whole block (default ``memory.contextTokenBudget``).
        k: How many entries L2 recall considers.
        working: Add the session's WORKING buffer (the `WorkingMemoryHistory` of the run's
            ``session_id``/``thread_id`` in that namespace) after the long-term levels.

    Returns:
        A runnable node (sync and async) returning a ``{"messages": [...]}`` update.
    """
    from langchain_core.runnables import RunnableLambda

    def node(state: Mapping[str, Any], config: RunnableConfig) -> dict[str, Any]:
        messages, text = _block_for(store, state, config, namespace, budget, k, working)
        return _node_update(messages, text)

    async def anode(state: Mapping[str, Any], config: RunnableConfig) -> dict[str, Any]:
        # to_thread copies the context variables, so the run's runtime context stays visible.
        messages, text = await asyncio.to_thread(
            _block_for, store, state, config, namespace, budget, k, working
        )
        return _node_update(messages, text)

    return RunnableLambda(node, afunc=anode, name="memory_context")


def memory_pre_model_hook(
    store: TieredMemoryStore,
    *,
    namespace: str | None = None,
    budget: int | None = None,
    k: int = 8,
    working: bool = True,
) -> Callable[[Mapping[str, Any], RunnableConfig], dict[str, Any]]:
    """A ``pre_model_hook`` for ``create_react_agent``: the model sees the memory block first.

    It returns ``llm_input_messages`` (the block as a system message, then the conversation), so
    nothing is written to the graph state: ``create_react_agent(model, tools,
    pre_model_hook=memory_pre_model_hook(store))``.

    Args:
        store: A `TieredMemoryStore`.
        namespace: Whose memory, unless the runtime context or ``config["configurable"]``
            names one (``namespace``, else ``user_id``); default ``"default"``.
        budget: Token budget of the whole block (default ``memory.contextTokenBudget``).
        k: How many entries L2 recall considers.
        working: Add the session's WORKING buffer (the `WorkingMemoryHistory` of the run's
            ``session_id``/``thread_id`` in that namespace) after the long-term levels.

    Returns:
        A function of ``(state, config)`` returning ``{"llm_input_messages": [...]}``.
    """
    from langchain_core.messages import SystemMessage

    def hook(state: Mapping[str, Any], config: RunnableConfig) -> dict[str, Any]:
        messages, text = _block_for(store, state, config, namespace, budget, k, working)
        rest = [m for m in messages if getattr(m, "id", None) != MEMORY_MESSAGE_ID]
        if not text:
            return {"llm_input_messages": rest}
        return {"llm_input_messages": [SystemMessage(content=text, id=MEMORY_MESSAGE_ID), *rest]}

    return hook
