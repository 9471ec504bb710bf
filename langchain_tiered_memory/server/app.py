"""The FastAPI application: the seed's memory endpoints over one `TieredMemoryStore`.

Auth is a bearer token per namespace (``tokens={"secret": "alice"}``; ``"*"`` reaches every
namespace), declared in OpenAPI as an HTTP bearer scheme (Swagger UI's Authorize button): no or
unknown token → 401, another namespace → 403. ``/docs`` serves Swagger UI from local assets. Bodies above ``max_body_bytes``
get 413 before anything is read into the store. Errors are JSON ``{"error", "message", ...}``:
`MemoryWriteBlocked` → 422 with its reason, `EntryNotFound` → 404, `IllegalTransition` → 409,
invalid input (a non-finite number such as a raw ``NaN`` included) → 422, a failing database →
503. Writes made with a user token go through the
USER write path; imports through the IMPORT path.
"""

# No `from __future__ import annotations`: FastAPI resolves the endpoints' annotations at
# runtime, and `Caller` is local to `create_app`.
import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from importlib import metadata
from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import Depends, FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from langchain_core.language_models import BaseChatModel
from starlette.exceptions import HTTPException

from ..errors import (
    ConfigError,
    EmbeddingError,
    EntryNotFound,
    IllegalTransition,
    InvalidInput,
    MemoryWriteBlocked,
    StoreError,
    TieredMemoryError,
    describe,
)
from ..importer import import_bytes
from ..provenance import WritePath
from ..types import MemoryEntry, ProvenanceLevel
from .chat import chat_turn
from .docs import mount_docs
from .limits import BodySizeLimit
from .metrics import METRIC_NAMES, LatencyRecorder, metric_history
from .models import (
    AddRequest,
    ChatRequest,
    ChatResponse,
    ContextRequest,
    ContextResponse,
    DeleteResponse,
    ErrorBody,
    IngestRequest,
    IngestResponse,
    ListResponse,
    MemoryItem,
    MetricHistory,
    MetricPoint,
    PatchRequest,
    SearchHitItem,
    SearchRequest,
)

if TYPE_CHECKING:
    from ..store import TieredMemoryStore

__all__ = ["create_app"]

_STATUS: tuple[tuple[type[Exception], int], ...] = (
    (MemoryWriteBlocked, 422),
    (EntryNotFound, 404),
    (IllegalTransition, 409),
    (InvalidInput, 422),
    (ConfigError, 400),
    (StoreError, 503),
    (EmbeddingError, 503),
    (TieredMemoryError, 400),
    (ValueError, 422),
)
_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody} for code in (401, 403, 404, 409, 413, 422)
}


def _fail(status: int, detail: dict[str, str]) -> HTTPException:
    """An HTTPException whose detail carries our error type and message."""
    return HTTPException(status, detail)  # type: ignore[arg-type]


def _item(e: MemoryEntry) -> MemoryItem:
    d = e.to_dict()
    return MemoryItem(**{k: d[k] for k in MemoryItem.model_fields})


def _version() -> str:
    try:
        return metadata.version("langchain-tiered-memory")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        from .. import __version__

        return __version__


def _no_constants(constant: str) -> Any:
    raise json.JSONDecodeError(f"{constant} is not a JSON number", constant, 0)


