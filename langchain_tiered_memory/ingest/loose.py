"""Claude exports, Gemini logs and Takeout, and any JSON holding a list of role/content messages.

Loose JSON comes in many shapes; `loose_conversation` recognises one conversation object by its
keys (``chat_messages``, ``contents``, ``messages``, ``request``/``response``, a Takeout activity,
a ChatGPT ``mapping``) and converts it. `message_fields` reads one message object whatever its key
spelling, and is shared with the JSONL reader.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from langchain_tiered_memory.ingest.chatgpt import BadConversation, chatgpt_conversation
from langchain_tiered_memory.ingest.messages import (
    Conversation,
    NormalizedMessage,
    ParseReport,
    Role,
    normalize_role,
    parse_timestamp,
    strip_html,
    text_from_parts,
)

__all__ = [
    "MessageFields",
    "build_conversation",
    "claude_conversation",
    "is_message_object",
    "loose_conversation",
    "message_fields",
]

MessageFields = tuple[Role, str, Any]
"""(role, text, raw timestamp) read from one message object."""

_ROLE_KEYS = ("role", "author", "sender", "from", "speaker", "type")
_TEXT_KEYS = ("content", "text", "parts", "message", "value", "body")
_TIME_KEYS = ("timestamp", "created_at", "create_time", "time", "date", "createdAt")
_LIST_KEYS = ("messages", "conversation", "conversations", "turns", "history", "dialogue", "chat")
_ID_KEYS = ("conversation_id", "uuid", "id", "session_id", "thread_id", "chat_id")
_TITLE_KEYS = ("title", "name", "subject")


def _role_of(obj: Mapping[str, Any]) -> Role | None:
    for key in _ROLE_KEYS:
        value = obj.get(key)
        if isinstance(value, Mapping):
            value = value.get("role")
        if value is not None:
            role = normalize_role(value)
            if role is not None:
                return role
    return None


def is_message_object(obj: object) -> bool:
    """Whether ``obj`` looks like one message (a role and a text-ish field)."""
    return (
        isinstance(obj, Mapping)
        and _role_of(obj) is not None
        and any(k in obj for k in _TEXT_KEYS)
    )


def message_fields(obj: object) -> MessageFields | None:
    """Read (role, text, raw timestamp) from one message object, or None when it has no role."""
    if not isinstance(obj, Mapping):
        return None
    role = _role_of(obj)
    if role is None:
        return None
    text = ""
    for key in _TEXT_KEYS:
        if key in obj:
            text = text_from_parts(obj[key])
            if text:
                break
    stamp = next((obj[k] for k in _TIME_KEYS if obj.get(k) is not None), None)
    return role, text.strip(), stamp


def build_conversation(
    items: Sequence[MessageFields | None],
    *,
    conv_id: str,
    platform: str,
    title: str | None,
    report: ParseReport,
    created_at: object = None,
) -> Conversation:
    """Assemble a conversation, dropping (and counting) empty or role-less messages."""
    messages: list[NormalizedMessage] = []
    for item in items:
        if item is None or not item[1]:
            report.skipped_messages += 1
            continue
        role, text, stamp = item
        messages.append(
            NormalizedMessage(
                role=role,
                content=text,
                timestamp=parse_timestamp(stamp),
                conversation_id=conv_id,
                platform=platform,
                position=len(messages),
                title=title,
            )
        )
    first_time = messages[0].timestamp if messages else None
    return Conversation(
        id=conv_id,
        platform=platform,
        title=title,
        messages=tuple(messages),
        created_at=parse_timestamp(created_at) or first_time,
    )


def _first_str(obj: Mapping[str, Any], keys: Sequence[str]) -> str | None:
    for key in keys:
        value = obj.get(key)
        if isinstance(value, str | int) and not isinstance(value, bool) and str(value).strip():
            return str(value)
    return None


def claude_conversation(obj: Any, position: int, report: ParseReport) -> Conversation:
    """Convert one conversation of a Claude export (``uuid``, ``name``, ``chat_messages``).

    Raises:
        BadConversation: When ``obj`` is not an object or ``chat_messages`` is not a list.
    """
    if not isinstance(obj, Mapping):
        raise BadConversation(f"conversation is {type(obj).__name__}, not an object")
    chat = obj.get("chat_messages")
    if not isinstance(chat, list):
        raise BadConversation("missing or malformed 'chat_messages'")
    items: list[MessageFields | None] = []
    for msg in chat:
        if not isinstance(msg, Mapping):
            items.append(None)
            continue
        role = normalize_role(msg.get("sender"))
        raw_text = msg.get("text")
        text = raw_text if isinstance(raw_text, str) else ""
        if not text.strip():
            text = text_from_parts(msg.get("content"))
        items.append(None if role is None else (role, text.strip(), msg.get("created_at")))
    return build_conversation(
        items,
        conv_id=_first_str(obj, ("uuid", "id")) or f"claude-{position}",
        platform="claude",
        title=_first_str(obj, ("name", "title")),
        report=report,
        created_at=obj.get("created_at"),
    )


def _gemini_contents(obj: Mapping[str, Any], position: int, report: ParseReport) -> Conversation:
    items: list[MessageFields | None] = []
    system = obj.get("systemInstruction") or obj.get("system_instruction")
    if system:
        items.append(("system", text_from_parts(system).strip(), None))
    for content in obj.get("contents") or ():
        items.append(message_fields(content))
    for candidate in obj.get("candidates") or ():
        if isinstance(candidate, Mapping):
            items.append(message_fields(candidate.get("content")))
    return build_conversation(
        items,
        conv_id=_first_str(obj, _ID_KEYS) or f"gemini-{position}",
        platform="gemini",
        title=_first_str(obj, _TITLE_KEYS),
        report=report,
        created_at=next((obj[k] for k in _TIME_KEYS if obj.get(k) is not None), None),
    )


def _takeout_activity(obj: Mapping[str, Any], position: int, report: ParseReport) -> Conversation:
    """A Google Takeout "My Activity" record: ``title`` is "Prompted <prompt>", the answer HTML."""
    prompt = str(obj.get("title") or "")
    for prefix in ("Prompted ", "Asked ", "Searched for "):
        if prompt.startswith(prefix):
            prompt = prompt[len(prefix) :]
            break
    answers = obj.get("safeHtmlItem") or obj.get("subtitles") or ()
    answer = "\n".join(
        strip_html(str(a.get("html") or a.get("name") or ""))
        for a in answers
        if isinstance(a, Mapping)
    )
    stamp = obj.get("time")
    items: list[MessageFields | None] = [("user", prompt.strip(), stamp)]
    if answer.strip():
        items.append(("assistant", answer.strip(), stamp))
    return build_conversation(
        items,
        conv_id=_first_str(obj, _ID_KEYS) or f"gemini-activity-{position}",
        platform="gemini",
        title=None,
        report=report,
        created_at=stamp,
    )


def _is_takeout_activity(obj: Mapping[str, Any]) -> bool:
    return isinstance(obj.get("title"), str) and "time" in obj and (
        "header" in obj or "safeHtmlItem" in obj or "products" in obj
    )


def _request_response(
    obj: Mapping[str, Any], position: int, report: ParseReport, platform: str
) -> Conversation:
    """An API log record: ``request`` (OpenAI ``messages`` or Gemini ``contents``) + ``response``."""
    raw_request, raw_response = obj.get("request"), obj.get("response")
    request: Mapping[str, Any] = raw_request if isinstance(raw_request, Mapping) else {}
    response: Mapping[str, Any] = raw_response if isinstance(raw_response, Mapping) else {}
    items: list[MessageFields | None] = []
    for msg in request.get("messages") or request.get("contents") or ():
        items.append(message_fields(msg))
    for choice in response.get("choices") or ():
        if isinstance(choice, Mapping):
            items.append(message_fields(choice.get("message")))
    for candidate in response.get("candidates") or ():
        if isinstance(candidate, Mapping):
            items.append(message_fields(candidate.get("content")))
    if isinstance(response.get("content"), list | str) and not items[-1:]:
        items.append(("assistant", text_from_parts(response["content"]).strip(), None))
    return build_conversation(
        items,
        conv_id=_first_str(obj, _ID_KEYS) or _first_str(response, ("id",)) or f"log-{position}",
        platform=platform,
        title=_first_str(obj, _TITLE_KEYS),
        report=report,
        created_at=next((obj[k] for k in _TIME_KEYS if obj.get(k) is not None), None),
    )


def loose_conversation(
    obj: Any, position: int, report: ParseReport, *, platform: str = "generic"
) -> Conversation:
    """Convert one conversation object of any supported JSON shape.

    Args:
        obj: The decoded JSON object.
        position: Its index in the file (used for fallback ids and problem reports).
        report: Receives skipped-message counts.
        platform: Platform label for shapes that do not name one.

    Raises:
        BadConversation: When no known shape matches.
    """
    if not isinstance(obj, Mapping):
        raise BadConversation(f"conversation is {type(obj).__name__}, not an object")
    if "mapping" in obj:
        return chatgpt_conversation(obj, position, report)
    if "chat_messages" in obj:
        return claude_conversation(obj, position, report)
    if isinstance(obj.get("contents"), list):
        return _gemini_contents(obj, position, report)
    if "request" in obj and "response" in obj:
        return _request_response(obj, position, report, platform)
    if _is_takeout_activity(obj):
        return _takeout_activity(obj, position, report)
    for key in _LIST_KEYS:
        value = obj.get(key)
        if isinstance(value, list) and (not value or any(is_message_object(m) for m in value)):
            return build_conversation(
                [message_fields(m) for m in value],
                conv_id=_first_str(obj, _ID_KEYS) or f"{platform}-{position}",
                platform=str(obj.get("platform") or platform),
                title=_first_str(obj, _TITLE_KEYS),
                report=report,
                created_at=next((obj[k] for k in _TIME_KEYS if obj.get(k) is not None), None),
            )
    raise BadConversation("no recognised conversation shape (expected messages, contents, ...)")
