"""One 10 MB transcript through `TieredMemoryStore.import_file`: time and memory.

Generates a single plain-text conversation (``User:`` / ``Assistant:`` turns of varied sentences,
with personal facts scattered through it) of about 10 MB, loads the real local MiniLM, takes the
resident memory as the baseline, then imports the file and prints the wall time and the peak
resident memory over that baseline (sampled every 20 ms). Targets (issue 13): <= 30 s and
<= 300 MB over the baseline.

Usage: python benchmarks/ingest_large.py [--mb 10] [--seed 3]
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from _common import PeakRssSampler, rss_mb  # also sets up the offline environment

from langchain_tiered_memory import MemoryConfig, TieredMemoryStore

_TOPICS = ["garden", "budget", "flight", "recipe", "server", "novel", "guitar", "marathon",
           "museum", "invoice", "release", "migration", "holiday", "camera", "dinner"]
_CITIES = ["Lyon", "Berlin", "Osaka", "Porto", "Quito", "Tartu", "Hobart", "Accra"]
_NAMES = ["Mei", "Tomas", "Ines", "Kofi", "Anya", "Ravi", "Lena", "Omar"]
_FOODS = ["green tea", "dark roast coffee", "ramen", "lentil soup", "figs", "oat milk"]


def _user(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.08:
        return f"I live in {rng.choice(_CITIES)} now."
    if roll < 0.14:
        return f"My sister {rng.choice(_NAMES)} is visiting next week."
    if roll < 0.2:
        return f"I prefer {rng.choice(_FOODS)} in the morning."
    topic, other = rng.sample(_TOPICS, 2)
    return (f"Can you help me plan the {topic}? I also need to sort out the {other} "
            f"before {rng.choice(['Monday', 'Friday', 'the weekend'])}.")


def _assistant(rng: random.Random) -> str:
    topic = rng.choice(_TOPICS)
    steps = ", ".join(rng.sample(_TOPICS, 3))
    return (f"Sure. For the {topic}, start with a short list: {steps}. "
            f"Then check the dates and set a reminder {rng.randint(1, 9)} days ahead.")


def write_transcript(path: Path, megabytes: float, seed: int) -> int:
    """Write about ``megabytes`` MB of one conversation; return the number of turns."""
    rng = random.Random(seed)
    target = int(megabytes * 1_000_000)
    written = turns = 0
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("Title: a very long chat\n")
        while written < target:
            line = f"User: {_user(rng)}\nAssistant: {_assistant(rng)}\n"
            fh.write(line)
            written += len(line.encode("utf-8"))
            turns += 2
    return turns






def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    from langchain_tiered_memory.embeddings import LocalEmbeddings

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "transcript.txt"
        turns = write_transcript(path, args.mb, args.seed)
        size = path.stat().st_size / 1_000_000
        model = LocalEmbeddings()
        model.embed_documents(["warm up the model"])
        store = TieredMemoryStore(Path(tmp) / "m.db", embeddings=model,
                                  config=MemoryConfig(rerank_enabled=False))
        baseline = rss_mb()
        sampler = PeakRssSampler()
        sampler.start()
        start = time.perf_counter()
        report = store.import_file(path, namespace="bench")
        elapsed = time.perf_counter() - start
        sampler.stop.set()
        sampler.join()
        store.close()
    delta = sampler.peak - baseline
    print(f"transcript {size:.1f} MB, {turns} turns, 1 conversation (seed {args.seed})")
    print(f"import_file: {elapsed:.1f} s (target <= 30 s: {'OK' if elapsed <= 30 else 'MISS'})")
    print(f"RSS: baseline after model load {baseline:.0f} MB, peak {sampler.peak:.0f} MB, "
          f"delta {delta:.0f} MB (target <= 300 MB: {'OK' if delta <= 300 else 'MISS'})")
    print(f"report: {report.message}; facts over the per-episode cap: {report.facts_over_cap}")


if __name__ == "__main__":
    main()
