"""Check the Chinese recall set (``benchmarks/data/zh_recall``) and print its size.

Every conversation must read like a LoCoMo file (so ``benchmarks/locomo.py --data <dir>`` can load
it), sit in exactly one split, and cite only turns that exist. Exits 1 and lists the problems
otherwise::

    python benchmarks/zh_recall_check.py [--data benchmarks/data/zh_recall]
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
from pathlib import Path
from typing import Any

DEFAULT_DATA = Path(__file__).resolve().parent / "data" / "zh_recall"
SPLITS = ("dev", "blind")
SESSIONS = range(4, 7)
TURNS_PER_SESSION = range(25, 46)
MIN_QUESTIONS = 30
KINDS = {"single_hop", "multi_hop", "temporal", "paraphrase", "update"}


def _sessions(raw: dict[str, Any]) -> list[int]:
    return sorted(int(m.group(1)) for k in raw if (m := re.fullmatch(r"session_(\d+)", k)))


def check_conversation(raw: dict[str, Any], name: str) -> list[str]:
    """Problems in one conversation file (empty when it is well formed)."""
    errors: list[str] = []
    speakers = {raw.get("speaker_a"), raw.get("speaker_b")}
    if None in speakers or len(speakers) != 2:
        errors.append(f"{name}: needs two distinct speaker_a / speaker_b")
    sessions = _sessions(raw)
    if sessions != list(range(1, len(sessions) + 1)) or len(sessions) not in SESSIONS:
        errors.append(f"{name}: sessions {sessions} are not 1..N with N in 4-6")
    ids: set[str] = set()
    for s in sessions:
        if not raw.get(f"session_{s}_date_time"):
            errors.append(f"{name}: session_{s} has no date_time")
        turns = raw[f"session_{s}"]
        if len(turns) not in TURNS_PER_SESSION:
            errors.append(f"{name}: session_{s} has {len(turns)} turns (want 25-45)")
        for n, turn in enumerate(turns, 1):
            if turn.get("dia_id") != f"D{s}:{n}" or turn.get("speaker") not in speakers:
                errors.append(f"{name}: bad turn {turn.get('dia_id')} in session_{s}")
            if not str(turn.get("text", "")).strip():
                errors.append(f"{name}: empty text in {turn.get('dia_id')}")
            ids.add(str(turn.get("dia_id")))
    qa = raw.get("qa", [])
    if len(qa) < MIN_QUESTIONS:
        errors.append(f"{name}: {len(qa)} questions (want >= {MIN_QUESTIONS})")
    seen: set[str] = set()
    for q in qa:
        evidence = q.get("evidence", [])
        if not q.get("question") or not q.get("answer") or q.get("kind") not in KINDS:
            errors.append(f"{name}: incomplete question {q.get('question')!r}")
        if not 1 <= len(evidence) <= 3 or not set(evidence) <= ids:
            errors.append(
                f"{name}: evidence {evidence} of {q.get('question')!r} missing or out of range"
            )
        if q.get("question") in seen:
            errors.append(f"{name}: duplicate question {q.get('question')!r}")
        seen.add(q.get("question"))
    return errors


def check(root: Path) -> tuple[list[str], list[tuple[str, str, dict[str, Any]]]]:
    """Problems across the set, and ``(split, file, conversation)`` for every listed file."""
    errors: list[str] = []
    splits = json.loads((root / "splits.json").read_text(encoding="utf-8"))
    listed = [(split, f) for split in SPLITS for f in splits.get(split, [])]
    on_disk = {str(p.relative_to(root)) for split in SPLITS for p in (root / split).glob("*.json")}
    names = [f for _, f in listed]
    if sorted(names) != sorted(on_disk) or len(set(names)) != len(names):
        errors.append(
            f"splits.json lists {sorted(names)} but the split folders hold {sorted(on_disk)}"
        )
    loaded = []
    for split, f in listed:
        if not f.startswith(f"{split}/"):
            errors.append(f"{f} is listed under {split} but lives elsewhere")
        try:
            raw = json.loads((root / f).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            errors.append(f"{f}: {exc}")
            continue
        errors += check_conversation(raw, f)
        loaded.append((split, f, raw))
    return errors, loaded


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args()
    errors, loaded = check(args.data)
    totals: collections.Counter[str] = collections.Counter()
    print(f"{'split':6} {'file':38} {'sess':>4} {'turns':>5} {'qa':>4}  kinds")
    for split, f, raw in loaded:
        turns = sum(len(raw[f"session_{s}"]) for s in _sessions(raw))
        kinds = collections.Counter(q.get("kind") for q in raw["qa"])
        totals.update({f"{split} turns": turns, f"{split} qa": len(raw["qa"])})
        print(
            f"{split:6} {f:38} {len(_sessions(raw)):4} {turns:5} {len(raw['qa']):4}  {dict(sorted(kinds.items()))}"
        )
    print(dict(totals))
    for e in errors:
        print("ERROR", e)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
