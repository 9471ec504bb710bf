"""Pydantic request and response models: the HTTP edge only (the library uses dataclasses)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from ..ingest.reader import FORMAT_REGISTRY, FORMATS


def _known_format(value: str | None) -> str | None:
    # Checked against the registry when the request arrives (a format registered after start-up
    # is accepted): an unknown one is a 422 naming the choices, not an error deep in the import.
    return None if value is None else FORMAT_REGISTRY.get(value).name


ExportFormatName = Annotated[str | None, AfterValidator(_known_format)]

_NS = Field(default=None, min_length=1, max_length=255,
            description="Namespace; default: the token's own.")


class ErrorBody(BaseModel):
    """Every 4xx/5xx body."""

    error: str = Field(description="Error type, e.g. MemoryWriteBlocked, EntryNotFound.")
    message: str
    reason: str | None = None
    rule: str | None = None
    details: Any = None


class ChatMessage(BaseModel):
    """One message of a conversation to ingest."""

    model_config = ConfigDict(extra="forbid")
    role: str = Field(min_length=1, max_length=32)
    content: str = Field(max_length=200_000)
    timestamp: float | str | None = None


class IngestRequest(BaseModel):
    """Import a chat export: either ``messages`` (one conversation) or a raw ``export``."""

    model_config = ConfigDict(extra="forbid")
    namespace: str | None = _NS
    messages: list[ChatMessage] | None = Field(default=None, max_length=10_000)
    export: Any = Field(default=None, description="A whole export as JSON (ChatGPT, Claude...)")
    text: str | None = Field(default=None, description="A plain-text transcript (User:/我:...)")
    format: ExportFormatName = Field(
        default=None, max_length=64, examples=list(FORMATS),
        description="Force a format, by name or alias (default: sniffed).",
    )
    confidence_threshold: float | None = Field(default=None, ge=0.0, le=1.0)
    force: bool = False


class IngestResponse(BaseModel):
    """What the import did."""

    skipped: bool
    message: str
    sha256: str
    format: str
    conversations: int
    messages: int
    episodes: int
    facts_active: int
    facts_pending: int
    problems: list[dict[str, Any]]
    refused: list[dict[str, Any]]


class ContextRequest(BaseModel):
    """Ask for the memory block of a query."""

    model_config = ConfigDict(extra="forbid")
    namespace: str | None = _NS
    query: str = Field(default="", max_length=20_000)
    budget: int | None = Field(default=None, ge=1, le=100_000)


class ContextResponse(BaseModel):
    """The block to put in a system prompt."""

    namespace: str
    context: str


class SearchRequest(BaseModel):
    """Recall memories."""

    model_config = ConfigDict(extra="forbid")
    namespace: str | None = _NS
    query: str = Field(min_length=1, max_length=20_000)
    k: int = Field(default=10, ge=1, le=200)
    mode: Literal["hybrid", "keyword", "vector"] = "hybrid"
    history: bool = Field(
        default=False,
        description="Also return superseded versions of rewritten keys (their superseded_by is "
        "set); by default only the live version of a key is recalled.",
    )


class MemoryItem(BaseModel):
    """A memory entry."""

    id: str
    namespace: str
    key: str
    content: str
    tier: str
    type: str
    tags: list[str]
    importance: float
    source: str
    status: str
    pinned: bool
    version: int
    superseded_by: str | None
    created_at: str
    updated_at: str
    event_at: str | None
    metadata: dict[str, Any]


class SearchHitItem(BaseModel):
    """A recalled memory and its score."""

    score: float
    item: MemoryItem


class ListResponse(BaseModel):
    """A page of memories."""

    namespace: str
    items: list[MemoryItem]


class PatchRequest(BaseModel):
    """Edit a memory (a new content makes a new version)."""

    model_config = ConfigDict(extra="forbid")
    content: str | None = Field(default=None, min_length=1, max_length=100_000)
    tags: list[str] | None = Field(default=None, max_length=100)
    importance: float | None = Field(default=None, ge=0.0, le=1.0)
    pinned: bool | None = None
    status: Literal["active", "rejected"] | None = Field(
        default=None, description="Approve (active) or reject a pending memory.")


class DeleteResponse(BaseModel):
    """Deletion receipt."""

    id: str
    deleted: bool


class MetricPoint(BaseModel):
    """One point of a metric's history."""

    ts: float
    value: float


class MetricHistory(BaseModel):
    """A metric over time."""

    name: str
    namespace: str
    points: list[MetricPoint]


class AddRequest(BaseModel):
    """One memory, stated by the user (provenance ``user_stated``, scanned like every write)."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)
    namespace: str | None = _NS
    content: str = Field(min_length=1, max_length=100_000)
    key: str | None = Field(default=None, min_length=1, max_length=512,
                            description="A stable key: adding it again makes a new version.")
    type: Literal["user", "environment"] = Field(
        default="user", description="user: about the user (never decays); environment: decays.")
    tags: list[str] = Field(default_factory=list, max_length=100)
    importance: float = Field(default=0.5, ge=0.0, le=1.0)
    pinned: bool = False


class ChatTurnMessage(BaseModel):
    """An earlier message of the conversation, sent by the client."""

    role: Literal["user", "assistant", "system"]
    content: str = Field(max_length=200_000)


class ChatRequest(BaseModel):
    """One chat turn with the server's chat model."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)
    namespace: str | None = _NS
    message: str = Field(min_length=1, max_length=100_000)
    session_id: str = Field(default="default", min_length=1, max_length=255,
                            description="The conversation; its turns form working memory.")
    use_memory: bool = Field(
        default=True,
        description="Put the memory block in the system message and record the turn.")
    history: list[ChatTurnMessage] = Field(default_factory=list, max_length=200)
    budget: int | None = Field(default=None, ge=1, le=100_000,
                               description="Token budget of the memory block.")
    end_session: bool = Field(
        default=False, description="Hand the session to consolidation after this turn.")


class ChatResponse(BaseModel):
    """The model's reply and the memory block it was given."""

    namespace: str
    session_id: str
    reply: str
    memory: str = Field(description="The memory block in the system message ('' without).")
    consolidation_job: str | None = None
