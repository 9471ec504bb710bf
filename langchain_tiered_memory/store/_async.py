"""Facade plumbing: methods that forward to a service, and their async twins.

SQLite and the embedding model are blocking; running the sync core in the default executor keeps
one implementation and never blocks the event loop.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
from collections.abc import Callable, Coroutine
from typing import Any, Generic, ParamSpec, Protocol, TypeVar, overload

T = TypeVar("T")
S = TypeVar("S")
R = TypeVar("R")
P = ParamSpec("P")


async def run_sync(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run ``fn(*args, **kwargs)`` in the default executor, preserving context variables."""
    loop = asyncio.get_running_loop()
    ctx = contextvars.copy_context()
    return await loop.run_in_executor(None, functools.partial(ctx.run, fn, *args, **kwargs))


class HasServices(Protocol[S]):
    """A facade holding its services in ``_services``."""

    _services: S


class Forward(Generic[S, P, R]):
    """A facade method that is a service's method: same signature, same docstring.

    ``store.add`` is ``Writer.add`` bound to the store's writer, so `inspect.signature`, `help`
    and type checkers see the service's own signature.
    """

    def __init__(self, pick: Callable[[Any], S], method: Callable[..., R]) -> None:
        self._pick = pick
        self._method = method
        self.__doc__ = method.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = name

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> Forward[S, P, R]: ...

    @overload
    def __get__(self, obj: HasServices[Any], owner: type | None = None) -> Callable[P, R]: ...

    def __get__(self, obj: HasServices[Any] | None, owner: type | None = None) -> Any:
        if obj is None:
            return self
        return self._method.__get__(self._pick(obj._services))


class ForwardAsync(Generic[S, P, R]):
    """The async twin of a forwarded method: it runs the sync method in a worker thread."""

    def __init__(self, pick: Callable[[Any], S], method: Callable[..., R]) -> None:
        self._pick = pick
        self._method = method
        self.__doc__ = f"Async twin of `{method.__name__}` (runs it in a worker thread)."

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> ForwardAsync[S, P, R]: ...

    @overload
    def __get__(
        self, obj: HasServices[Any], owner: type | None = None
    ) -> Callable[P, Coroutine[Any, Any, R]]: ...

    def __get__(self, obj: HasServices[Any] | None, owner: type | None = None) -> Any:
        if obj is None:
            return self
        bound = self._method.__get__(self._pick(obj._services))

        @functools.wraps(bound)
        async def twin(*args: Any, **kwargs: Any) -> Any:
            return await run_sync(bound, *args, **kwargs)

        twin.__doc__ = self.__doc__
        return twin
