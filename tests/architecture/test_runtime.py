"""The one runtime helper: a call bounded by a timeout, and a heartbeat."""

from __future__ import annotations

import threading
import time

import pytest

from langchain_tiered_memory import TieredMemoryError
from langchain_tiered_memory._runtime import CallTimedOut, Heartbeat, call_with_timeout


def test_call_returns_and_raises_what_the_function_does() -> None:
    assert call_with_timeout(lambda: 41 + 1, 5) == 42

    def fail() -> None:
        raise KeyError("inner")

    with pytest.raises(KeyError, match="inner"):
        call_with_timeout(fail, 5)


def test_timeout_fires_and_abandons_the_worker() -> None:
    release = threading.Event()
    started = time.monotonic()
    with pytest.raises(CallTimedOut) as caught:
        call_with_timeout(lambda: release.wait(10), 0.2, name="slow-model")
    waited = time.monotonic() - started
    assert 0.15 <= waited < 2.0
    assert isinstance(caught.value, TieredMemoryError) and isinstance(caught.value, TimeoutError)
    assert "slow-model timed out after 0.2s" in str(caught.value)
    # The worker is a daemon thread still running the call: it never blocks interpreter exit.
    [worker] = [t for t in threading.enumerate() if t.name == "slow-model"]
    assert worker.daemon and worker.is_alive()
    release.set()
    worker.join(2)


def test_heartbeat_beats_until_stopped() -> None:
    beats: list[float] = []
    with Heartbeat(lambda: beats.append(time.monotonic()) is None, 0.05, name="hb") as beat:
        time.sleep(0.4)
        assert beat.running
    assert not beat.running and not beat.lost
    count = len(beats)
    assert count >= 3
    time.sleep(0.2)
    assert len(beats) == count  # nothing after stop


def test_heartbeat_survives_a_failing_beat_and_stops_when_lost() -> None:
    answers = iter([RuntimeError("db hiccup"), True, False])

    def beat() -> bool:
        answer = next(answers)
        if isinstance(answer, Exception):
            raise answer
        return answer

    heart = Heartbeat(beat, 0.02, name="hb-lost")
    deadline = time.monotonic() + 5
    while heart.running and time.monotonic() < deadline:
        time.sleep(0.01)
    assert heart.lost and heart.beats == 2 and not heart.running
    heart.stop()  # stopping a heartbeat that ended by itself is harmless
