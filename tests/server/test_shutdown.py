"""Issue 13 item 11: the server stops within seconds on SIGTERM, even mid-import, and cleans up."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
import time
from pathlib import Path

import httpx

from tests.server.test_rest_api import BIN, _free_port


def _transcript(lines: int) -> str:
    return "\n".join(
        f"User: on day {i} I walked {i % 17} km along the river and met friend number {i}.\n"
        f"Assistant: that sounds lovely, tell me more about friend {i}."
        for i in range(lines)
    )


def test_sigterm_mid_import_stops_quickly_and_leaves_no_files(tmp_path: Path) -> None:
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    port = _free_port()
    env = {**os.environ, "TIERED_MEMORY_EMBEDDINGS": "hash", "TMPDIR": str(tmp),
           "TIERED_MEMORY_TOKENS": "tok=alice", "HF_HUB_OFFLINE": "1"}
    proc = subprocess.Popen(
        [str(BIN), "serve", "--db", str(tmp_path / "m.db"), "--port", str(port),
         "--max-body", "50000000"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 40
        while True:
            try:
                if httpx.get(base + "/openapi.json", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert proc.poll() is None and time.monotonic() < deadline, "server did not start"
            time.sleep(0.2)
        body = {"text": _transcript(40_000)}

        def post() -> None:
            with contextlib.suppress(httpx.HTTPError):  # the server goes away mid-request
                httpx.post(base + "/api/memory/ingest", json=body, timeout=300,
                           headers={"Authorization": "Bearer tok"})

        sender = threading.Thread(target=post, daemon=True)
        sender.start()
        # The body is imported from memory (issue 14: no temporary file to watch for): give the
        # upload time to arrive and the import to begin, then check the request is still running.
        time.sleep(2.0)
        assert sender.is_alive(), "the import finished before the signal"
        started = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
        took = time.monotonic() - started
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert took < 10, f"took {took:.1f} s to stop"
    assert list(tmp.iterdir()) == []  # the REST ingest writes no temporary files
