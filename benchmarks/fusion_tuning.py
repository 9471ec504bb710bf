"""How the ``linear`` fusion weights were chosen, and what they give on a conversation they never saw.

For each LoCoMo dev conversation held out in turn, the three weights (normalised BM25, normalised
similarity, query coverage) are fitted by logistic regression on the candidates of the other two
conversations (label: the candidate is an evidence turn), then the held-out conversation is ranked
with them. The blind (leave-one-conversation-out) R@k is printed beside the keyword path and the
seed's RRF on the same candidates, and beside the weights fitted on all three (the shipped
defaults). Candidates, BM25 and coverage come from the package's own `KeywordIndex`, `coverage`
and `linear_fusion`; the gate is left out here (``benchmarks/locomo.py`` measures the whole
pipeline through the retriever).

Usage: ``python benchmarks/fusion_tuning.py [--data DIR]``
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import numpy as np

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from locomo import DEFAULT_DATA, KS, load_conversations

from langchain_tiered_memory import MemoryConfig
from langchain_tiered_memory.embeddings import LocalEmbeddings
from langchain_tiered_memory.retrieval import KeywordIndex
from langchain_tiered_memory.retrieval.fusion import (
    FusionInput,
    coverage,
    linear_fusion,
    rrf_fusion,
)
from langchain_tiered_memory.text import is_stop_word, tokenize

POOL = MemoryConfig().candidate_pool


def _questions(data: Path) -> list[list[dict]]:
    """Per conversation: each question's candidates, their features and evidence labels."""
    emb = LocalEmbeddings()
    out = []
    for _name, turns, qa in load_conversations(data):
        ids = [t["dia_id"] for t in turns]
        index = KeywordIndex()
        index.add_many((t["dia_id"], tokenize(t["text"])) for t in turns)
        docs = np.array(emb.embed_documents([t["text"] for t in turns]), dtype=np.float32)
        qvecs = np.array(emb.embed_documents([q["question"] for q in qa]), dtype=np.float32)
        conv = []
        for q, qv in zip(qa, qvecs, strict=True):
            tokens = tokenize(q["question"])
            sims = docs @ qv
            kw = index.search(tokens, POOL)
            top = np.argsort(-sims, kind="stable")[:POOL]
            vec = [(ids[i], float(sims[i])) for i in top]
            cand = list(dict.fromkeys([d for d, _ in kw] + [d for d, _ in vec]))
            sim_of = {ids[i]: float(sims[i]) for i in range(len(ids))}
            content = [t for t in dict.fromkeys(tokens) if not is_stop_word(t)]
            cover = {d: coverage(content, index.terms_of(d), index.idf) for d in cand}
            inp = FusionInput(kw, vec, {d: sim_of[d] for d in cand}, cover,
                              index.score_ids(tokens, cand))
            parts = [
                linear_fusion(inp, _weights((1.0, 0.0, 0.0))),
                linear_fusion(inp, _weights((0.0, 1.0, 0.0))),
                linear_fusion(inp, _weights((0.0, 0.0, 1.0))),
            ]
            features = np.array([[p[d] for p in parts] for d in cand])
            labels = np.array([d in q["evidence"] for d in cand], dtype=float)
            conv.append({"cand": cand, "x": features, "y": labels, "ev": set(q["evidence"]),
                         "kw": [d for d, _ in kw], "rrf": rrf_fusion(inp, MemoryConfig())})
        out.append(conv)
    return out


def _weights(w: tuple[float, float, float]) -> MemoryConfig:
    return MemoryConfig(linear_keyword_weight=w[0], linear_vector_weight=w[1],
                        linear_coverage_weight=w[2])


def _fit(convs: list[list[dict]]) -> np.ndarray:
    """Logistic regression (gradient descent, small L2); weights normalised to sum to 1."""
    x = np.vstack([q["x"] for c in convs for q in c])
    y = np.concatenate([q["y"] for c in convs for q in c])
    w, b = np.zeros(x.shape[1]), 0.0
    for _ in range(600):
        p = 1 / (1 + np.exp(-(x @ w + b)))
        w -= 2.5 * (x.T @ (p - y) / len(y) + 1e-3 * w)
        b -= 2.5 * float((p - y).mean())
    return w / w.sum()


def _recall(order: list[str], evidence: set[str]) -> np.ndarray:
    return np.array([len(evidence & set(order[:k])) / len(evidence) for k in KS])


def _score(conv: list[dict], how: str, w: np.ndarray | None = None) -> np.ndarray:
    total = np.zeros(len(KS))
    for q in conv:
        if how == "keyword":
            order = q["kw"]
        elif how == "rrf":
            order = sorted(q["cand"], key=lambda d: -q["rrf"][d])
        else:
            s = q["x"] @ w
            order = [q["cand"][j] for j in np.argsort(-s, kind="stable")]
        total += _recall(order, q["ev"])
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args()
    convs = _questions(args.data)
    names = [p.stem for p in sorted(args.data.glob("*.json"))]
    print(f"data: {args.data} — {len(convs)} conversations, {sum(map(len, convs))} questions;"
          f" candidate pool {POOL} per list")
    print(f"{'held out':<10}{'weights (bm25, vector, coverage)':<36}"
          f"{'linear R@1/5/10':<24}{'keyword':<24}{'rrf':<24}")
    blind = {h: np.zeros(len(KS)) for h in ("linear", "keyword", "rrf")}
    n = 0
    for hold in range(len(convs)):
        w = _fit([c for i, c in enumerate(convs) if i != hold])
        conv = convs[hold]
        scores = {"linear": _score(conv, "linear", w), "keyword": _score(conv, "keyword"),
                  "rrf": _score(conv, "rrf")}
        for h, v in scores.items():
            blind[h] += v
        n += len(conv)
        print(f"{names[hold]:<10}{np.round(w, 3)!s:<36}" + "".join(
            f"{'/'.join(f'{x:.3f}' for x in scores[h] / len(conv)):<24}"
            for h in ("linear", "keyword", "rrf")))
    print("blind (leave-one-conversation-out): " + "  ".join(
        f"{h} {'/'.join(f'{x:.3f}' for x in v / n)}" for h, v in blind.items()))
    w_all = _fit(convs)
    shipped = MemoryConfig()
    print(f"fitted on all {len(convs)}: {np.round(w_all, 3)}; shipped defaults: "
          f"({shipped.linear_keyword_weight}, {shipped.linear_vector_weight}, "
          f"{shipped.linear_coverage_weight})")


if __name__ == "__main__":
    main()
