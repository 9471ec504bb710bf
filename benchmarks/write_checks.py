"""Write latency with the on-write contradiction checks off vs on, at 5,000 entries.

Data: a namespace of 5,000 random-word sentences (``_common.synthetic_texts``) embedded with a
hashed bag-of-words (``_common.FakeEmbeddings``, microseconds per text, so the figures time the
store). Each configuration starts from a copy of the same database file; timed writes are new
random-word sentences (other seed). Baseline, in the same run: the same writes with the checks
off (``detect_contradictions = False``; auto-links on in both, as by default) and with both off.

A second dataset, ``facts``, holds 5,000 templated personal facts (``Persrb lives in Oslo``,
``Persrb's favourite colour is red``...) and writes 100 new facts about the same people, so
the check finds and resolves real contradictions; it prints how many, so a faster check that
found fewer would show.

Run:  .venv/bin/python benchmarks/write_checks.py [--single 60] [--batches 5]
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from _common import FakeEmbeddings, synthetic_texts

from langchain_tiered_memory import MemoryConfig, TieredMemoryStore

NS = "bench"
SIZE = 5_000
_CITIES = ["Oslo", "Paris", "Berlin", "Tokyo", "Lima", "Cairo", "Quito", "Seoul", "Rome", "Delhi"]
_COLOURS = ["red", "blue", "green", "black", "white", "yellow", "purple", "orange"]
_FIRMS = ["Acme", "Globex", "Initech", "Hooli", "Umbrella", "Stark", "Wayne", "Tyrell"]


def _name(i: int) -> str:
    """A made-up one-word name per number (``i`` in base 26, as letters)."""
    letters = ""
    while True:
        i, r = divmod(i, 26)
        letters += "abcdefghijklmnopqrstuvwxyz"[r]
        if not i:
            return "Pers" + letters


def fact_texts(n: int, seed: int, people: int = 1_000) -> list[str]:
    """Templated facts about ``people`` persons: residence, favourite colour, employer, pets."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        who = _name(rng.randrange(people))
        kind = rng.randrange(4)
        if kind == 0:
            out.append(f"{who} lives in {rng.choice(_CITIES)}")
        elif kind == 1:
            out.append(f"{who}'s favourite colour is {rng.choice(_COLOURS)}")
        elif kind == 2:
            out.append(f"{who} works at {rng.choice(_FIRMS)}")
        else:
            out.append(f"{who} has {rng.randrange(1, 6)} cats")
    return out


def _open(path: Path) -> TieredMemoryStore:
    return TieredMemoryStore(f"sqlite:///{path}", embeddings=FakeEmbeddings(),
                             config=MemoryConfig(rerank_enabled=False))


def build(path: Path, texts: list[str]) -> None:
    """Write ``texts`` with every check off (the base every configuration copies)."""
    store = _open(path)
    store.detect_contradictions = False
    store.auto_link = False
    for start in range(0, len(texts), 500):
        store.add_many(texts[start : start + 500], namespace=NS)
    store.close()


def measure(
    base: Path, work: Path, *, checks: bool, links: bool, singles: list[str],
    batches: list[list[str]],
) -> dict[str, float]:
    """Time single adds and ``add_many`` batches on a fresh copy of ``base``."""
    shutil.copyfile(base, work)
    store = _open(work)
    store.detect_contradictions = checks
    store.auto_link = links
    store.add("warm up: load the namespace index", namespace=NS)
    one: list[float] = []
    for text in singles:
        t0 = time.perf_counter()
        store.add(text, namespace=NS)
        one.append((time.perf_counter() - t0) * 1000)
    many: list[float] = []
    for batch in batches:
        t0 = time.perf_counter()
        store.add_many(batch, namespace=NS)
        many.append((time.perf_counter() - t0) * 1000)
    found = len(store.contradictions(NS))
    store.close()
    return {"add_median": statistics.median(one), "add_mean": statistics.fmean(one),
            "add_p95": sorted(one)[int(0.95 * (len(one) - 1))],
            "many_median": statistics.median(many), "many_mean": statistics.fmean(many),
            "found": found}


def run(name: str, texts: list[str], singles: list[str], batches: list[list[str]]) -> None:
    """Build one dataset and print the three configurations."""
    with tempfile.TemporaryDirectory() as tmp:
        base, work = Path(tmp) / "base.db", Path(tmp) / "work.db"
        t0 = time.perf_counter()
        build(base, texts)
        print(f"\n[{name}] {len(texts):,} entries in one namespace (built in "
              f"{time.perf_counter() - t0:.1f} s); {len(singles)} single adds, "
              f"{len(batches)} x add_many({len(batches[0])})")
        print(f"    {'configuration':<34}{'add med':>9}{'mean':>8}{'p95':>8}"
              f"{'add_many med':>14}{'mean':>9}{'contradictions':>16}")
        for label, checks, links in (("baseline: checks off, links off", False, False),
                                     ("baseline: checks off (links on)", False, True),
                                     ("checks on (links on, default)", True, True)):
            r = measure(base, work, checks=checks, links=links, singles=singles,
                        batches=batches)
            print(f"    {label:<34}{r['add_median']:>7.2f}ms{r['add_mean']:>6.2f}ms"
                  f"{r['add_p95']:>6.2f}ms{r['many_median']:>12.1f}ms{r['many_mean']:>7.1f}ms"
                  f"{int(r['found']):>16}")


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--single", type=int, default=60, help="single adds per configuration")
    parser.add_argument("--batches", type=int, default=5, help="add_many(100) calls")
    args = parser.parse_args()
    words = synthetic_texts(SIZE + args.single + 100 * args.batches, seed=7)
    extra = words[SIZE:]
    run("random words", words[:SIZE], extra[: args.single],
        [extra[args.single + 100 * i : args.single + 100 * (i + 1)] for i in range(args.batches)])
    facts = fact_texts(SIZE, seed=1)
    more = fact_texts(args.single + 100 * args.batches, seed=2)
    run("facts", facts, more[: args.single],
        [more[args.single + 100 * i : args.single + 100 * (i + 1)] for i in range(args.batches)])
    print("\ntargets (random words, checks on): add <= 5 ms, add_many(100) <= 300 ms")


if __name__ == "__main__":
    main()