class _StrictJSONRequest(Request):
    """Parses the body as strict JSON: ``NaN`` and ``Infinity`` are malformed input (422)."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = json.loads(await self.body(), parse_constant=_no_constants)
        return self._json


class _StrictJSONRoute(APIRoute):
    def get_route_handler(self) -> Callable[[Request], Any]:
        handler = super().get_route_handler()

        async def strict(request: Request) -> Any:
            return await handler(_StrictJSONRequest(request.scope, request.receive))

        return strict


def _finite(value: Any) -> Any:
    """A JSON-safe copy (validation errors echo the input, which may hold NaN)."""
    return json.loads(json.dumps(value, default=str), parse_constant=str)


def create_app(
    store: "TieredMemoryStore",
    *,
    tokens: Mapping[str, str],
    max_body_bytes: int = 10_000_000,
    title: str = "tiered-memory",
    chat_model: BaseChatModel | None = None,
    system_prompt: str = "You are a helpful assistant.",
    scheduler: Any = None,
    warm: bool = True,
    llm: BaseChatModel | None = None,
) -> FastAPI:
    """Build the REST API over ``store``.

    Args:
        store: A `TieredMemoryStore`.
        tokens: Bearer token → the namespace it may use (``"*"``: all namespaces).
        max_body_bytes: Larger request bodies get 413.
        title: OpenAPI title.
        chat_model: Any LangChain chat model; with one, ``POST /api/chat`` is served.
        system_prompt: The chat model's instructions; the memory block follows them.
        scheduler: A `ConsolidationScheduler` for sessions ended through ``/api/chat``
            (without one, the consolidation job is recorded in the store for a worker).
        warm: Load the embedding model at start-up, not on the first request.
        llm: A chat model for fact extraction in ``POST /api/ingest`` (``tiered-memory serve
            --llm provider:model``); without one, or when it fails, the offline heuristics.
    """
    if not tokens:
        raise ConfigError("tokens", "create_app needs at least one token")
    token_map = dict(tokens)
    latency = LatencyRecorder()
    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        if warm:
            await asyncio.to_thread(store.embeddings.embed_query, "warm up")
        yield

    app = FastAPI(title=title, version=_version(), responses=_ERRORS, lifespan=lifespan,
                  docs_url=None, redoc_url=None)
    app.router.route_class = _StrictJSONRoute
    app.add_middleware(BodySizeLimit, max_bytes=max_body_bytes)
    mount_docs(app, title=title)

    def _body(status: int, error: str, message: str, **extra: Any) -> JSONResponse:
        headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
        return JSONResponse({"error": error, "message": message, **extra}, status, headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_r: Request, exc: RequestValidationError) -> JSONResponse:
        details = _finite(exc.errors())
        return _body(422, "ValidationError", "the request is malformed", details=details)

    @app.exception_handler(HTTPException)
    async def _http(_r: Request, exc: HTTPException) -> JSONResponse:
        detail = exc.detail if isinstance(exc.detail, dict) else {"message": str(exc.detail)}
        error = detail.pop("error", "HTTPError")
        return _body(exc.status_code, error, detail.pop("message", ""), **detail)

    async def _typed(_r: Request, exc: Exception) -> JSONResponse:
        for kind, status in _STATUS:
            if isinstance(exc, kind):
                info = describe(exc)
                return _body(status, info.pop("error"), info.pop("message"), **info)
        return _body(500, "InternalError", "unexpected server error")

    # Registered per class: a handler for bare Exception would run in Starlette's outermost
    # middleware, which re-raises after answering and drops the keep-alive connection.
    for kind in (TieredMemoryError, ValueError):
        app.add_exception_handler(kind, _typed)
    app.add_exception_handler(Exception, _typed)

    bearer = HTTPBearer(auto_error=False, description="A token given to `tiered-memory serve`.")

    def caller(
        credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
    ) -> str:
        token = credentials.credentials.strip() if credentials is not None else ""
        if token not in token_map:
            raise _fail(401, {"error": "Unauthorized",
                              "message": "a valid bearer token is required"})
        return token_map[token]

    Caller = Annotated[str, Depends(caller)]

    def scope(allowed: str, wanted: str | None) -> str:
        if wanted is None:
            if allowed == "*":
                raise _fail(422, {"error": "InvalidInput",
                                          "message": "namespace: required with this token"})
            return allowed
        if allowed not in ("*", wanted):
            raise _fail(403, {"error": "Forbidden",
                                      "message": f"this token may not use namespace {wanted!r}"})
        return wanted

    NsQuery = Annotated[str | None, Query(min_length=1, max_length=255)]

    @app.post("/api/memory/ingest", response_model=IngestResponse, tags=["memory"])
    def ingest(body: IngestRequest, who: Caller) -> IngestResponse:
        """Import chat history (one conversation, a whole export, or a transcript)."""
        ns = scope(who, body.namespace)
        given = [x for x in (body.messages, body.export, body.text) if x is not None]
        if len(given) != 1:
            raise InvalidInput("body", "give exactly one of messages, export, text")
        fmt = body.format
        # The body is read from memory: no temporary file holds a user's history.
        if body.messages is not None:
            payload = json.dumps({"messages": [m.model_dump() for m in body.messages]})
            name, fmt = "request.json", fmt or "json"
        elif body.text is not None:
            payload, name, fmt = body.text, "request.txt", fmt or "text"
        else:
            payload, name = json.dumps(body.export), "request.json"
        report = import_bytes(store, payload.encode("utf-8"), name=name, namespace=ns,
                              format=fmt, force=body.force, llm=llm,
                              confidence_threshold=body.confidence_threshold)
        d = report.to_dict()
        return IngestResponse(**{k: d[k] for k in IngestResponse.model_fields})

    @app.post("/api/memory/items", response_model=MemoryItem, status_code=201, tags=["memory"])
    def add_item(body: AddRequest, who: Caller) -> MemoryItem:
        """Add one memory, as stated by the user (scanned; refused → 422 with the reason)."""
        ns = scope(who, body.namespace)
        entry = store.add(body.content, namespace=ns, key=body.key, type=body.type,
                          tags=body.tags, importance=body.importance, pinned=body.pinned,
                          source=ProvenanceLevel.USER_STATED, path=WritePath.USER)
        return _item(entry)

    def chat(body: ChatRequest, who: Caller) -> ChatResponse:
        """One turn with the server's chat model; ``use_memory`` adds the memory block and
        records the turn in the session's working memory."""
        ns = scope(who, body.namespace)
        assert chat_model is not None  # the route exists only with a model
        started = time.perf_counter()
        turn = chat_turn(store, chat_model, namespace=ns, session_id=body.session_id,
                         message=body.message, use_memory=body.use_memory,
                         history=[(m.role, m.content) for m in body.history],
                         system_prompt=system_prompt, budget=body.budget,
                         scheduler=scheduler, end_session=body.end_session)
        if body.use_memory:
            latency.record(ns, (time.perf_counter() - started) * 1000)
        return ChatResponse(namespace=ns, session_id=body.session_id, reply=turn.reply,
                            memory=turn.memory, consolidation_job=turn.job_id)

    if chat_model is not None:  # advertised only when it can answer
        app.post("/api/chat", response_model=ChatResponse, tags=["chat"])(chat)

    @app.post("/api/memory/context", response_model=ContextResponse, tags=["memory"])
    def context(body: ContextRequest, who: Caller) -> ContextResponse:
        """The memory block to inject into a system prompt."""
        ns = scope(who, body.namespace)
        started = time.perf_counter()
        text = store.context(ns, body.query or None, budget=body.budget)
        latency.record(ns, (time.perf_counter() - started) * 1000)
        return ContextResponse(namespace=ns, context=text)

    @app.post("/api/memory/search", response_model=list[SearchHitItem], tags=["memory"])
    def search(body: SearchRequest, who: Caller) -> list[SearchHitItem]:
        """Hybrid recall."""
        ns = scope(who, body.namespace)
        started = time.perf_counter()
        hits = store.search(
            body.query, namespace=ns, k=body.k, mode=body.mode, history=body.history
        )
        latency.record(ns, (time.perf_counter() - started) * 1000)
        return [SearchHitItem(score=h.score, item=_item(h.entry)) for h in hits]

    @app.get("/api/memory/list", response_model=ListResponse, tags=["memory"])
    def list_items(
        who: Caller,
        namespace: NsQuery = None,
        tier: Literal["working", "episodic", "semantic", "archival"] | None = None,
        status: Literal["active", "pending", "rejected", "all"] = "active",
        limit: Annotated[int, Query(ge=1, le=1000)] = 100,
        offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
        history: Annotated[bool, Query(description="Include superseded versions.")] = False,
    ) -> ListResponse:
        """Memories of a namespace, newest first (the live version of each key, unless
        ``history``)."""
        ns = scope(who, namespace)
        entries = store.list(namespace=ns, tier=tier, limit=limit, offset=offset,
                             status=None if status == "all" else status,
                             include_superseded=history)
        return ListResponse(namespace=ns, items=[_item(e) for e in entries])

    @app.patch("/api/memory/items/{item_id}", response_model=MemoryItem, tags=["memory"])
    def patch_item(
        item_id: str, body: PatchRequest, who: Caller, namespace: NsQuery = None
    ) -> MemoryItem:
        """Edit, pin, approve or reject a memory."""
        ns = scope(who, namespace)
        entry = store.get(item_id, namespace=ns)
        if entry is None:
            raise EntryNotFound(item_id)
        if body.status == "active" and entry.status != "active":
            entry = store.approve(entry.id, namespace=ns, path=WritePath.USER)
        elif body.status == "rejected" and entry.status != "rejected":
            kept = store.reject(entry.id, namespace=ns, archive=True, path=WritePath.USER)
            if kept is None:  # archive=True keeps the entry; gone means another request won
                raise EntryNotFound(item_id)
            entry = kept
        if body.content is not None or body.tags is not None or body.importance is not None:
            # A user rewriting the text states it: the new version is USER_STATED.
            stated = ProvenanceLevel.USER_STATED if body.content is not None else None
            entry = store.update(entry.id, namespace=ns, content=body.content, tags=body.tags,
                                 importance=body.importance, source=stated, path=WritePath.USER)
        if body.pinned is not None and body.pinned != entry.pinned:
            entry = (store.pin if body.pinned else store.unpin)(entry.id, namespace=ns)
        return _item(entry)

    @app.delete("/api/memory/items/{item_id}", response_model=DeleteResponse, tags=["memory"])
    def delete_item(item_id: str, who: Caller, namespace: NsQuery = None) -> DeleteResponse:
        """Delete a memory for good (the audit log keeps its last value)."""
        ns = scope(who, namespace)
        store.delete(item_id, namespace=ns, path=WritePath.USER)
        return DeleteResponse(id=item_id, deleted=True)

    @app.get("/api/memory/metrics", tags=["metrics"])
    def metrics(who: Caller, namespace: NsQuery = None) -> dict[str, Any]:
        """Counts by tier/type/provenance/status, recall latency percentiles, blocked writes,
        pending reviews."""
        ns = scope(who, namespace)
        data = store.memory_stats(namespace=ns)
        data["recall_latency_ms"] = latency.percentiles(ns)
        return data

    @app.get("/api/memory/metrics/{metric_name}", response_model=MetricHistory, tags=["metrics"])
    def metric(metric_name: str, who: Caller, namespace: NsQuery = None) -> MetricHistory:
        """History of one metric: memory_count, blocked_writes, imports, recall_latency_ms."""
        ns = scope(who, namespace)
        if metric_name not in METRIC_NAMES:
            raise _fail(404, {"error": "UnknownMetric",
                                      "message": f"known metrics: {', '.join(METRIC_NAMES)}"})
        points = metric_history(store, ns, metric_name, latency)
        return MetricHistory(name=metric_name, namespace=ns,
                             points=[MetricPoint(**p) for p in points])

    app.state.store = store
    app.state.latency = latency
    return app
