"""The export-format registry: each format's name, aliases, sniffer and converter, in one place.

Adding a format is one module (its converter) and one registration::

    register_format(ExportFormat("slack", convert=slack_conversation, aliases=("slack-export",),
                                 sniff=lambda head: '"client_msg_id"' in head, priority=35))

A format gives either ``convert`` (one parsed JSON conversation → `Conversation`; the reader
streams the JSON array, wrapper object or single object around it) or ``read`` (the whole source
→ conversations, for line formats such as JSONL and text). The importer, the CLI's ``--format``
choices and the REST request model all read the names from here.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from langchain_tiered_memory.errors import InvalidInput
from langchain_tiered_memory.ingest.messages import Conversation, ParseReport

__all__ = [
    "Converter",
    "ExportFormat",
    "ExportSource",
    "FormatRegistry",
    "Reader",
]

_HEAD_BYTES = 64 * 1024

Converter = Callable[[Any, int, ParseReport], Conversation]
"""One parsed JSON conversation (with its position in the file) → a `Conversation`."""


class ExportSource:
    """An export to read: a file, or bytes held in memory (a request body), opened as often as a
    reader needs.

    Args:
        data: A path, or the export's bytes.
        name: The name for bytes (conversation ids of line formats derive from its stem).
    """

    def __init__(self, data: str | os.PathLike[str] | bytes, *, name: str = "export") -> None:
        self._bytes = data if isinstance(data, bytes) else None
        self._path = None if isinstance(data, bytes) else Path(data)
        self.name = str(self._path) if self._path is not None else name
        self.stem = self._path.stem if self._path is not None else Path(name).stem

    @property
    def size(self) -> int:
        """Size in bytes."""
        if self._bytes is not None:
            return len(self._bytes)
        assert self._path is not None
        return os.path.getsize(self._path)

    def open_binary(self) -> IO[bytes]:
        """A fresh binary stream from the start."""
        if self._bytes is not None:
            return io.BytesIO(self._bytes)
        assert self._path is not None
        return open(self._path, "rb")

    def open_text(self) -> IO[str]:
        """A fresh text stream (UTF-8, BOM dropped, undecodable bytes replaced)."""
        return io.TextIOWrapper(self.open_binary(), encoding="utf-8-sig", errors="replace")

    def head(self) -> str:
        """The first 64 KiB as text, BOM dropped (what sniffers look at)."""
        with self.open_binary() as fh:
            raw = fh.read(_HEAD_BYTES)
        return raw.decode("utf-8", errors="ignore").lstrip("\ufeff")


Reader = Callable[[ExportSource, ParseReport, int], Iterator[Conversation]]
"""A whole source (with the report and the JSON depth limit) → its conversations."""


@dataclass(frozen=True, slots=True)
class ExportFormat:
    """One export format.

    Attributes:
        name: The canonical name (``--format``, ``"format"`` in the REST body, the report).
        convert: One parsed JSON conversation → `Conversation` (JSON formats).
        read: The whole source → conversations (line formats); used instead of ``convert``.
        aliases: Other names accepted for it (``openai`` for ``chatgpt``).
        sniff: True when the head of a file (first 64 KiB, leading blanks kept) is this format.
        priority: Sniffers run in ascending priority; the first that says yes wins. Of the
            built-in formats, ``text`` (0) takes every head that does not open with ``[`` or
            ``{`` and ``json`` (100) every other: a new line format needs a priority below 0,
            a new JSON format one below 100.
        description: One line for help texts.
    """

    name: str
    convert: Converter | None = None
    read: Reader | None = None
    aliases: tuple[str, ...] = ()
    sniff: Callable[[str], bool] | None = None
    priority: int = 50
    description: str = ""

    def __post_init__(self) -> None:
        if (self.convert is None) == (self.read is None):
            raise InvalidInput("format", f"{self.name!r} needs exactly one of convert and read")


class FormatRegistry:
    """Export formats by name and alias, and the sniffing order.

    Args:
        formats: The formats to start with.
    """

    def __init__(self, formats: tuple[ExportFormat, ...] = ()) -> None:
        self._formats: dict[str, ExportFormat] = {}
        self._aliases: dict[str, str] = {}
        for fmt in formats:
            self.register(fmt)

    def register(self, fmt: ExportFormat, *, replace: bool = False) -> None:
        """Add a format (``replace``: allow taking over a name or alias already in use).

        Raises:
            InvalidInput: The name or an alias is taken (and not ``replace``), or empty.
        """
        names = [_norm(fmt.name), *(_norm(a) for a in fmt.aliases)]
        if not all(names):
            raise InvalidInput("format", "a format name or alias is empty")
        taken = [n for n in names if n in self._formats or n in self._aliases]
        if taken and not replace:
            raise InvalidInput("format", f"format name {taken[0]!r} is already registered")
        for n in names:
            self._aliases.pop(n, None)
        self._formats[names[0]] = fmt
        for alias in names[1:]:
            self._aliases[alias] = names[0]

    def remove(self, name: str) -> ExportFormat:
        """Take a format (by name or alias) and its aliases out of the registry.

        Raises:
            InvalidInput: No such format.
        """
        fmt = self.get(name)
        del self._formats[_norm(fmt.name)]
        self._aliases = {a: n for a, n in self._aliases.items() if n != _norm(fmt.name)}
        return fmt

    def names(self) -> tuple[str, ...]:
        """Canonical names, in registration order."""
        return tuple(self._formats)

    def get(self, name: str) -> ExportFormat:
        """The format called ``name`` (or one of its aliases), case-insensitively.

        Raises:
            InvalidInput: No such format (the message lists the known ones).
        """
        key = _norm(name)
        fmt = self._formats.get(self._aliases.get(key, key))
        if fmt is None:
            raise InvalidInput(
                "format",
                f"unknown export format {name!r}; expected one of {', '.join(self.names())}",
            )
        return fmt

    def sniff(self, head: str) -> str:
        """The name of the first format (by priority) whose sniffer accepts ``head``;
        ``"empty"`` for a blank head, the last format by priority when none says yes."""
        if not head.strip():
            return "empty"
        ordered = sorted(self._formats.values(), key=lambda f: f.priority)
        if not ordered:
            raise InvalidInput("format", "no export format is registered")
        for fmt in ordered:
            if fmt.sniff is not None and fmt.sniff(head):
                return fmt.name
        return ordered[-1].name


def _norm(name: str) -> str:
    return name.strip().lower()
