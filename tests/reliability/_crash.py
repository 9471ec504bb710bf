"""Run crash children (`_crash_child`) in parallel and SIGKILL each at its marker."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Crash:
    """One child: what it printed before it was killed."""

    mode: str
    url: str
    arg: str = ""
    lines: list[str] = field(default_factory=list)
    killed: bool = False
    stderr: str = ""


def run_crashes(crashes: list[Crash], *, timeout: float = 120.0, seed: int | None = None) -> None:
    """Start every child at once; kill each with SIGKILL when it is inside its write.

    ``loop`` children are killed at a random moment after their second committed batch.
    """
    rng = random.Random(seed)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    procs = []
    for c in crashes:
        p = subprocess.Popen(
            [sys.executable, "-m", "tests.reliability._crash_child", c.mode, c.url, c.arg],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        procs.append(p)

    def watch(c: Crash, p: subprocess.Popen[str]) -> None:
        assert p.stdout is not None
        for line in p.stdout:
            c.lines.append(line.strip())
            if line.startswith("INSIDE") or line.startswith("COMMITTED 2 "):
                if line.startswith("COMMITTED"):
                    time.sleep(rng.uniform(0.0, 0.3))  # somewhere in a later batch
                p.send_signal(signal.SIGKILL)
                c.killed = True
                break

    threads = [threading.Thread(target=watch, args=(c, p)) for c, p in zip(crashes, procs, strict=True)]
    for th in threads:
        th.start()
    deadline = time.monotonic() + timeout
    for th in threads:
        th.join(max(0.1, deadline - time.monotonic()))
    for c, p in zip(crashes, procs, strict=True):
        if p.poll() is None and not c.killed:
            p.kill()
        p.wait(30)
        assert p.stderr is not None
        c.stderr = p.stderr.read()[-3000:]
        assert c.killed, f"{c.mode} never reached its kill point:\n{c.lines}\n{c.stderr}"
        assert p.returncode == -signal.SIGKILL
