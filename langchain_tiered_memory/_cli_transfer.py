"""`tiered-memory` commands that move data in and out: import, export, import-jsonl, serve."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ._cli_options import Db, Emb, Json, Llm, Ns, NsAll
from ._cli_support import (
    FileProgress,
    _console,
    _emit_json,
    _errors,
    _esc,
    _opened,
    consolidation_model,
    load_chat_model,
    open_store,
    read_tokens,
    require_extra,
    stop_now,
    use_model,
)
from .errors import InvalidInput
from .ingest.reader import format_names

if TYPE_CHECKING:
    from .store import TieredMemoryStore

__all__ = ["export", "import_cmd", "import_jsonl", "serve"]


def _failed(stats: Mapping[str, Any]) -> bool:
    """An import that read nothing, hit problems or stopped early, and nobody accepted."""
    if stats.get("accepted_problems"):
        return False
    return bool(stats.get("problems")) or bool(stats.get("truncated")) or not stats.get(
        "conversations"
    )


def import_cmd(
    path: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="Export file.")],
    db: Db = None,
    namespace: Ns = "default",
    format: Annotated[str | None, typer.Option(
        help=f"Force a format: {', '.join(format_names())} (default: sniffed).")] = None,
    threshold: Annotated[
        float | None, typer.Option(min=0.0, max=1.0,
                                   help="Confidence for auto-approval (default from config).")
    ] = None,
    force: Annotated[bool, typer.Option(help="Import again even if already imported.")] = False,
    allow_problems: Annotated[bool, typer.Option(
        help="Accept a partial import (bad conversations, a truncated file): exit 0 and "
             "record the file as imported.")] = False,
    as_json: Json = False,
    embeddings: Emb = None,
    llm: Llm = None,
) -> None:
    """Import a chat export (ChatGPT, Claude, Gemini, JSON, JSONL, text) into memory.

    A file that could not be read, or only in part, exits with code 1 and is not taken as
    imported: run the command again once it is fixed (or with --allow-problems).
    """
    from .importer import ImportProgress, report_lines
    from .ingest import file_sha256

    model = consolidation_model(llm)
    with _errors(as_json), _opened(db, embeddings) as store:
        use_model(store, model)
        previous = store.get_source(file_sha256(path), namespace=namespace)
        # A recorded import that failed is no reason to skip the file now.
        retry = force or (previous is not None and _failed(previous.stats))
        if as_json:
            report = store.import_file(path, namespace=namespace, format=format, llm=model,
                                       confidence_threshold=threshold, force=retry)
        else:
            console = _console()
            with FileProgress(path, console=console) as bar:

                def tick(p: ImportProgress) -> None:
                    bar.counts(f"{p.conversations} conversations, {p.messages} messages")

                report = store.import_file(path, namespace=namespace, format=format,
                                           llm=model, confidence_threshold=threshold,
                                           progress=tick, force=retry)
        stats = report.to_dict()
        failed = not report.skipped and _failed(stats)
        if failed and allow_problems and report.conversations:
            # Accepted as it is: later runs skip the file like any other import.
            source = store.get_source(report.sha256, namespace=namespace)
            if source is not None:
                store.record_source(namespace=namespace, sha256=report.sha256,
                                    platform=source.platform, filename=source.filename,
                                    stats={**source.stats, "accepted_problems": True})
            failed = False
        if as_json:
            _emit_json({**stats, "failed": failed})
        else:
            colour = "yellow" if report.skipped else ("red" if failed else "green")
            for i, line in enumerate(report_lines(report)):
                console.print(f"[{colour}]{_esc(line)}[/]" if i == 0 else line, markup=i == 0)
            if failed:
                _console(stderr=True).print(
                    "[red]not imported as a whole:[/] fix the file and run the command again "
                    "(or pass --allow-problems to keep what was read)")
        if failed:
            raise typer.Exit(1)


def export(
    output: Annotated[Path | None, typer.Argument(
        dir_okay=False, help="File to write (default: stdout).")] = None,
    db: Db = None,
    namespace: NsAll = None,
    output_opt: Annotated[Path | None, typer.Option(
        "--output", "-o", dir_okay=False, help="Same as the OUTPUT argument.")] = None,
    embeddings: Emb = None,
) -> None:
    """Write a lossless JSONL dump: every version, episode, vector, source and audit row."""
    target = output or output_opt
    with _errors(False), _opened(db, embeddings) as store:
        out = open(target, "w", encoding="utf-8") if target else sys.stdout  # noqa: SIM115
        try:
            n = 0
            for record in store.export_records(namespace=namespace):
                out.write(json.dumps(_readable(record), ensure_ascii=False, default=str) + "\n")
                n += 1
        finally:
            if target:
                out.close()
        if target:
            _console(stderr=True).print(f"[green]wrote {n} records to {_esc(target)}[/]")


def _readable(record: dict[str, Any]) -> dict[str, Any]:
    """Tags as a JSON list in the dump, not the column's JSON-encoded string."""
    tags = record.get("tags")
    if record.get("record") == "memory" and isinstance(tags, str):
        try:
            return {**record, "tags": json.loads(tags)}
        except json.JSONDecodeError:
            return record
    return record


