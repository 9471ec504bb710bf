"""ChatGPT ``conversations.json``: one conversation object, its ``mapping`` tree, its active branch.

A ChatGPT conversation is a tree of nodes (edits and regenerations create branches); the branch the
user last saw ends at ``current_node``. We walk from there to the root through ``parent`` links and
reverse, so abandoned branches are not imported.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import InvalidInput
from .messages import (
    Conversation,
    NormalizedMessage,
    ParseReport,
    normalize_role,
    parse_timestamp,
    text_from_parts,
)

__all__ = ["BadConversation", "chatgpt_conversation"]

PLATFORM = "chatgpt"

# Content types that are hidden model reasoning or browsing plumbing, not conversation.
_HIDDEN_TYPES = frozenset(
    {"thoughts", "reasoning_recap", "tether_browsing_display", "system_error", "model_editable_context"}
)


class BadConversation(InvalidInput):
    """A conversation object that cannot be read at all (recorded, then skipped)."""

    def __init__(self, message: str) -> None:
        super().__init__("conversation", message)


def chatgpt_conversation(obj: Any, position: int, report: ParseReport) -> Conversation:
    """Convert one ChatGPT export conversation.

    Args:
        obj: The conversation object as decoded from JSON.
        position: Its index in the file (used for a fallback id).
        report: Receives the count of skipped messages.

    Returns:
        The conversation, messages on the active branch, oldest first.

    Raises:
        BadConversation: When ``obj`` is not an object or has no usable ``mapping``.
    """
    if not isinstance(obj, Mapping):
        raise BadConversation(f"conversation is {type(obj).__name__}, not an object")
    conv_id = str(obj.get("conversation_id") or obj.get("id") or f"chatgpt-{position}")
    mapping = obj.get("mapping")
    if not isinstance(mapping, Mapping):
        raise BadConversation("missing or malformed 'mapping'")
    title = obj.get("title") if isinstance(obj.get("title"), str) else None
    branch = _active_branch(mapping, obj.get("current_node"))
    messages: list[NormalizedMessage] = []
    for node in branch:
        msg = _message_from_node(node, conv_id, title, len(messages))
        if msg is None:
            if isinstance(node.get("message"), Mapping):
                report.skipped_messages += 1
            continue
        messages.append(msg)
    return Conversation(
        id=conv_id,
        platform=PLATFORM,
        title=title,
        messages=tuple(messages),
        created_at=parse_timestamp(obj.get("create_time")),
    )


def _active_branch(mapping: Mapping[str, Any], current: object) -> list[Mapping[str, Any]]:
    """Nodes from the root to ``current`` (or to the most recent leaf when it is missing)."""
    if not isinstance(current, str) or not isinstance(mapping.get(current), Mapping):
        current = _latest_leaf(mapping)
        if current is None:
            return []
    chain: list[Mapping[str, Any]] = []
    seen: set[str] = set()
    node_id: object = current
    while isinstance(node_id, str) and node_id not in seen:
        node = mapping.get(node_id)
        if not isinstance(node, Mapping):
            break
        seen.add(node_id)
        chain.append(node)
        node_id = node.get("parent")
    chain.reverse()
    return chain


def _latest_leaf(mapping: Mapping[str, Any]) -> str | None:
    """The leaf written last; ties (and missing times) go to the later node in file order."""
    best: str | None = None
    best_time = float("-inf")
    for node_id, node in mapping.items():
        if not isinstance(node, Mapping) or node.get("children"):
            continue
        message = node.get("message")
        created = message.get("create_time") if isinstance(message, Mapping) else None
        stamp = float(created) if isinstance(created, int | float) else float("-inf")
        if best is None or stamp >= best_time:
            best, best_time = str(node_id), stamp
    return best


def _message_from_node(
    node: Mapping[str, Any], conv_id: str, title: str | None, position: int
) -> NormalizedMessage | None:
    message = node.get("message")
    if not isinstance(message, Mapping):
        return None
    author = message.get("author")
    role = normalize_role(author.get("role") if isinstance(author, Mapping) else None)
    if role is None:
        return None
    content = message.get("content")
    metadata = message.get("metadata")
    if isinstance(content, Mapping) and content.get("content_type") == "user_editable_context":
        role = "system"  # custom instructions: hidden in the UI but the user's own profile
    elif isinstance(metadata, Mapping) and metadata.get("is_visually_hidden_from_conversation"):
        return None
    text = _content_text(content)
    if not text.strip():
        return None
    return NormalizedMessage(
        role=role,
        content=text.strip(),
        timestamp=parse_timestamp(message.get("create_time")),
        conversation_id=conv_id,
        platform=PLATFORM,
        position=position,
        title=title,
    )


def _content_text(content: object) -> str:
    if isinstance(content, str):
        return content
    if not isinstance(content, Mapping):
        return ""
    ctype = content.get("content_type")
    if ctype in _HIDDEN_TYPES:
        return ""
    if ctype == "user_editable_context":
        # Custom instructions: the user's own profile, worth keeping as a system message.
        fields = (content.get("user_profile"), content.get("user_instructions"))
        return "\n".join(f for f in fields if isinstance(f, str) and f.strip())
    parts = content.get("parts")
    if parts is not None:
        return text_from_parts(parts)
    for key in ("text", "result"):
        value = content.get(key)
        if isinstance(value, str):
            return value
    return ""
