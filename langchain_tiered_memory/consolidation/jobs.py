"""Consolidation as durable store jobs: enqueue a session, run a job under a lease.

The job's payload holds the session's messages, so the job can be re-run from the store alone —
by another scheduler, or by the next process after a crash. Its key is the session id plus a
digest of the messages: the same session ended twice (same messages) is one job, while a session
that goes on after being consolidated gets a new job for the new messages.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from langchain_core.messages import convert_to_messages, messages_from_dict, messages_to_dict

from .._runtime import Heartbeat
from .protocol import ConsolidationStore

if TYPE_CHECKING:
    from ..store._jobs import Job

__all__ = [
    "dump_messages",
    "enqueue_session",
    "load_messages",
    "run_consolidation_job",
    "session_job_key",
]

KIND = "consolidation"


def dump_messages(messages: Sequence[Any]) -> list[dict[str, Any]]:
    """Messages in any LangChain-accepted form, as JSON-ready dicts."""
    return messages_to_dict(list(convert_to_messages(list(messages))))


def load_messages(data: Sequence[Mapping[str, Any]]) -> list[Any]:
    """The inverse of `dump_messages`."""
    return messages_from_dict([dict(d) for d in data])


def session_job_key(session_id: str, dumped: Sequence[Mapping[str, Any]]) -> str:
    """``<session_id>#<digest of the messages>``: stable for the same session content."""
    body = json.dumps(
        [[d.get("type"), d.get("data", {}).get("content")] for d in dumped],
        ensure_ascii=False,
        sort_keys=True,
        default=str,
    )
    return f"{session_id}#{hashlib.sha256(body.encode('utf-8')).hexdigest()[:16]}"


def enqueue_session(
    store: ConsolidationStore, namespace: str, session_id: str, messages: Sequence[Any]
) -> tuple[Job, bool]:
    """Record the consolidation of a session as a durable job.

    With ``memory.piiPolicy = redact`` the stored transcript is redacted first; the messages are
    dropped from the job once it is done.

    Returns:
        ``(job, created)`` — ``created`` is False when the same session content was already
        queued, running or done.
    """
    dumped = dump_messages(messages)
    if store.config.pii_policy == "redact":
        # The transcript waits in the store until the job runs: honour the redaction policy.
        from ..security import redact_pii

        for item in dumped:
            content = item.get("data", {}).get("content")
            if isinstance(content, str):
                item["data"]["content"] = redact_pii(content)[0]
    payload = {"session_id": session_id, "namespace": namespace, "messages": dumped}
    return store.enqueue_job(namespace, session_job_key(session_id, dumped), payload, kind=KIND)


def run_consolidation_job(
    store: ConsolidationStore,
    job_id: str,
    *,
    llm: Any = None,
    owner: str | None = None,
    lease_seconds: float = 60.0,
    max_attempts: int | None = None,
    graph: Any = None,
) -> dict[str, Any] | None:
    """Claim a consolidation job, run the graph on its messages, and mark it done.

    While it runs, a heartbeat renews the lease every third of ``lease_seconds``. A failure is
    recorded on the job (re-queued, or failed once ``max_attempts`` is reached) and re-raised so
    that a scheduler can retry it.

    Returns:
        The graph's final state, or None when the job could not be claimed (done, or held by a
        live worker).
    """
    from ..store._jobs import default_lease_owner
    from .graph import build_consolidation_graph

    owner = owner or default_lease_owner(f"t{threading.get_ident()}")
    job = store.claim_job(job_id, owner, lease_seconds=lease_seconds)
    if job is None:
        return None
    beat = Heartbeat(
        lambda: bool(store.renew_lease(job_id, owner, lease_seconds=lease_seconds)),
        lease_seconds / 3,
        name=f"lease-{job_id[:8]}",
    )
    try:
        payload = job.payload
        state = {
            "namespace": job.namespace,
            "session_id": str(payload.get("session_id") or job.session_key.split("#")[0]),
            "job_id": job.id,
            "messages": load_messages(payload.get("messages", [])),
        }
        runner = graph if graph is not None else build_consolidation_graph(store, llm)
        final: dict[str, Any] = dict(runner.invoke(state))
    except BaseException as exc:
        beat.stop()
        store.fail_job(job_id, f"{type(exc).__name__}: {exc}", owner, max_attempts=max_attempts)
        raise
    beat.stop()
    store.complete_job(job_id, owner, result=summarize_state(final))
    return final


def summarize_state(state: Mapping[str, Any]) -> dict[str, Any]:
    """A small JSON summary of a final pipeline state (stored on the finished job)."""
    episode = state.get("episode")
    return {
        "episode_id": getattr(episode, "id", None),
        "summary_source": state.get("summary_source"),
        "fact_source": state.get("fact_source"),
        "written": [e.id for e in state.get("written", [])],
        "skipped": len(state.get("skipped", [])),
        "blocked": [b.get("key") for b in state.get("blocked", [])],
        "conflicts": len(state.get("conflicts", [])),
        "moved": len(state.get("moved", [])),
    }
