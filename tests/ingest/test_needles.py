"""`needles`: literals every match of a pattern holds, the extraction rules' cheap pre-test."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from langchain_tiered_memory.ingest import extraction
from langchain_tiered_memory.ingest.extraction import _EN_TABLE, _ZH_TABLE, _facts_in_sentence
from langchain_tiered_memory.ingest.extraction_rules import Rule
from langchain_tiered_memory.ingest.needles import needles

DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data"


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        (r"abc", ("abc",)),
        (r"x*hello", ("hello",)),
        (r"(?:foo)?bar", ("bar",)),
        (r"[ab]cd", ("cd",)),
        (r"(?i:Brother)", ("brother",)),  # compared lower-cased
        (r"(?:I|i)(?:'m|\s+am)", ("'m", "am")),
        (r"(?:\bmy|our)\s+(?:dog|cat)s?", ("cat", "dog")),
        (r"a|bc", None),  # one branch has no literal of two characters
        (r"(?=zz)q", None),  # look-arounds require nothing
        (r"(ab){0,3}", None),  # may repeat zero times
        (r"(a)(?(1)xyz|)", None),  # conditionals require nothing
    ],
)
def test_needles_of_small_patterns(pattern: str, expected: tuple[str, ...] | None) -> None:
    assert needles(re.compile(pattern)) == expected


def _sentences() -> list[str]:
    texts = []
    for name in ("extraction.jsonl", "contradictions.jsonl"):
        for line in (DATA / name).read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            texts += [row[k] for k in ("text", "a", "b") if isinstance(row.get(k), str)]
    return texts


def test_every_match_of_every_extraction_rule_holds_one_of_its_needles() -> None:
    rules = [r for r in (*_EN_TABLE, *_ZH_TABLE) if r.needles is not None]
    assert len(rules) > 100  # nearly every rule gets a pre-test
    matched = 0
    for sentence in _sentences():
        for rule in rules:
            for match in rule.pattern.finditer(sentence):
                matched += 1
                assert any(n in match.group(0).lower() for n in rule.needles), (rule, sentence)
    assert matched > 100


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(
    ["I'm", "i am", "my", "our", "brother", "allergic", "to", "peanuts", "我", "喜欢", "绿茶",
     "never", "work", "as", "a", "nurse", "from", "now", "on", "answer", "in", "Spanish", ",",
     ".", "'", "MY", "Sister", "is", "called", "Mia", "vegetarian", "budget", "$300"]),
    min_size=1, max_size=14))
def test_a_pattern_never_matches_a_sentence_without_its_needles(words: list[str]) -> None:
    sentence = " ".join(words)
    lowered = sentence.lower()
    for rule in (*_EN_TABLE, *_ZH_TABLE):
        if rule.needles is not None and not any(n in lowered for n in rule.needles):
            assert rule.pattern.search(sentence) is None, (rule.pattern.pattern, sentence)


def _untested(rules: tuple[Rule, ...]) -> tuple[Rule, ...]:
    """Copies of ``rules`` without their pre-test (every rule tried on every sentence)."""
    out = []
    for rule in rules:
        bare = copy.copy(rule)
        object.__setattr__(bare, "needles", None)
        out.append(bare)
    return tuple(out)


def test_extraction_reads_the_same_facts_with_and_without_the_pre_test(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sentences = [*_sentences(), "I'm allergic to peanuts and my sister is called Mia."]
    with_test = [[repr(f) for f in _facts_in_sentence(s, i)] for i, s in enumerate(sentences)]
    monkeypatch.setattr(extraction, "_EN_TABLE", _untested(_EN_TABLE))
    monkeypatch.setattr(extraction, "_ZH_TABLE", _untested(_ZH_TABLE))
    full = [[repr(f) for f in _facts_in_sentence(s, i)] for i, s in enumerate(sentences)]
    assert with_test == full
    assert sum(map(bool, full)) > 100  # the comparison covers many facts