def _stored(record: dict[str, Any]) -> dict[str, Any]:
    tags = record.get("tags")
    if record.get("record") == "memory" and isinstance(tags, list):
        # The column's own encoding (compact), so a round trip is byte-identical.
        return {**record, "tags": json.dumps(tags, ensure_ascii=False, separators=(",", ":"))}
    return record


def import_jsonl(
    path: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="A dump.")],
    db: Db = None,
    as_json: Json = False,
    embeddings: Emb = None,
) -> None:
    """Load a dump written by `export` (ids, versions, timestamps kept; contents scanned).

    A dump whose memories are already in the store is reported and nothing is written.
    """
    with _errors(as_json), _opened(db, embeddings) as store:
        present, total = _already_present(store, path)
        if present:
            message = (f"{present} of the {total} memories of {path.name} are already in this "
                       "store (same ids): it was imported before; nothing written")
            if as_json:
                _emit_json({"error": "AlreadyImported", "message": message,
                            "present": present, "memories": total})
            else:
                _console(stderr=True).print(f"[yellow]{_esc(message)}[/]")
            raise typer.Exit(1)
        with open(path, encoding="utf-8") as fh:
            counts = store.import_records(_stored(r) for r in _json_lines(fh, path))
        summary = ", ".join(f"{n} {k}" for k, n in counts.items())
        _emit_json(counts) if as_json else _console().print(f"[green]imported {summary}[/]")


def _already_present(store: TieredMemoryStore, path: Path) -> tuple[int, int]:
    ids: dict[str, list[str]] = {}
    with open(path, encoding="utf-8") as fh:
        for record in _json_lines(fh, path):
            if record.get("record") == "memory" and record.get("id") and record.get("namespace"):
                ids.setdefault(str(record["namespace"]), []).append(str(record["id"]))
    present = 0
    for namespace, wanted in ids.items():
        for start in range(0, len(wanted), 500):
            present += len(store.get_many(wanted[start : start + 500], namespace=namespace))
    return present, sum(len(v) for v in ids.values())


def _json_lines(lines: Iterator[str], path: Path) -> Iterator[Any]:
    for number, line in enumerate(lines, 1):
        if line.strip():
            try:
                yield json.loads(line)
            except json.JSONDecodeError as exc:
                raise InvalidInput("file", f"{path}, line {number}: not JSON ({exc.msg})") from None


def serve(
    db: Db = None,
    host: Annotated[str, typer.Option(help="Bind address.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port.")] = 8765,
    token_file: Annotated[Path | None, typer.Option(
        exists=True, dir_okay=False,
        help="File of TOKEN=NAMESPACE lines (env TIERED_MEMORY_TOKENS, comma-separated).")] = None,
    token: Annotated[list[str] | None, typer.Option(
        help="TOKEN=NAMESPACE (repeatable). Visible to every user in `ps`: prefer "
             "TIERED_MEMORY_TOKENS or --token-file.")] = None,
    max_body: Annotated[int, typer.Option(min=1, help="Largest request body in bytes.")]
    = 10_000_000,
    chat_model: Annotated[str | None, typer.Option(
        help="provider:model for POST /api/chat (langchain's init_chat_model; "
             "env TIERED_MEMORY_CHAT_MODEL).")] = None,
    embeddings: Emb = None,
    llm: Llm = None,
) -> None:
    """Serve the REST API (FastAPI + uvicorn)."""
    err = _console(stderr=True)
    if token:
        err.print("[yellow]warning:[/] --token is visible to other users in the process list; "
                  "use TIERED_MEMORY_TOKENS or --token-file")
    tokens = read_tokens(token or [], token_file, os.environ.get("TIERED_MEMORY_TOKENS", ""))
    model_spec = chat_model or os.environ.get("TIERED_MEMORY_CHAT_MODEL")
    uvicorn = require_extra("uvicorn", "server", "tiered-memory serve")
    require_extra("fastapi", "server", "tiered-memory serve")
    from .server import create_app

    model = load_chat_model(model_spec) if model_spec else None
    extractor = consolidation_model(llm)
    with _errors(False):
        store = open_store(db, embeddings)
    use_model(store, extractor)
    # uvicorn logs only warnings: without this line a working server looks like a hung one.
    scopes = ", ".join(sorted(set(tokens.values())))
    err.print(f"serving the REST API on http://{_esc(host)}:{port} "
              f"({len(tokens)} token(s) for {_esc(scopes)}); Ctrl-C stops")
    if host not in ("127.0.0.1", "localhost", "::1"):
        err.print(f"[yellow]warning:[/] {_esc(host)} is reachable from other hosts, over plain "
                  "HTTP: put TLS in front of it")
    app_ = create_app(store, tokens=tokens, max_body_bytes=max_body, chat_model=model,
                      llm=extractor)
    try:
        # A stop signal waits at most a few seconds for requests in flight (an import can run
        # for minutes); the app's shutdown then removes its temporary files.
        uvicorn.run(app_, host=host, port=port, log_level="warning", timeout_graceful_shutdown=3)
    finally:
        stop_now(store)
