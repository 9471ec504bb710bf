"""The crash tests, N times in a row (default 20), on SQLite and PostgreSQL.

Each round: fresh databases; children killed with SIGKILL inside add_many (deterministic point:
supersede UPDATEs and memory rows sent, vector rows not), at a random moment of a stream of
add_many batches, inside an import's third batch, inside a consolidation's fact write and inside
a re-embed drain; then the checks and resumptions of `tests/reliability/test_crash.py`.

Usage: ``python benchmarks/crash_loop.py [--rounds 20] [--backends sqlite,postgres]``
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from tests.reliability import test_crash as tc
from tests.reliability._crash import Crash, run_crashes
from tests.reliability._procs import open_store

CHECKS = [
    ("add_many", tc.test_add_many_killed_inside_its_transaction),
    ("loop", tc.test_add_many_killed_at_a_random_moment),
    ("import", tc.test_import_killed_mid_batch_resumes),
    ("consolidation", tc.test_consolidation_killed_mid_write_resumes),
    ("reembed", tc.test_reembed_killed_mid_queue_resumes),
]


class _Request:
    """Just enough of pytest's ``request`` for `test_crash.new_url`."""

    def __init__(self, cluster: Any) -> None:
        self.cluster = cluster

    def getfixturevalue(self, _name: str) -> Any:
        return self.cluster


def one_round(backend: str, cluster: Any, seed: int) -> dict[str, str]:
    tmp = Path(tempfile.mkdtemp(prefix="crash-loop-"))
    request = _Request(cluster)
    export = tc.write_export(tmp / "export.jsonl")
    crashes = {}
    for mode in tc.MODES:
        url = tc.new_url(request, backend, tmp, mode)  # type: ignore[arg-type]
        if mode == "reembed":
            seed_store = open_store(url, model_id="test/old-32", dim=32)
            seed_store.add_many([f"old note {i} about pebbles" for i in range(60)],
                                namespace="emb")
            seed_store.close()
        else:
            open_store(url).close()
        crashes[mode] = Crash(mode, url, str(export) if mode == "import" else "")
    run_crashes(list(crashes.values()), seed=seed)
    crashed = {"crashes": crashes, "export": export, "tmp": tmp, "backend": backend}
    out = {}
    for name, check in CHECKS:
        try:
            if name == "import":
                check(crashed, request)
            else:
                check(crashed)
            out[name] = "pass"
        except Exception:
            out[name] = "FAIL " + traceback.format_exc(limit=3).splitlines()[-1]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--backends", default="sqlite-file,postgres")
    args = parser.parse_args()
    backends = args.backends.split(",")
    cluster = None
    if "postgres" in backends:
        from tests.pg import start_cluster

        cluster = start_cluster()
    try:
        totals: dict[tuple[str, str], int] = {}
        print(f"crash loop: {args.rounds} rounds x {backends} x {[n for n, _ in CHECKS]}")
        for r in range(1, args.rounds + 1):
            for backend in backends:
                started = time.perf_counter()
                result = one_round(backend, cluster, seed=r)
                for name, verdict in result.items():
                    totals[(backend, name)] = totals.get((backend, name), 0) + (
                        verdict == "pass")
                bad = {k: v for k, v in result.items() if v != "pass"}
                print(f"round {r:2d} {backend:11s} {time.perf_counter() - started:5.1f} s  "
                      + ("all pass" if not bad else f"FAILED {bad}"), flush=True)
        print("\npasses out of", args.rounds)
        for (backend, name), n in sorted(totals.items()):
            print(f"  {backend:11s} {name:14s} {n}/{args.rounds}")
    finally:
        if cluster is not None:
            cluster.stop()


if __name__ == "__main__":
    main()
