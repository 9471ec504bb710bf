"""``POST /api/chat``: one turn with the configured chat model, with or without memory.

With ``use_memory`` the model's system message carries the memory block (L0–L3 plus the
session's working memory, `compose_memory_block`), and the turn is recorded in the session's
working memory, which is scanned like every other write; ``end_session`` hands the session to
consolidation afterwards. Without it the model sees only the conversation the client sends.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from ..context import compose_memory_block
from ..history import WorkingMemoryHistory

if TYPE_CHECKING:
    from ..store import TieredMemoryStore

__all__ = ["ChatTurn", "chat_turn"]

_ROLES: dict[str, type[BaseMessage]] = {
    "user": HumanMessage,
    "human": HumanMessage,
    "assistant": AIMessage,
    "ai": AIMessage,
    "system": SystemMessage,
}


@dataclass(frozen=True, slots=True)
class ChatTurn:
    """What one chat turn produced."""

    reply: str
    memory: str
    job_id: str | None


def chat_turn(
    store: TieredMemoryStore,
    model: BaseChatModel,
    *,
    namespace: str,
    session_id: str,
    message: str,
    history: Sequence[tuple[str, str]] = (),
    use_memory: bool = True,
    system_prompt: str = "",
    budget: int | None = None,
    scheduler: Any = None,
    end_session: bool = False,
) -> ChatTurn:
    """Run one turn: prompt (with the memory block), model call, working memory update."""
    working = (
        WorkingMemoryHistory(session_id, store=store, namespace=namespace, scheduler=scheduler)
        if use_memory
        else None
    )
    block = (
        compose_memory_block(store, namespace, message, working=working, budget=budget)
        if use_memory
        else ""
    )
    system = "\n\n".join(part for part in (system_prompt, block) if part)
    prompt: list[BaseMessage] = [SystemMessage(system)] if system else []
    prompt += [_ROLES.get(role, HumanMessage)(content=text) for role, text in history]
    human = HumanMessage(message)
    reply = model.invoke([*prompt, human])
    text = reply.text if isinstance(reply.text, str) else str(reply.content)
    job_id = None
    if working is not None:
        working.add_messages([human, AIMessage(text)])
        if end_session:
            job = working.end_session()
            job_id = job.id if job is not None else None
    return ChatTurn(reply=text, memory=block, job_id=job_id)
