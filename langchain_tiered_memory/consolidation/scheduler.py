"""Background scheduler for consolidation: never on the reply path.

A task is a *factory* — a callable that starts the work afresh each time it is called (returning
a result, or an awaitable that is run to completion) — so a failed task is retried by calling the
factory again, never by re-awaiting a spent coroutine.

- **Pending set**: a key that is queued or running is not queued again (same session, once).
- **Priorities**: ``DURABLE`` tasks are always queued, even past ``max_queue``; ``BEST_EFFORT``
  tasks are accepted only while the queue is below ``max_queue`` (the scheduler is not saturated).
- **Retry**: a failing task is retried from its factory up to ``max_attempts`` times, waiting
  ``backoff_base * 2**(attempt-1)`` seconds (capped at ``backoff_max``) between attempts.
- **Triggers**: session end (`schedule_session`), idle timeout (`on_idle`), and by hand
  (`trigger`, `resume`).

Workers are daemon threads (at most ``max_concurrency``), started on demand, so the scheduler
works the same under sync and async callers.
"""

from __future__ import annotations

import asyncio
import enum
import inspect
import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from ..config import MemoryConfig
from ..errors import IllegalTransition, InvalidInput
from .protocol import ConsolidationStore

logger = logging.getLogger("langchain_tiered_memory")

__all__ = ["ConsolidationScheduler", "SchedulerStats", "TaskPriority"]

TaskFactory = Callable[[], Any]


class TaskPriority(str, enum.Enum):
    """How a task is treated when the scheduler is saturated."""

    DURABLE = "durable"  # always queued; never dropped
    BEST_EFFORT = "best_effort"  # dropped when the queue is full


@dataclass(frozen=True, slots=True)
class SchedulerStats:
    """Counters since the scheduler was built."""

    submitted: int
    deduplicated: int
    dropped: int
    completed: int
    failed: int
    retries: int
    running: int
    queued: int


@dataclass(slots=True)
class _Task:
    key: Hashable
    factory: TaskFactory
    priority: TaskPriority


