"""Threads the package runs work on: a call bounded by a timeout, and a heartbeat.

Python cannot kill a thread: a call that outlives its timeout keeps running in its worker, so the
worker is a daemon thread (a hung model call never holds up interpreter exit, which a
``ThreadPoolExecutor`` worker would) and the caller simply stops waiting. Every "ask a model, but
not for longer than N seconds" (chat models for facts, summaries and contradiction checks, the
cross-encoder, a classifier) and every lease renewal goes through here.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import TypeVar

from .errors import TieredMemoryError

__all__ = ["CallTimedOut", "Heartbeat", "call_with_timeout", "run_in_thread"]

T = TypeVar("T")


class CallTimedOut(TieredMemoryError, TimeoutError):
    """A call bounded by `call_with_timeout` did not finish in time.

    Attributes:
        name: What was called (the worker thread's name).
        timeout: The seconds waited.
    """

    def __init__(self, name: str, timeout: float) -> None:
        super().__init__(f"{name} timed out after {timeout:g}s")
        self.name = name
        self.timeout = timeout


def run_in_thread(fn: Callable[[], T], *, name: str) -> Future[T]:
    """Start ``fn`` on a daemon thread; the future resolves with its result or exception."""
    fut: Future[T] = Future()

    def target() -> None:
        if not fut.set_running_or_notify_cancel():
            return
        try:
            fut.set_result(fn())
        except BaseException as exc:  # reported through the future, never lost
            fut.set_exception(exc)

    threading.Thread(target=target, name=name, daemon=True).start()
    return fut


def call_with_timeout(
    fn: Callable[[], T], timeout: float | None, *, name: str = "tiered-memory-call"
) -> T:
    """Call ``fn`` on a worker thread and wait at most ``timeout`` seconds (None: no limit).

    Returns:
        What ``fn`` returned.

    Raises:
        CallTimedOut: ``fn`` did not finish in time (it keeps running, abandoned).
        Exception: Whatever ``fn`` raised.
    """
    fut = run_in_thread(fn, name=name)
    try:
        return fut.result(timeout=timeout)
    except FutureTimeout:
        if fut.done():  # ``fn`` itself raised a TimeoutError
            raise
        raise CallTimedOut(name, timeout or 0.0) from None


class Heartbeat:
    """Calls ``beat`` every ``interval`` seconds on a daemon thread until stopped.

    ``beat`` returns False when the thing it keeps alive is gone (a lease another worker took
    over): the heartbeat then stops by itself and `lost` turns True. An exception from ``beat``
    is a missed beat, tried again at the next interval: a missed renewal only shortens the margin.

    Example:
        >>> with Heartbeat(lambda: renew(lease), 20.0, name="lease-job") as beat:  # doctest: +SKIP
        ...     work(check=lambda: beat.lost)

    Args:
        beat: One renewal; False means lost.
        interval: Seconds between beats (the first comes one interval after the start).
        name: The thread's name.
    """

    def __init__(self, beat: Callable[[], bool], interval: float, *, name: str) -> None:
        self.lost = False
        self.beats = 0
        self._beat = beat
        self._interval = interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self._interval):
            try:
                alive = self._beat()
            except Exception:  # a missed beat; try again at the next interval
                continue
            self.beats += 1
            if not alive:
                self.lost = True
                return

    @property
    def running(self) -> bool:
        """True while the thread beats."""
        return self._thread.is_alive()

    def stop(self) -> None:
        """Stop beating and wait for the thread (at most one beat's duration)."""
        self._stop.set()
        if self._thread is not threading.current_thread():
            self._thread.join()

    def __enter__(self) -> Heartbeat:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
