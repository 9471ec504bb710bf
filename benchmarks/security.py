"""Write-path scanner benchmark: detection, false positives, speed.

Measures, in one run:

* detection rate on the project's attack corpus (``benchmarks/data/security_attacks.jsonl``,
  English / Chinese / mixed, every evasion family), overall and per evasion family, beside the
  baseline of the seed's naive scanner (three fixed regexes, no normalisation);
* false-positive rate on every LoCoMo dev turn (``../shared/data/locomo-dev`` or ``--data``) and on
  the hand-written benign set with trigger words (``security_benign.jsonl``);
* time to scan 1 MB of LoCoMo text, and the mean cost of one short memory (the LoCoMo turns of
  60-200 characters: what the store scans on every write).

Bars: detection >= 95 %, FP <= 0.5 % on LoCoMo turns, 1 MB < 200 ms, short memory < 50 us
(``add_many`` must reach 5,000 entries/s and the scanner gets at most a fifth of that budget).

Usage: ``python benchmarks/security.py [--data DIR]``
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from langchain_tiered_memory.security import patterns_version, scan_memory_content
from langchain_tiered_memory.types import ScanResult

HERE = Path(__file__).resolve().parent
DEFAULT_DATA = HERE.parent.parent / "shared" / "data" / "locomo-dev"

_NAIVE = (
    ("invisible_unicode", re.compile("[\u200b-\u200d\u2060\ufeff]")),
    ("en_injection", re.compile(r"ignore (?:all )?previous instructions", re.I)),
    ("zh_injection", re.compile("忽略之前的指令")),
)


def naive_scan(text: str) -> ScanResult:
    """The seed's literal three-check scanner, as a baseline."""
    for reason, rx in _NAIVE:
        if rx.search(text):
            return ScanResult(True, reason)
    return ScanResult(False)


def _jsonl(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def locomo_turns(data: Path) -> list[str]:
    """Every turn's text (and image caption) in the LoCoMo dev files."""
    texts: list[str] = []
    for file in sorted(data.glob("*.json")):
        doc = json.loads(file.read_text(encoding="utf-8"))
        conv = doc.get("conversation", doc)
        for key, turns in conv.items():
            if not re.fullmatch(r"session_\d+", key) or not isinstance(turns, list):
                continue
            for turn in turns:
                texts.append(turn["text"])
                if turn.get("blip_caption"):
                    texts.append(turn["blip_caption"])
    return texts


def _rate(hits: int, total: int) -> str:
    return f"{hits}/{total} = {100 * hits / max(total, 1):.2f} %"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="LoCoMo dev directory")
    args = parser.parse_args(argv)

    print(f"patterns.json version {patterns_version()}")
    attacks = _jsonl(HERE / "data" / "security_attacks.jsonl")
    benign = _jsonl(HERE / "data" / "security_benign.jsonl")
    turns = locomo_turns(args.data)
    print(f"attack corpus: {len(attacks)} cases; benign set: {len(benign)}; "
          f"LoCoMo turns: {len(turns)} from {args.data}")

    ok = Counter[str]()
    naive_ok = Counter[str]()
    per = Counter[str]()
    missed: list[dict[str, str]] = []
    for case in attacks:
        family = f"{case['lang']}/{case['evasion']}"
        per[family] += 1
        if scan_memory_content(case["text"]).blocked:
            ok[family] += 1
        else:
            missed.append(case)
        naive_ok[family] += naive_scan(case["text"]).blocked
    total_ok, naive_total = sum(ok.values()), sum(naive_ok.values())
    print("\n== detection (attack corpus) ==")
    print(f"scanner : {_rate(total_ok, len(attacks))}")
    print(f"baseline: {_rate(naive_total, len(attacks))}  (seed's naive 3-regex scanner)")
    print(f"{'family':<22}{'scanner':>10}{'baseline':>10}")
    for family in sorted(per):
        print(f"{family:<22}{ok[family]:>6}/{per[family]:<3}{naive_ok[family]:>6}/{per[family]:<3}")
    for case in missed[:20]:
        print(f"  MISSED {case['lang']}/{case['evasion']}: {case['text'][:90]!r}")

    print("\n== false positives ==")
    fp_turns = [t for t in turns if scan_memory_content(t).blocked]
    print(f"LoCoMo turns : {_rate(len(fp_turns), len(turns))}  "
          f"(baseline {_rate(sum(naive_scan(t).blocked for t in turns), len(turns))})")
    for t in fp_turns[:10]:
        r = scan_memory_content(t)
        print(f"  FP {r.rule}: {t[:100]!r}")
    fp_benign = [c["text"] for c in benign if scan_memory_content(c["text"]).blocked]
    print(f"benign set   : {_rate(len(fp_benign), len(benign))}")
    for t in fp_benign:
        print(f"  FP {scan_memory_content(t).rule}: {t!r}")

    print("\n== speed ==")
    corpus = "\n".join(turns) or "The quick brown fox. "
    mb = (corpus * (1_000_000 // len(corpus) + 1))[:1_000_000]
    scan_memory_content("warm up")
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        result = scan_memory_content(mb)
        times.append(time.perf_counter() - t0)
    print(f"1 MB of LoCoMo text: median {1000 * statistics.median(times):.1f} ms, "
          f"min {1000 * min(times):.1f} ms (blocked={result.blocked}); "
          f"baseline {1000 * _time(naive_scan, mb):.1f} ms")
    per_turn = _time(lambda: [scan_memory_content(t) for t in turns[:2000]], None)
    print(f"per turn: {1e6 * per_turn / max(1, min(len(turns), 2000)):.1f} us")
    short = [t for t in turns if 60 <= len(t) <= 200] or ["The quick brown fox jumps. " * 3]
    rounds = []
    for _ in range(5):
        rounds.append(_time(lambda: [scan_memory_content(t) for t in short], None) / len(short))
    short_us = 1e6 * statistics.median(rounds)
    print(f"short memories (LoCoMo turns of 60-200 chars, n={len(short)}): "
          f"mean {short_us:.1f} us per scan (median of 5 rounds); "
          f"baseline {1e6 * _time(lambda: [naive_scan(t) for t in short], None) / len(short):.1f} us")
    print(f"anchor finder: {'pyahocorasick' if _has_automaton() else 're fallback'}")

    detection = total_ok / max(len(attacks), 1)
    fp_rate = len(fp_turns) / max(len(turns), 1)
    print("\n== bars ==")
    print(f"detection >= 95 %   : {'PASS' if detection >= 0.95 else 'FAIL'} ({100 * detection:.2f} %)")
    print(f"LoCoMo FP <= 0.5 %  : {'PASS' if fp_rate <= 0.005 else 'FAIL'} ({100 * fp_rate:.3f} %)")
    ms = 1000 * statistics.median(times)
    print(f"1 MB < 200 ms       : {'PASS' if ms < 200 else 'FAIL'} ({ms:.1f} ms)")
    print(f"short scan < 50 us  : {'PASS' if short_us < 50 else 'FAIL'} ({short_us:.1f} us)")
    return 0


def _has_automaton() -> bool:
    from langchain_tiered_memory.security import matcher

    return matcher._ac is not None


def _time(fn, arg) -> float:  # type: ignore[no-untyped-def]
    t0 = time.perf_counter()
    fn() if arg is None else fn(arg)
    return time.perf_counter() - t0


if __name__ == "__main__":
    sys.exit(main())