class ConsolidationScheduler:
    """Runs consolidation tasks in background threads with de-duplication and retries.

    Example:
        >>> scheduler = ConsolidationScheduler(llm=None)  # doctest: +SKIP
        >>> history = WorkingMemoryHistory("s1", store=store, scheduler=scheduler)  # doctest: +SKIP
        >>> history.end_session()  # returns at once; consolidation runs here  # doctest: +SKIP
        >>> scheduler.drain(timeout=30)  # doctest: +SKIP

    Args:
        llm: Chat model the consolidation graph uses (None: heuristics).
        config: Supplies ``scheduler_max_concurrency``, ``scheduler_max_queue`` and
            ``consolidation_idle_seconds`` defaults.
        max_concurrency: Tasks run at once (default from config).
        max_queue: Queue length at which the scheduler counts as saturated.
        max_attempts: Attempts per task (first run included).
        backoff_base: Seconds before the first retry; doubles each time.
        backoff_max: Longest wait between attempts.
        sleep: Sleep function used for backoff (tests inject a fast one).
        lease_seconds: Lease on store jobs; renewed while a job runs.
        on_error: Called with ``(key, exception)`` when a task fails for good.
    """

    def __init__(
        self,
        *,
        llm: Any = None,
        config: MemoryConfig | None = None,
        max_concurrency: int | None = None,
        max_queue: int | None = None,
        max_attempts: int = 3,
        backoff_base: float = 1.0,
        backoff_max: float = 30.0,
        sleep: Callable[[float], None] = time.sleep,
        lease_seconds: float = 60.0,
        on_error: Callable[[Hashable, BaseException], None] | None = None,
    ) -> None:
        cfg = config or MemoryConfig()
        self.llm = llm
        self.config = cfg
        self.max_concurrency = max_concurrency or cfg.scheduler_max_concurrency
        self.max_queue = max_queue or cfg.scheduler_max_queue
        if self.max_concurrency < 1 or self.max_queue < 1 or max_attempts < 1:
            raise InvalidInput(
                "max_concurrency", "max_concurrency, max_queue and max_attempts must be >= 1"
            )
        self.max_attempts = max_attempts
        self.backoff_base = backoff_base
        self.backoff_max = backoff_max
        self.lease_seconds = lease_seconds
        self._sleep = sleep
        self._on_error = on_error
        self._queue: deque[_Task] = deque()
        self._pending: set[Hashable] = set()
        self._running = 0
        self._workers: list[threading.Thread] = []
        self._cond = threading.Condition()
        self._closed = False
        self._timers: dict[Hashable, threading.Timer] = {}
        self._idle_callbacks: dict[Hashable, Callable[[], Any]] = {}
        self._counts = dict.fromkeys(
            ("submitted", "deduplicated", "dropped", "completed", "failed", "retries"), 0
        )
        self.errors: dict[Hashable, BaseException] = {}

    # -- queue ----------------------------------------------------------------------------------

    @property
    def saturated(self) -> bool:
        """True when the queue has reached ``max_queue`` (BEST_EFFORT tasks are then dropped)."""
        with self._cond:
            return len(self._queue) >= self.max_queue

    @property
    def pending(self) -> frozenset[Hashable]:
        """Keys queued or running."""
        with self._cond:
            return frozenset(self._pending)

    @property
    def stats(self) -> SchedulerStats:
        """Counters and current load."""
        with self._cond:
            return SchedulerStats(
                **self._counts, running=self._running, queued=len(self._queue)
            )

    def submit(
        self,
        key: Hashable,
        factory: TaskFactory,
        *,
        priority: TaskPriority | str = TaskPriority.DURABLE,
    ) -> bool:
        """Queue ``factory`` under ``key``.

        Returns:
            True when queued; False when ``key`` is already pending or a BEST_EFFORT task met a
            saturated queue.
        """
        level = TaskPriority(priority)
        with self._cond:
            if self._closed:
                raise IllegalTransition("the scheduler is closed")
            if key in self._pending:
                self._counts["deduplicated"] += 1
                return False
            if level is TaskPriority.BEST_EFFORT and len(self._queue) >= self.max_queue:
                self._counts["dropped"] += 1
                return False
            self._pending.add(key)
            self._queue.append(_Task(key, factory, level))
            self._counts["submitted"] += 1
            idle = len(self._workers) - self._running
            if len(self._queue) > idle and len(self._workers) < self.max_concurrency:
                worker = threading.Thread(
                    target=self._work, name=f"tm-consolidation-{len(self._workers)}", daemon=True
                )
                self._workers.append(worker)
                worker.start()
            self._cond.notify()
        return True

    def _work(self) -> None:
        while True:
            with self._cond:
                while not self._queue and not self._closed:
                    self._cond.wait()
                if not self._queue:
                    self._workers.remove(threading.current_thread())
                    self._cond.notify_all()
                    return
                task = self._queue.popleft()
                self._running += 1
            try:
                self._run(task)
            finally:
                with self._cond:
                    self._running -= 1
                    self._pending.discard(task.key)
                    self._cond.notify_all()

    def _run(self, task: _Task) -> None:
        for attempt in range(1, self.max_attempts + 1):
            try:
                result = task.factory()
                if inspect.isawaitable(result):
                    asyncio.run(_await(result))
            except Exception as exc:  # a task failure must not kill the worker
                if attempt < self.max_attempts:
                    with self._cond:
                        self._counts["retries"] += 1
                    self._sleep(min(self.backoff_max, self.backoff_base * 2 ** (attempt - 1)))
                    continue
                with self._cond:
                    self._counts["failed"] += 1
                    self.errors[task.key] = exc
                logger.warning("consolidation task %r failed for good", task.key, exc_info=True)
                if self._on_error is not None:
                    self._on_error(task.key, exc)
                return
            with self._cond:
                self._counts["completed"] += 1
                self.errors.pop(task.key, None)
            return

    def drain(self, timeout: float | None = None) -> bool:
        """Wait until nothing is queued or running; False on timeout."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while self._queue or self._running:
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return False
                self._cond.wait(remaining)
        return True

    async def adrain(self, timeout: float | None = None) -> bool:
        """Async twin of `drain`."""
        return await asyncio.to_thread(self.drain, timeout)

    def close(self, *, wait: bool = True, timeout: float | None = None) -> None:
        """Stop idle timers and the workers (after the queue is done when ``wait``)."""
        for timer in self._cancel_all_timers():
            timer.cancel()
        if wait:
            self.drain(timeout)
        with self._cond:
            self._closed = True
            if not wait:
                self._queue.clear()
            self._cond.notify_all()

    def __enter__(self) -> ConsolidationScheduler:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- consolidation ----------------------------------------------------------------------------

    def schedule_session(
        self,
        store: ConsolidationStore,
        namespace: str,
        session_id: str,
        messages: Sequence[Any],
        *,
        priority: TaskPriority | str = TaskPriority.DURABLE,
    ) -> Any:
        """Record a session's consolidation as a store job and run it in the background.

        Returns:
            The store job (an existing one when this session content was already handed over).
        """
        from .jobs import enqueue_session

        job, _created = enqueue_session(store, namespace, session_id, messages)
        if job.status in ("queued", "running"):
            self.submit(self._job_key(store, job.id), self._job_factory(store, job.id),
                        priority=priority)
        return job

    def resume(self, store: ConsolidationStore, *, namespace: str | None = None) -> list[Any]:
        """Queue every job a previous (perhaps crashed) process left unfinished in ``store``."""
        jobs = store.resume_pending(namespace=namespace)
        for job in jobs:
            self.submit(self._job_key(store, job.id), self._job_factory(store, job.id))
        return list(jobs)

    def _job_key(self, store: ConsolidationStore, job_id: str) -> Hashable:
        return ("job", store.url, job_id)

    def _job_factory(self, store: ConsolidationStore, job_id: str) -> TaskFactory:
        from .jobs import run_consolidation_job

        def factory() -> Any:
            return run_consolidation_job(
                store, job_id, llm=self.llm, lease_seconds=self.lease_seconds
            )

        return factory

    # -- idle trigger -----------------------------------------------------------------------------

    def on_idle(
        self, key: Hashable, callback: Callable[[], Any], seconds: float | None = None
    ) -> None:
        """(Re)arm an idle timer: ``callback`` runs when ``key`` sees no activity for ``seconds``.

        Each call restarts the countdown (call it on every new message).
        """
        delay = self.config.consolidation_idle_seconds if seconds is None else seconds
        timer = threading.Timer(delay, self._fire_idle, args=(key,))
        timer.daemon = True
        with self._cond:
            old = self._timers.pop(key, None)
            self._timers[key] = timer
            self._idle_callbacks[key] = callback
        if old is not None:
            old.cancel()
        timer.start()

    def cancel_idle(self, key: Hashable) -> None:
        """Disarm the idle timer of ``key``."""
        with self._cond:
            timer = self._timers.pop(key, None)
            self._idle_callbacks.pop(key, None)
        if timer is not None:
            timer.cancel()

    def trigger(self, key: Hashable | None = None) -> int:
        """Run idle callbacks now (one key, or all): the manual trigger. Returns how many ran."""
        with self._cond:
            keys = [key] if key is not None else list(self._idle_callbacks)
        return sum(1 for k in keys if self._fire_idle(k))

    def _fire_idle(self, key: Hashable) -> bool:
        with self._cond:
            callback = self._idle_callbacks.pop(key, None)
            timer = self._timers.pop(key, None)
        if timer is not None:
            timer.cancel()
        if callback is None:
            return False
        try:
            callback()
        except Exception:  # a timer thread has nobody to report to
            logger.warning("idle consolidation trigger %r failed", key, exc_info=True)
        return True

    def _cancel_all_timers(self) -> list[threading.Timer]:
        with self._cond:
            timers = list(self._timers.values())
            self._timers.clear()
            self._idle_callbacks.clear()
        return timers


async def _await(awaitable: Any) -> Any:
    return await awaitable
