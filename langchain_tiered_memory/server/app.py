"""The FastAPI application: the seed's memory endpoints over one `TieredMemoryStore`.

Auth is a bearer token per namespace (``tokens={"secret": "alice"}``; ``"*"`` reaches every
namespace): no or unknown token → 401, another namespace → 403. Bodies above ``max_body_bytes``
get 413 before anything is read into the store. Errors are JSON ``{"error", "message", ...}``:
`MemoryWriteBlocked` → 422 with its reason, `EntryNotFound` → 404, `IllegalTransition` → 409,
invalid input → 422, a failing database → 503. Writes made with a user token go through the
USER write path; imports through the IMPORT path.
"""


import json
import os
import tempfile
import time
from collections.abc import Mapping
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
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
from ..provenance import WritePath
from ..types import MemoryEntry, ProvenanceLevel
from .limits import BodySizeLimit
from .metrics import METRIC_NAMES, LatencyRecorder, metric_history
from .models import (
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
    (ValueError, 400),
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


def create_app(
    store: Any,
    *,
    tokens: Mapping[str, str],
    max_body_bytes: int = 10_000_000,
    title: str = "tiered-memory",
) -> FastAPI:
    """Build the REST API over ``store``.

    Args:
        store: A `TieredMemoryStore`.
        tokens: Bearer token → the namespace it may use (``"*"``: all namespaces).
        max_body_bytes: Larger request bodies get 413.
        title: OpenAPI title.
    """
    if not tokens:
        raise ValueError("create_app needs at least one token")
    token_map = dict(tokens)
    latency = LatencyRecorder()
    app = FastAPI(title=title, version="1", responses=_ERRORS)
    app.add_middleware(BodySizeLimit, max_bytes=max_body_bytes)

    def _body(status: int, error: str, message: str, **extra: Any) -> JSONResponse:
        headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
        return JSONResponse({"error": error, "message": message, **extra}, status, headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_r: Request, exc: RequestValidationError) -> JSONResponse:
        details = json.loads(json.dumps(exc.errors(), default=str))
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

    def caller(authorization: Annotated[str | None, Header()] = None) -> str:
        scheme, _, token = (authorization or "").partition(" ")
        if scheme.lower() != "bearer" or token.strip() not in token_map:
            raise _fail(401, {"error": "Unauthorized",
                                      "message": "a valid bearer token is required"})
        return token_map[token.strip()]

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
        suffix, fmt = ".json", body.format
        if body.messages is not None:
            payload = json.dumps({"messages": [m.model_dump() for m in body.messages]})
            fmt = fmt or "json"
        elif body.text is not None:
            payload, suffix, fmt = body.text, ".txt", fmt or "text"
        else:
            payload = json.dumps(body.export)
        fd, tmp = tempfile.mkstemp(prefix="ingest-", suffix=suffix)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(payload)
            report = store.import_file(tmp, namespace=ns, format=fmt, force=body.force,
                                       confidence_threshold=body.confidence_threshold)
        finally:
            os.unlink(tmp)
        d = report.to_dict()
        return IngestResponse(**{k: d[k] for k in IngestResponse.model_fields})

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
        hits = store.search(body.query, namespace=ns, k=body.k, mode=body.mode)
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
            entry = store.reject(entry.id, namespace=ns, archive=True, path=WritePath.USER)
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
