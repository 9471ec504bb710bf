"""Async twins of every I/O method: the same core, run in a worker thread.

SQLite and the embedding model are blocking; running the sync core in the default executor keeps
one implementation and never blocks the event loop.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


async def run_sync(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run ``fn(*args, **kwargs)`` in the default executor, preserving context variables."""
    loop = asyncio.get_running_loop()
    import contextvars

    ctx = contextvars.copy_context()
    return await loop.run_in_executor(None, functools.partial(ctx.run, fn, *args, **kwargs))


def async_twin(name: str, doc: str | None = None) -> Any:
    """Build ``a<name>``: an async method that runs the sync method ``name`` off the event loop."""

    async def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        return await run_sync(getattr(self, name), *args, **kwargs)

    method.__name__ = f"a{name}"
    method.__qualname__ = f"TieredMemoryStore.a{name}"
    method.__doc__ = doc or f"Async twin of `{name}` (runs it in a worker thread)."
    return method
