"""Precision and recall of the offline contradiction verifier on the project's labelled pairs.

Data: benchmarks/data/contradictions.jsonl, pairs written for this project, half English, half
Chinese, labelled ``contradiction`` / ``compatible`` / ``unrelated``. Split ``dev`` (65 pairs) was
written before the rules and used while writing them; split ``holdout`` (32 pairs) was written
after the rules were frozen and never used to tune them.

Baseline, in the same run: "flag when the two statements share at least half their words"
(word Jaccard >= 0.5, Chinese by character bigrams), the obvious overlap-only detector.

Run:  .venv/bin/python benchmarks/contradictions.py [--show-errors]
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from langchain_tiered_memory.contradiction import heuristic_verify
from langchain_tiered_memory.contradiction._text import (
    en_words,
    has_cjk,
    jaccard,
    normalize_en,
    zh_bigrams,
)

DATA = Path(__file__).parent / "data" / "contradictions.jsonl"
LABELS = ("contradiction", "compatible", "unrelated")


def load(path: Path = DATA) -> list[dict[str, str]]:
    """The labelled pairs."""
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _terms(text: str) -> set[str]:
    return zh_bigrams(text) if has_cjk(text) else set(en_words(normalize_en(text)))


def overlap_baseline(a: str, b: str) -> bool:
    """Flag a contradiction when the statements share at least half their terms."""
    return jaccard(_terms(a), _terms(b)) >= 0.5


def heuristic(a: str, b: str) -> bool:
    """The offline verifier; only a confident True counts as flagged."""
    return heuristic_verify(a, b).contradicts is True


def score(rows: list[dict[str, str]], predict: Callable[[str, str], bool]) -> dict[str, object]:
    """Precision, recall, F1 and a label x prediction confusion table."""
    table: Counter[tuple[str, bool]] = Counter()
    for row in rows:
        table[(row["label"], predict(row["a"], row["b"]))] += 1
    tp = table[("contradiction", True)]
    fp = sum(table[(label, True)] for label in LABELS if label != "contradiction")
    fn = table[("contradiction", False)]
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"n": len(rows), "tp": tp, "fp": fp, "fn": fn, "precision": precision,
            "recall": recall, "f1": f1, "table": table}


def _print_table(table: Counter[tuple[str, bool]]) -> None:
    print(f"    {'label':<14}{'flagged':>9}{'not flagged':>13}")
    for label in LABELS:
        print(f"    {label:<14}{table[(label, True)]:>9}{table[(label, False)]:>13}")


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--show-errors", action="store_true", help="list misjudged pairs")
    args = parser.parse_args()
    rows = load()
    by_label = Counter(r["label"] for r in rows)
    print(f"data: {DATA.name}: {len(rows)} pairs "
          f"({', '.join(f'{k} {v}' for k, v in sorted(by_label.items()))}); "
          f"en {sum(r['lang'] == 'en' for r in rows)}, zh {sum(r['lang'] == 'zh' for r in rows)}")
    slices = {
        "all": rows,
        "dev": [r for r in rows if r["split"] == "dev"],
        "holdout": [r for r in rows if r["split"] == "holdout"],
        "en": [r for r in rows if r["lang"] == "en"],
        "zh": [r for r in rows if r["lang"] == "zh"],
    }
    for name, predict in (("heuristic verifier", heuristic), ("baseline: overlap>=0.5",
                                                              overlap_baseline)):
        start = time.perf_counter()
        results = {key: score(part, predict) for key, part in slices.items()}
        elapsed = time.perf_counter() - start
        print(f"\n{name}  ({elapsed * 1000 / (len(rows) * len(slices)):.2f} ms/pair)")
        print(f"    {'slice':<9}{'n':>4}{'tp':>4}{'fp':>4}{'fn':>4}{'precision':>11}{'recall':>8}"
              f"{'f1':>7}")
        for key, res in results.items():
            print(f"    {key:<9}{res['n']:>4}{res['tp']:>4}{res['fp']:>4}{res['fn']:>4}"
                  f"{res['precision']:>11.3f}{res['recall']:>8.3f}{res['f1']:>7.3f}")
        print("  confusion (all):")
        _print_table(results["all"]["table"])  # type: ignore[arg-type]
    overall = score(rows, heuristic)
    print(f"\ntargets: precision >= 0.9, recall >= 0.7 -> precision {overall['precision']:.3f}, "
          f"recall {overall['recall']:.3f}")
    if args.show_errors:
        for row in rows:
            verdict = heuristic_verify(row["a"], row["b"])
            if (verdict.contradicts is True) != (row["label"] == "contradiction"):
                print(f"  {row['id']} [{row['label']}] {row['a']} | {row['b']} -> {verdict}")


if __name__ == "__main__":
    main()
