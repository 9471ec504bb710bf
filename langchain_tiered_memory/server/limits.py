"""Request size limit, enforced while the body streams in (Content-Length or chunked)."""

from __future__ import annotations

import contextlib
import json
from typing import Any

from ..errors import TieredMemoryError

__all__ = ["BodySizeLimit"]


class _TooLarge(TieredMemoryError):
    pass


class BodySizeLimit:
    """ASGI middleware: a body above ``max_bytes`` gets 413 before the endpoint runs."""

    def __init__(self, app: Any, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    too_big = int(value) > self.max_bytes
                except ValueError:
                    too_big = True
                if too_big:
                    await self._reject(send)
                    return
        seen = 0
        started = rejected = False

        async def limited() -> Any:
            nonlocal seen, rejected
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    # Answer now: the app may catch the error below as a parse failure.
                    if not started and not rejected:
                        rejected = True
                        await self._reject(send)
                    raise _TooLarge
            return message

        async def tracking_send(message: Any) -> None:
            nonlocal started
            if rejected:
                return  # the 413 was already sent; whatever the app answers is dropped
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        with contextlib.suppress(_TooLarge):
            await self.app(scope, limited, tracking_send)

    async def _reject(self, send: Any) -> None:
        body = json.dumps({"error": "PayloadTooLarge",
                           "message": f"request body exceeds {self.max_bytes} bytes"}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
