"""Helpers of the `tiered-memory` command: opening the store, printing, and error handling."""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import re
import shutil
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
import typer
from langchain_core.embeddings import Embeddings

if TYPE_CHECKING:
    from .store import TieredMemoryStore
    from .types import MemoryEntry


_CLI_ENV = frozenset({
    "TIERED_MEMORY_DB", "TIERED_MEMORY_DEBUG", "TIERED_MEMORY_EMBEDDINGS", "TIERED_MEMORY_TOKENS",
    "TIERED_MEMORY_CHAT_MODEL", "TIERED_MEMORY_LLM",
})
_TIERS = ("working", "episodic", "semantic", "archival")
_STATUSES = ("active", "pending", "rejected", "all")


class HashingEmbeddings(Embeddings):
    """Hashed bag of words, 256 dimensions: instant and deterministic (tests and demos only)."""

    model_id = "tiered-memory/hash-256"

    def _one(self, text: str) -> list[float]:
        import numpy as np

        v = np.zeros(256, dtype=np.float32)
        for word in re.findall(r"\w+", text.lower()):
            v[int.from_bytes(hashlib.blake2b(word.encode(), digest_size=4).digest(), "little")
              % 256] += 1.0
        norm = float(np.linalg.norm(v))
        if norm == 0:
            v[0], norm = 1.0, 1.0
        return (v / norm).tolist()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._one(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._one(text)


def default_db() -> str:
    """``$TIERED_MEMORY_DB``, else ``~/.local/share/tiered-memory/memory.db`` (created)."""
    env = os.environ.get("TIERED_MEMORY_DB")
    if env:
        return env
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    folder = base / "tiered-memory"
    folder.mkdir(parents=True, exist_ok=True)
    return str(folder / "memory.db")


def open_store(db: str | None = None, embeddings: str | None = None) -> TieredMemoryStore:
    """Open the store the CLI works on (see the module docstring for the defaults)."""
    from .config import MemoryConfig
    from .store import TieredMemoryStore

    url = db or default_db()
    if "://" not in url:
        Path(url).expanduser().parent.mkdir(parents=True, exist_ok=True)
        url = str(Path(url).expanduser())
    kind = (embeddings or os.environ.get("TIERED_MEMORY_EMBEDDINGS") or "minilm").lower()
    if kind not in ("minilm", "hash"):
        raise typer.BadParameter(f"--embeddings must be minilm or hash, not {kind!r}")
    # The CLI's own variables share the TIERED_MEMORY_ prefix; the rest configure the store.
    config = MemoryConfig.from_env({k: v for k, v in os.environ.items() if k not in _CLI_ENV})
    if kind == "minilm":
        # Loading the model draws a tqdm bar on stderr at every command; a CLI answer is enough.
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    from .minilm import QuickQueryEmbeddings

    # A query is embedded without torch (numpy on the same weights): a `search` answers in a
    # fraction of the time; the full model loads only when documents are embedded.
    emb: Embeddings = HashingEmbeddings() if kind == "hash" else QuickQueryEmbeddings()
    return TieredMemoryStore(url, embeddings=emb, config=config)


@contextmanager
def _opened(db: str | None, embeddings: str | None) -> Iterator[TieredMemoryStore]:
    store = open_store(db, embeddings)
    try:
        yield store
    finally:
        store.close()


# -- output helpers ---------------------------------------------------------------------------


def _console(*, stderr: bool = False) -> Any:
    from rich.console import Console

    # Messages on stderr are single lines for logs and grep; the terminal wraps them.
    return Console(highlight=False, soft_wrap=stderr, stderr=stderr,
                   width=max(100, shutil.get_terminal_size()[0]))


def _esc(text: object) -> str:
    """Stored text as literal rich markup: a memory saying ``[/bold]`` must not crash a table."""
    from rich.markup import escape

    return escape(str(text))


def _emit_json(data: Any) -> None:
    typer.echo(json.dumps(data, ensure_ascii=False, default=str, indent=2))


_TIER_STYLE = {"working": "cyan", "episodic": "magenta", "semantic": "green", "archival": "dim"}


def short_id(entry_id: str) -> str:
    """The id as tables show it: its last 8 characters.

    Not its first 8: an id's first 32 bits hash its namespace (`types.new_id`), so every entry of
    a namespace shares them; its tail is random.
    """
    return entry_id[-8:]


def _status(e: MemoryEntry) -> str:
    # A replaced version is still "active" in storage; what a reader needs is that it was replaced.
    if e.superseded_by:
        return f"[dim]superseded by {short_id(e.superseded_by)}[/]"
    return e.status if e.status == "active" else f"[red]{_esc(e.status)}[/]"


def _entries_table(entries: list[MemoryEntry], title: str, scores: list[float] | None = None) -> Any:
    from rich.table import Table

    table = Table(title=title, show_lines=False, header_style="bold")
    if scores is not None:
        table.add_column("score", justify="right", style="yellow")
    for col in ("id", "tier", "type", "key", "content", "source", "status"):
        table.add_column(col, overflow="fold", style="bold" if col == "content" else None)
    for i, e in enumerate(entries):
        row = [
            short_id(e.id),
            f"[{_TIER_STYLE.get(e.tier.value, '')}]{e.tier.value}[/]",
            e.type.value,
            _esc(e.key if len(e.key) < 40 else e.key[:37] + "..."),
            ("📌 " if e.pinned else "") + _esc(e.content),
            e.source.label,
            _status(e),
        ]
        if scores is not None:
            row.insert(0, f"{scores[i]:.3f}")
        table.add_row(*row)
    return table


@contextmanager
def _errors(as_json: bool) -> Iterator[None]:
    """Errors become one red line on stderr (or a JSON object on stdout) and exit code 1.

    Typed library errors print as they are; anything else (a bad database URL the driver
    rejects, a bug) is labelled unexpected, and ``TIERED_MEMORY_DEBUG=1`` shows its traceback.
    """
    from .errors import TieredMemoryError, describe

    try:
        yield
    except (typer.Exit, typer.Abort, KeyboardInterrupt, click.ClickException):
        raise  # exits, and usage errors Typer prints itself
    except Exception as exc:
        expected = isinstance(exc, TieredMemoryError | OSError | ValueError)
        if not expected and os.environ.get("TIERED_MEMORY_DEBUG"):
            raise
        if as_json:
            _emit_json(describe(exc))
        else:
            hint = "" if expected else " (unexpected; TIERED_MEMORY_DEBUG=1 shows the traceback)"
            _console(stderr=True).print(
                f"[bold red]error:[/] {type(exc).__name__}: {_esc(exc)}{_esc(hint)}")
        raise typer.Exit(1) from None


def _resolve(store: TieredMemoryStore, entry_id: str, namespace: str) -> str:
    """Accept a full id, or a unique part of at least 4 characters at its end (as tables show it)
    or at its start."""
    from .errors import EntryNotFound, InvalidInput

    if store.get(entry_id, namespace=namespace) is not None:
        return entry_id
    if len(entry_id) < 4:
        raise EntryNotFound(entry_id)
    found = [e.id for e in store.list(namespace=namespace, status=None)
             if e.id.endswith(entry_id) or e.id.startswith(entry_id)]
    if len(found) > 1:
        raise InvalidInput("entry_id", f"{entry_id!r} matches {len(found)} memories in "
                                       f"{namespace!r}; give more of the id")
    if found:
        return found[0]
    raise EntryNotFound(entry_id)


# -- commands ---------------------------------------------------------------------------------


# -- serve --------------------------------------------------------------------------------------


def require_extra(module: str, extra: str, feature: str) -> Any:
    """Import an optional dependency, or stop with the pip command that installs it."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise typer.BadParameter(
            f"{feature} needs the '{extra}' extra ({module} is not installed): "
            f"pip install 'langchain-tiered-memory[{extra}]'"
        ) from None


def read_tokens(given: list[str], path: Path | None, env: str) -> dict[str, str]:
    """Bearer tokens from ``--token`` pairs, a token file (one pair a line) and the environment.

    Raises:
        typer.BadParameter: A malformed pair, or no token at all.
    """
    pairs = list(given)
    if path is not None:
        lines = path.read_text(encoding="utf-8").splitlines()
        pairs += [line for line in lines if line.strip() and not line.lstrip().startswith("#")]
    pairs += [p for p in env.split(",") if p.strip()]
    tokens: dict[str, str] = {}
    for pair in pairs:
        tok, sep, ns = pair.partition("=")
        if not sep or not tok.strip() or not ns.strip():
            # The pair holds a secret: name its position, never its text.
            raise typer.BadParameter("a token must be TOKEN=NAMESPACE (one is not)")
        tokens[tok.strip()] = ns.strip()
    if not tokens:
        raise typer.BadParameter(
            "no token: set TIERED_MEMORY_TOKENS=TOKEN=NAMESPACE[,...] or give --token-file"
        )
    return tokens


def load_chat_model(spec: str) -> Any:
    """A chat model from ``provider:model`` (langchain's ``init_chat_model``)."""
    chat_models = require_extra("langchain.chat_models", "langchain", "--chat-model")
    try:
        return chat_models.init_chat_model(spec)
    except (ImportError, ValueError) as exc:
        raise typer.BadParameter(f"--chat-model {spec!r}: {exc}") from None


def consolidation_model(spec: str | None) -> Any:
    """The chat model of ``--llm provider:model`` (or ``TIERED_MEMORY_LLM``), else None.

    It extracts facts, writes summaries and checks contradictions during import and
    consolidation. A model that cannot be built (unknown provider, its package not installed, no
    credentials) is no reason to stop an import: the offline heuristics take over, with a warning
    on stderr. A model that fails later falls back to them call by call.
    """
    spec = spec or os.environ.get("TIERED_MEMORY_LLM") or None
    if spec is None:
        return None
    try:
        # Looked up on each call: tests replace ``init_chat_model`` with one giving a fake model.
        chat_models = importlib.import_module("langchain.chat_models")
        return chat_models.init_chat_model(spec)
    except Exception as exc:  # any failure to build the model means "no model", never a crash
        _console(stderr=True).print(
            f"[yellow]warning:[/] --llm {_esc(spec)} is not usable ({_esc(exc)}); "
            "using the offline heuristics"
        )
        return None


def use_model(store: TieredMemoryStore, model: Any) -> None:
    """Let the store's on-write contradiction checks ask ``model`` (heuristics when it fails)."""
    if model is not None:
        from .contradiction import LLMVerifier

        store.contradiction_verifier = LLMVerifier(model, config=store.config)


def stop_now(store: TieredMemoryStore) -> None:
    """Close the store and end the process, even if a request thread is still importing.

    The server's worker threads are not daemons: after a stop signal, an import in flight would
    keep the process alive for as long as it runs. Its transaction is simply never committed.
    """
    import threading

    busy = [t for t in threading.enumerate() if t is not threading.main_thread() and not t.daemon]
    store.close()
    if busy:
        sys.stderr.write("stopped: a request in flight was abandoned (nothing of it was written)\n")
        sys.stderr.flush()
        os._exit(0)


# -- import progress ----------------------------------------------------------------------------


class FileProgress:
    """A progress bar over the bytes of a file the importer is reading, refreshed 4× a second.

    The importer reports conversations and messages per batch; how far into the file it is comes
    from the read position of its open file (Linux ``/proc/self/fdinfo``), polled by a thread.
    Where that is not readable the bar shows the counts and the elapsed time only.
    """

    def __init__(self, path: Path, *, console: Any) -> None:
        from rich.progress import (
            BarColumn,
            DownloadColumn,
            Progress,
            SpinnerColumn,
            TextColumn,
            TimeElapsedColumn,
        )

        self.path = Path(path).resolve()
        self.total = self.path.stat().st_size
        self._bar = Progress(
            SpinnerColumn(), TextColumn("[bold]importing[/] {task.description}"), BarColumn(),
            DownloadColumn(), TextColumn("{task.fields[counts]}"), TimeElapsedColumn(),
            console=console, transient=True, disable=not console.is_terminal,
            refresh_per_second=4,
        )
        self._task = self._bar.add_task(_esc(self.path.name), total=self.total, counts="")
        self._stop = threading.Event()
        self._poller = threading.Thread(target=self._poll, name="import-progress", daemon=True)

    def __enter__(self) -> FileProgress:
        self._bar.__enter__()
        self._poller.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._poller.join(timeout=1)
        self._bar.__exit__(None, None, None)

    def counts(self, text: str) -> None:
        """Show the importer's latest counts."""
        self._bar.update(self._task, counts=text)

    def position(self) -> int | None:
        """Bytes of the file read so far by this process, or None when it cannot be seen."""
        fd_dir = Path("/proc/self/fd")
        try:
            for fd in os.listdir(fd_dir):
                try:
                    if Path(os.readlink(fd_dir / fd)) != self.path:
                        continue
                    info = (Path("/proc/self/fdinfo") / fd).read_text()
                except OSError:
                    continue
                for line in info.splitlines():
                    if line.startswith("pos:"):
                        return int(line.split()[1])
        except OSError:
            return None
        return None

    def _poll(self) -> None:
        while not self._stop.wait(0.25):
            pos = self.position()
            if pos is not None:
                self._bar.update(self._task, completed=min(pos, self.total))
