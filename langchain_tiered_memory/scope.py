"""Whose memory an agent run reads and writes, and which session it belongs to.

LangGraph hands a run two places for such values: the runtime ``context`` (``create_agent(...,
context_schema=Ctx)`` invoked with ``context=Ctx(user_id="carol")``) and the config's
``configurable`` mapping. A namespace is fixed (``"alice"``), a template filled from both, the
context first (``"user.{user_id}"``, or a tuple of labels joined with ``.``), or a function of the
context. A session is the context's or configurable's ``session_id``, else the ``thread_id``.
"""

from __future__ import annotations

import dataclasses
import string
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .errors import InvalidInput

__all__ = [
    "NamespaceSource",
    "context_fields",
    "current_run",
    "namespace_in_run",
    "resolve_namespace",
    "resolve_session",
    "runtime_namespace",
]

NamespaceSource = str | Sequence[str] | Callable[[Any], str] | None
"""A fixed namespace, a template over the run's context and ``configurable``, a function of the
runtime context, or None (``{namespace}``, else ``{user_id}``, else ``"default"``)."""

_FORMATTER = string.Formatter()


def context_fields(context: Any) -> dict[str, Any]:
    """The fields of a runtime context: a dataclass, a pydantic model, a mapping or an object."""
    if context is None:
        return {}
    if isinstance(context, Mapping):
        return dict(context)
    if dataclasses.is_dataclass(context) and not isinstance(context, type):
        return {f.name: getattr(context, f.name) for f in dataclasses.fields(context)}
    dump = getattr(context, "model_dump", None)
    if callable(dump):
        return dict(dump())
    if hasattr(context, "__dict__"):
        return {k: v for k, v in vars(context).items() if not k.startswith("_")}
    return {}


def _values(context: Any, config: Mapping[str, Any] | None) -> dict[str, Any]:
    configurable = dict((config or {}).get("configurable") or {})
    return {**configurable, **context_fields(context)}


def resolve_namespace(
    spec: NamespaceSource, context: Any = None, config: Mapping[str, Any] | None = None
) -> str:
    """The store namespace ``spec`` names for a run with this runtime context and config.

    Raises:
        InvalidInput: A template names a field neither the context nor ``configurable`` has, or
            the result is empty.
    """
    values = _values(context, config)
    if spec is None:
        for name in ("namespace", "user_id"):
            value = values.get(name)
            if isinstance(value, str) and value:
                return value
        return "default"
    if callable(spec):
        namespace = str(spec(context))
    else:
        labels = [spec] if isinstance(spec, str) else list(spec)
        missing = [
            field
            for label in labels
            for _, field, _, _ in _FORMATTER.parse(label)
            if field and field not in values
        ]
        if missing:
            raise InvalidInput(
                "namespace",
                f"{spec!r} needs {missing[0]!r} in the runtime context "
                "(context_schema) or in config['configurable']",
            )
        namespace = ".".join(label.format(**values) for label in labels)
    if not namespace:
        raise InvalidInput("namespace", f"{spec!r} gave an empty namespace")
    return namespace


def resolve_session(context: Any = None, config: Mapping[str, Any] | None = None) -> str:
    """The session of a run: ``session_id`` (context, then configurable), else ``thread_id``."""
    values = _values(context, config)
    for name in ("session_id", "thread_id"):
        value = values.get(name)
        if value not in (None, ""):
            return str(value)
    return "default"


def current_run() -> tuple[Any, Mapping[str, Any]]:
    """The runtime context and config of the LangGraph run this code executes in.

    Outside a run (a plain function call), both are empty.
    """
    # Imported here, not above: the store imports `context`, which imports this module, and a
    # command-line search must not pay for loading LangGraph's runtime.
    from langgraph.config import get_config
    from langgraph.runtime import get_runtime

    try:
        config = get_config()
    except RuntimeError:
        return None, {}
    try:
        runtime = get_runtime()
    except (RuntimeError, KeyError):
        runtime = None
    return getattr(runtime, "context", None), config


def namespace_in_run(spec: NamespaceSource, config: Mapping[str, Any] | None = None) -> str:
    """The namespace ``spec`` names inside the LangGraph run this code executes in.

    The runtime context comes first, then ``configurable``: the run's, overridden by ``config``'s
    (the config a tool was invoked with). Outside a run only ``config`` counts.
    """
    context, current = current_run()
    configurable = {
        **dict(current.get("configurable") or {}),
        **dict((config or {}).get("configurable") or {}),
    }
    return resolve_namespace(spec, context, {"configurable": configurable})


def runtime_namespace(spec: NamespaceSource) -> Callable[[Mapping[str, Any]], str]:
    """A namespace function of the run's config that also reads the runtime context.

    `create_memory_tools` templates already do this; the function form suits code that takes a
    callable, or a spec of None (``{namespace}``, else ``{user_id}``, else ``"default"``).

    Example:
        >>> tools = create_memory_tools(store, namespace=runtime_namespace(None))  # doctest: +SKIP
        >>> agent.invoke(inputs, context=Ctx(user_id="carol"))  # doctest: +SKIP
    """

    def namespace(config: Mapping[str, Any]) -> str:
        return namespace_in_run(spec, config)

    return namespace
