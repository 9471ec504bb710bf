"""The offline verifier on the brief's cases, compatible pairs, and the labelled suite's bars."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from langchain_tiered_memory.contradiction import (
    HeuristicVerifier,
    Verifier,
    extract_claims,
    heuristic_verify,
)

SUITE = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "contradictions.jsonl"

CONTRADICTING = [
    ("My favourite colour is blue.", "My favourite colour is green.", "same_slot"),
    ("I like sushi.", "I no longer like sushi.", "negation"),
    ("I like sushi.", "I doesn't like sushi.", "negation"),
    ("I have 2 kids.", "I have 3 kids.", "same_slot"),
    ("I moved to Berlin in 2019.", "I moved to Berlin in 2021.", "number"),
    ("I live in Paris.", "I live in London.", "same_slot"),
    ("I work at Google.", "I work at Microsoft now.", "same_slot"),
    ("I love jazz.", "I hate jazz.", "polarity"),
    ("I prefer tea over coffee.", "I prefer coffee over tea.", "polarity"),
    ("我喜欢猫。", "我不再喜欢猫了。", "negation"),
    ("我喜欢猫。", "我不喜欢猫。", "negation"),
    ("我住在北京。", "我住在上海。", "same_slot"),
    ("我有两个孩子。", "我有三个孩子。", "same_slot"),
    ("我2019年搬到了柏林。", "我2021年搬到了柏林。", "number"),
    ("我是素食者。", "我不是素食者。", "negation"),
    ("我对花生过敏。", "我对花生不过敏。", "negation"),
    ("我戒烟了。", "我每天都抽烟。", "negation"),
]

COMPATIBLE = [
    ("I like tea.", "I also like coffee."),
    ("I live in Paris.", "I lived in London before moving to Paris."),
    ("I moved to Berlin in 2019.", "I moved to Munich in 2021."),
    ("My brother is a doctor.", "My brother is very tall."),
    ("I live in Paris.", "My sister lives in London."),
    ("I don't like horror movies.", "I like comedy movies."),
    ("I work every day.", "I don't work on Sunday."),
    ("我喜欢喝茶。", "我也喜欢喝咖啡。"),
    ("我住在北京。", "我以前在上海住过三年。"),
    ("我在腾讯工作。", "我在北京工作。"),  # an employer and a city are different slots
    ("我觉得这个不错。", "我觉得这个很好。"),  # 不错 is not a negation
    ("I have 2 kids.", "I live in Paris."),
    ("我叫王伟。", "我的狗叫旺财。"),
    ("I live in Paris.", "I live in Paris."),
]


@pytest.mark.parametrize(("a", "b", "rule"), CONTRADICTING)
def test_flags_contradictions(a: str, b: str, rule: str) -> None:
    for x, y in ((a, b), (b, a)):  # symmetric
        verdict = heuristic_verify(x, y)
        assert verdict.contradicts is True, (x, y, verdict)
        assert verdict.rule == rule
        assert 0.5 <= verdict.confidence <= 1.0
        assert verdict.description


@pytest.mark.parametrize(("a", "b"), COMPATIBLE)
def test_does_not_flag_compatible_or_unrelated(a: str, b: str) -> None:
    for x, y in ((a, b), (b, a)):
        verdict = heuristic_verify(x, y)
        assert verdict.contradicts is False, (x, y, verdict)


def test_repeatable_events_are_unsure() -> None:
    verdict = heuristic_verify("I visited Tokyo in 2018.", "I visited Tokyo in 2022.")
    assert verdict.contradicts is None
    assert verdict.unsure


def test_same_key_different_value_is_a_contradiction() -> None:
    verdict = heuristic_verify("dark", "light", key_a="ui.theme", key_b="UI.theme ")
    assert verdict.contradicts is True
    assert verdict.rule == "same_key"
    assert heuristic_verify("dark", "light", key_a="ui.theme", key_b="ui.font").contradicts is False
    same = heuristic_verify("dark mode", "Dark mode.", key_a="ui.theme", key_b="ui.theme")
    assert same.contradicts is False


def test_used_to_denies_the_present() -> None:
    assert heuristic_verify("I used to live in Madrid.", "I still live in Madrid.").contradicts
    assert heuristic_verify("I used to live in Madrid.", "I live in Oslo.").contradicts is False


def test_claims_read_slots() -> None:
    claims = extract_claims("My sister lives in Toronto.")
    assert [(c.slot, c.value, c.positive) for c in claims] == [
        ("residence|my sister", "toronto", True)
    ]
    zh = extract_claims("我妹妹现在住在成都。")
    assert [(c.slot, c.value) for c in zh] == [("residence|我妹妹", "成都")]
    assert extract_claims("Nothing to see here.") == []


async def test_verifier_protocol_and_async() -> None:
    verifier = HeuristicVerifier()
    assert isinstance(verifier, Verifier)
    verdict = await verifier.averify("I live in Paris.", "I live in London.")
    assert verdict.contradicts is True
    assert verifier.verify("I live in Paris.", "I live in London.") == verdict


def _suite() -> list[dict[str, str]]:
    with SUITE.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def test_suite_shape() -> None:
    rows = _suite()
    assert len(rows) >= 60
    en = sum(r["lang"] == "en" for r in rows)
    assert abs(en - (len(rows) - en)) <= 2
    assert {r["label"] for r in rows} == {"contradiction", "compatible", "unrelated"}
    assert len({r["id"] for r in rows}) == len(rows)


@pytest.mark.parametrize("split", ["all", "holdout"])
def test_suite_precision_and_recall(split: str) -> None:
    rows = [r for r in _suite() if split == "all" or r["split"] == split]
    tp = fp = fn = 0
    for row in rows:
        flagged = heuristic_verify(row["a"], row["b"]).contradicts is True
        gold = row["label"] == "contradiction"
        tp += flagged and gold
        fp += flagged and not gold
        fn += gold and not flagged
    precision = tp / (tp + fp)
    recall = tp / (tp + fn)
    assert precision >= 0.95, (precision, recall)
    assert recall >= 0.7, (precision, recall)


def test_blind_helper_dev_split_bars() -> None:
    """The independently written pairs that may be read (split dev; blind is never read here)."""
    path = SUITE.parent / "contradictions_blind.jsonl"
    with path.open(encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    rows = [r for r in rows if r["split"] == "dev"]
    assert len(rows) >= 60
    flagged = [(heuristic_verify(r["a"], r["b"]).contradicts is True, r["label"]) for r in rows]
    tp = sum(f and label == "contradiction" for f, label in flagged)
    fp = sum(f and label != "contradiction" for f, label in flagged)
    fn = sum(not f and label == "contradiction" for f, label in flagged)
    assert tp / (tp + fp) >= 0.9 and tp / (tp + fn) >= 0.7, (tp, fp, fn)
