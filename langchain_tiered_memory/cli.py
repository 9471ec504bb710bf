"""`tiered-memory`: the command line over one store (import, search, review, dump, serve...).

Every command takes ``--db`` (a SQLAlchemy URL or a file path; default ``$TIERED_MEMORY_DB`` or
``~/.local/share/tiered-memory/memory.db``), ``--namespace`` and ``--json`` (machine-readable
output on stdout). The embedding model is the bundled local MiniLM; ``--embeddings hash`` (or
``TIERED_MEMORY_EMBEDDINGS=hash``) swaps in a fast, deterministic hashing embedding meant for tests
and demos (vectors from one model are never mixed with another's: switching re-queues them for
``reembed``). Other settings come from ``TIERED_MEMORY_*`` variables (`MemoryConfig.from_env`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from .store import TieredMemoryStore
    from .types import MemoryEntry

from ._cli_options import Db, Emb, Json, Llm, Ns, NsAll, SearchMode
from ._cli_support import (
    _STATUSES,
    _TIERS,
    HashingEmbeddings,
    _console,
    _emit_json,
    _entries_table,
    _errors,
    _esc,
    _opened,
    _resolve,
    consolidation_model,
    default_db,
    open_store,
    use_model,
)
from ._cli_transfer import export, import_cmd, import_jsonl, serve

__all__ = ["HashingEmbeddings", "app", "default_db", "main", "open_store"]

app = typer.Typer(
    name="tiered-memory",
    help="Tiered long-term memory: import chat history, search, review, export, serve.",
    no_args_is_help=True,
    add_completion=False,
)

@app.command()
def search(
    query: str,
    db: Db = None,
    namespace: Ns = "default",
    k: Annotated[int, typer.Option("-k", help="How many hits.")] = 10,
    mode: Annotated[SearchMode, typer.Option(help="Recall mode.")] = SearchMode.HYBRID,
    as_json: Json = False,
    embeddings: Emb = None,
) -> None:
    """Recall the memories that best answer QUERY."""
    with _errors(as_json), _opened(db, embeddings) as store:
        hits = store.search(query, namespace=namespace, k=k, mode=mode.value)  # type: ignore[arg-type]
        if as_json:
            _emit_json([{"score": h.score, "scores": dict(h.scores), **h.entry.to_dict()}
                        for h in hits])
            return
        _console().print(_entries_table([h.entry for h in hits], f"search: {_esc(query)}",
                                        [h.score for h in hits]))
        if mode is not SearchMode.KEYWORD:
            _hint_reembed(store, namespace)


def _hint_reembed(store: TieredMemoryStore, namespace: str) -> None:
    """Vectors of another model are not searched: say so, or recall silently degrades."""
    if pending := store.reembed_pending(namespace=namespace):
        _console(stderr=True).print(
            f"[yellow]note:[/] {pending} memories were embedded by another model "
            "and are found by keyword only; run `tiered-memory reembed`")


@app.command("list")
def list_cmd(
    db: Db = None,
    namespace: Ns = "default",
    tier: Annotated[str | None, typer.Option(
        help="Only this tier: working, episodic, semantic or archival.")] = None,
    status: Annotated[str, typer.Option(help="active, pending, rejected or all.")] = "active",
    limit: Annotated[int, typer.Option(min=1, help="At most this many.")] = 50,
    history: Annotated[bool, typer.Option(help="Include superseded versions.")] = False,
    as_json: Json = False,
    embeddings: Emb = None,
) -> None:
    """List memories, newest first."""
    if tier is not None and tier not in _TIERS:
        raise typer.BadParameter(f"must be one of {', '.join(_TIERS)}", param_hint="--tier")
    if status not in _STATUSES:
        raise typer.BadParameter(f"must be one of {', '.join(_STATUSES)}",
                                 param_hint="--status")
    with _errors(as_json), _opened(db, embeddings) as store:
        entries = store.list(namespace=namespace, tier=tier, limit=limit,
                             status=None if status == "all" else status,
                             include_superseded=history)
        if as_json:
            _emit_json([e.to_dict() for e in entries])
            return
        more = f" (the first {limit}; --limit shows more)" if len(entries) == limit else ""
        _console().print(_entries_table(entries,
                                        f"{_esc(namespace)}: {len(entries)} memories{more}"))


@app.command()
def show(
    entry_id: str, db: Db = None, namespace: Ns = "default", as_json: Json = False,
    embeddings: Emb = None,
) -> None:
    """Show one memory with every version of its key."""
    from rich.panel import Panel

    with _errors(as_json), _opened(db, embeddings) as store:
        entry = store.get(_resolve(store, entry_id, namespace), namespace=namespace)
        assert entry is not None
        versions = store.history(entry.key, namespace=namespace)
        if as_json:
            _emit_json({**entry.to_dict(), "history": [v.to_dict() for v in versions]})
            return
        body = "\n".join(f"[bold]{k}[/]: {_esc(v)}" for k, v in entry.to_dict().items())
        console = _console()
        console.print(Panel(body, title=entry.id))
        if len(versions) > 1:
            console.print(_entries_table(versions, f"history of {_esc(entry.key)}"))


@app.command()
def add(
    content: str,
    db: Db = None,
    namespace: Ns = "default",
    key: Annotated[str | None, typer.Option(help="Semantic key; writing it again versions it.")] = None,
    tags: Annotated[str | None, typer.Option(help="Comma-separated tags.")] = None,
    user: Annotated[bool, typer.Option("--user", help="USER type: never decays.")] = False,
    importance: Annotated[float, typer.Option(help="0..1")] = 0.5,
    pin: Annotated[bool, typer.Option("--pin", help="Always in the core snapshot.")] = False,
    as_json: Json = False,
    embeddings: Emb = None,
) -> None:
    """Add a memory you state yourself (USER path: scanned, audited; USER_STATED provenance)."""
    from .provenance import WritePath
    from .types import MemoryType, ProvenanceLevel

    with _errors(as_json), _opened(db, embeddings) as store:
        entry = store.add(
            content, namespace=namespace, key=key,
            tags=[t.strip() for t in tags.split(",") if t.strip()] if tags else (),
            type=MemoryType.USER if user else MemoryType.ENVIRONMENT, importance=importance,
            pinned=pin, source=ProvenanceLevel.USER_STATED, path=WritePath.USER,
        )
        _done(as_json, entry, f"added {entry.id} (key {entry.key}, version {entry.version})")


@app.command()
def edit(
    entry_id: str,
    db: Db = None,
    namespace: Ns = "default",
    content: Annotated[str | None, typer.Option(help="New text (makes a new version).")] = None,
    tags: Annotated[str | None, typer.Option(help="Comma-separated tags.")] = None,
    importance: Annotated[float | None, typer.Option(help="0..1")] = None,
    as_json: Json = False,
    embeddings: Emb = None,
) -> None:
    """Edit a memory (through the USER write path: scanned, audited, versioned; new text is
    USER_STATED)."""
    from .provenance import WritePath
    from .types import ProvenanceLevel

    with _errors(as_json), _opened(db, embeddings) as store:
        after = store.update(
            _resolve(store, entry_id, namespace), namespace=namespace, content=content,
            tags=[t.strip() for t in tags.split(",") if t.strip()] if tags is not None else None,
            importance=importance, path=WritePath.USER,
            source=ProvenanceLevel.USER_STATED if content is not None else None,
        )
        _done(as_json, after, f"updated {after.id} (version {after.version})")


def _done(as_json: bool, entry: MemoryEntry | None, message: str) -> None:
    if as_json:
        _emit_json(entry.to_dict() if entry is not None else {"ok": True, "message": message})
    else:
        _console().print(f"[green]{message}[/]")


@app.command()
def delete(
    entry_id: str, db: Db = None, namespace: Ns = "default",
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask.")] = False,
    as_json: Json = False, embeddings: Emb = None,
) -> None:
    """Delete a memory for good (the audit log keeps its last value)."""
    from .provenance import WritePath

    with _errors(as_json), _opened(db, embeddings) as store:
        full = _resolve(store, entry_id, namespace)
        if not yes and not as_json and not typer.confirm(f"delete {full}?"):
            raise typer.Exit(1)
        store.delete(full, namespace=namespace, path=WritePath.USER)
        _done(as_json, None, f"deleted {full}")


@app.command()
def pin(
    entry_id: str, db: Db = None, namespace: Ns = "default",
    unpin: Annotated[bool, typer.Option("--unpin", help="Remove the pin instead.")] = False,
    as_json: Json = False, embeddings: Emb = None,
) -> None:
    """Pin a memory (always in context, never decays), or --unpin it."""
    with _errors(as_json), _opened(db, embeddings) as store:
        full = _resolve(store, entry_id, namespace)
        after = store.unpin(full, namespace=namespace) if unpin else store.pin(
            full, namespace=namespace)
        _done(as_json, after, f"{'unpinned' if unpin else 'pinned'} {full}")


@app.command()
def restore(
    entry_id: str, db: Db = None, namespace: Ns = "default", as_json: Json = False,
    embeddings: Emb = None,
) -> None:
    """Bring an archived memory back to SEMANTIC."""
    with _errors(as_json), _opened(db, embeddings) as store:
        after = store.restore(_resolve(store, entry_id, namespace), namespace=namespace)
        _done(as_json, after, f"restored {after.id}")


@app.command()
def review(
    db: Db = None,
    namespace: Ns = "default",
    approve: Annotated[list[str] | None, typer.Option(help="Approve this id (repeatable).")] = None,
    reject: Annotated[list[str] | None, typer.Option(help="Reject this id (repeatable).")] = None,
    approve_all: Annotated[bool, typer.Option(help="Approve every pending memory.")] = False,
    archive: Annotated[bool, typer.Option(help="Archive rejected ones instead of deleting.")]
    = False,
    as_json: Json = False,
    embeddings: Emb = None,
) -> None:
    """List memories pending review, or approve / reject them."""
    with _errors(as_json), _opened(db, embeddings) as store:
        ids = [p.id for p in store.pending_reviews(namespace)] if approve_all else []
        ids += [_resolve(store, i, namespace) for i in approve or []]
        gone = [_resolve(store, i, namespace) for i in reject or []]
        if not ids and not gone:
            pending = store.pending_reviews(namespace)
            if as_json:
                _emit_json([e.to_dict() for e in pending])
            elif not pending:
                _console().print(f"nothing pending review in {_esc(namespace)!r}")
            else:
                _console().print(_entries_table(pending, f"{len(pending)} pending review"))
            return
        done = {"approved": [store.approve(i, namespace=namespace).id for i in ids],
                "rejected": []}
        for i in gone:
            store.reject(i, namespace=namespace, archive=archive)
            done["rejected"].append(i)
        if as_json:
            _emit_json(done)
        else:
            _console().print(f"[green]approved {len(done['approved'])}, "
                             f"rejected {len(done['rejected'])}[/]")


@app.command()
def consolidate(
    db: Db = None, namespace: Ns = "default", as_json: Json = False, embeddings: Emb = None,
    llm: Llm = None,
) -> None:
    """Run the queued consolidation jobs of a namespace, then a decay pass."""
    model = consolidation_model(llm)
    with _errors(as_json), _opened(db, embeddings) as store:
        use_model(store, model)
        try:
            from .consolidation import run_consolidation_job
        except ImportError:  # pragma: no cover - depends on the install
            _console().print("[red]consolidation is not available in this install[/]")
            raise typer.Exit(2) from None
        jobs = store.list_jobs(namespace=namespace, status=["queued", "failed"])
        ran = [j.id for j in jobs if run_consolidation_job(store, j.id, llm=model) is not None]
        decay = store.decay_pass(namespace=namespace)
        out = {"jobs_run": len(ran), "archived": len(decay.archived),
               "archived_episodes": len(decay.archived_episodes), "examined": decay.examined,
               "extractor": "heuristic" if model is None else "llm"}
        if as_json:
            _emit_json(out)
        else:
            _console().print(f"[green]ran {len(ran)} consolidation jobs; decay examined "
                             f"{decay.examined}, archived {len(decay.archived)}[/]")


@app.command()
def decay(
    db: Db = None, namespace: Ns = "default", as_json: Json = False, embeddings: Emb = None,
) -> None:
    """Apply the forgetting curve: archive memories whose effective importance fell too low."""
    with _errors(as_json), _opened(db, embeddings) as store:
        report = store.decay_pass(namespace=namespace)
        out = {"examined": report.examined, "archived": list(report.archived),
               "decaying": list(report.decaying), "exempt": report.exempt,
               "archived_episodes": list(report.archived_episodes)}
        if as_json:
            _emit_json(out)
        else:
            _console().print(f"[green]examined {report.examined}: archived "
                             f"{len(report.archived)}, decaying {len(report.decaying)}, "
                             f"exempt {report.exempt}[/]")


@app.command()
def gc(
    db: Db = None, namespace: Ns = "default",
    retention_days: Annotated[float, typer.Option(help="Keep this many days.")] = 90.0,
    as_json: Json = False, embeddings: Emb = None,
) -> None:
    """Purge superseded and archived memories older than the retention period."""
    with _errors(as_json), _opened(db, embeddings) as store:
        report = store.gc(retention_days, namespace=namespace)
        if as_json:
            _emit_json({"purged": list(report.purged), "skipped": list(report.skipped)})
        else:
            _console().print(f"[green]purged {len(report.purged)}, kept {len(report.skipped)} "
                             f"(USER or pinned)[/]")


@app.command()
def reembed(db: Db = None, as_json: Json = False, embeddings: Emb = None) -> None:
    """Re-embed every vector made by another embedding model."""
    from rich.progress import Progress

    with _errors(as_json), _opened(db, embeddings) as store:
        total = store.reembed_pending()
        if as_json:
            _emit_json({"reembedded": store.reembed(), "queued_before": total})
            return
        with Progress(console=_console(), transient=True) as bar:
            task = bar.add_task("re-embedding", total=total or 1)
            done = store.reembed(progress=lambda d, _t: bar.update(task, completed=d))
        _console().print(f"[green]re-embedded {done} vectors[/]")


@app.command()
def stats(
    db: Db = None,
    namespace: NsAll = None,
    as_json: Json = False,
    embeddings: Emb = None,
) -> None:
    """Counts by tier, type, provenance and status; episodes, sources, blocked writes."""
    from rich.table import Table

    with _errors(as_json), _opened(db, embeddings) as store:
        data = store.memory_stats(namespace=namespace)
        data["namespaces"] = store.namespaces()
        if as_json:
            _emit_json(data)
            return
        table = Table(title=f"tiered-memory stats ({namespace or 'all namespaces'})")
        table.add_column("what", style="bold")
        table.add_column("count", justify="right", style="cyan")
        for key, value in data.items():
            if isinstance(value, dict):
                for sub, n in sorted(value.items()):
                    table.add_row(f"{key.removeprefix('by_')}: {sub}", str(n))
            elif isinstance(value, int):
                table.add_row(key, str(value))
        table.add_row("namespaces", _esc(", ".join(data["namespaces"]) or "(none)"))
        _console().print(table)


@app.command()
def context(
    query: Annotated[str, typer.Argument(help="The current user message.")] = "",
    db: Db = None, namespace: Ns = "default",
    budget: Annotated[int | None, typer.Option(min=1, help="Token budget.")] = None,
    as_json: Json = False, embeddings: Emb = None,
) -> None:
    """Print the memory block a system prompt would get for QUERY."""
    with _errors(as_json), _opened(db, embeddings) as store:
        text = store.context(namespace, query or None, budget=budget)
        if as_json:
            _emit_json({"namespace": namespace, "query": query, "context": text})
        else:
            within = f" within {budget} tokens" if budget else ""
            typer.echo(text or f"(no memory for this query{within})")


app.command("import")(import_cmd)
app.command("export")(export)
app.command("import-jsonl")(import_jsonl)
app.command("serve")(serve)


def main() -> None:
    """Console-script entry point."""
    app()


if __name__ == "__main__":
    main()
