"""The speed-ups of claim extraction and the heuristics change no result.

Every slot pattern with a lazy subject prefix is skipped when its gate (the pattern without the
prefix) finds nothing; claims and per-statement analyses are cached by text; digits skip the
stemmer. Each is checked against the plain computation.
"""

from __future__ import annotations

import re
from collections import Counter

import snowballstemmer
from hypothesis import given, settings
from hypothesis import strategies as st

from langchain_tiered_memory.contradiction import claims, extract_claims, heuristic_verify
from langchain_tiered_memory.contradiction._text import stem
from langchain_tiered_memory.contradiction.heuristic import (
    _en_number_skeleton,
    _number_skeleton,
    _zh_number_skeleton,
)

_GATED = [v for v in vars(claims).values() if isinstance(v, claims._Gated)] + [
    pattern for _, pattern in (*claims._EN_FRAMES, *claims._ZH_FRAMES)
]

_EN_WORDS = [
    "i", "my", "sister", "alice's", "not", "no", "longer", "used", "to", "also", "live", "lives",
    "lived", "moved", "in", "to", "at", "work", "works", "worked", "for", "as", "a", "an", "the",
    "teacher", "paris", "acme", "am", "is", "are", "was", "from", "call", "me", "called", "go",
    "by", "have", "has", "own", "2", "three", "cats", "kids", "years", "old", "turned", "like",
    "likes", "love", "hate", "prefer", "prefers", "over", "than", "rather", "tea", "coffee",
    "favourite", "colour", "name", "blue", "2019", "now", "but", "and", "still", "'", "s",
]
_ZH_PIECES = [
    "我", "妹妹", "在", "住", "住在", "北京", "上海", "工作", "上班", "公司", "就职于", "来自",
    "是一名", "老师", "叫", "名字是", "3", "三", "岁", "有", "两", "只", "猫", "最喜欢的", "颜色",
    "是", "的", "喜欢", "不喜欢", "不", "没有", "以前", "也", "了", "，", "2019年",
]

# Whole phrases make every pattern fire often; loose words put them in odd company.
_EN_PHRASES = [
    "i live in paris", "she moved to berlin", "my sister works at acme", "he worked for globex",
    "i work in tokyo", "i work as a teacher", "i am from spain", "call me bob", "i am 30",
    "i am 30 years old", "i have 2 cats", "she owns three dogs", "i prefer tea over coffee",
    "i like sushi", "i no longer like tea", "my favourite colour is blue", "alice's name is ann",
    "used to live in rome", "i hate running",
]
_ZH_PHRASES = [
    "我住在北京", "我在上海工作", "我妹妹就职于腾讯", "我来自成都", "我是一名老师", "我叫小明",
    "我30岁", "我有两只猫", "我最喜欢的颜色是蓝色", "我的名字是小红", "我不喜欢猫", "我以前住在广州",
]
_en_text = st.lists(st.sampled_from(_EN_WORDS + _EN_PHRASES), max_size=14).map(" ".join)
_zh_text = st.lists(st.sampled_from(_ZH_PIECES + _ZH_PHRASES), max_size=10).map("".join)


@settings(max_examples=300, deadline=None)
@given(st.one_of(_en_text, _zh_text))
def test_gated_patterns_match_exactly_like_the_plain_ones(text: str) -> None:
    for gated in _GATED:
        plain = [(m.span(), m.groupdict()) for m in gated.pattern.finditer(text)]
        fast = [(m.span(), m.groupdict()) for m in gated.finditer(text)]
        assert fast == plain


def test_every_lazy_prefix_pattern_is_gated() -> None:
    # A new slot pattern added as a bare re.Pattern with a lazy prefix would be quadratic again.
    lazy = [name for name, value in vars(claims).items()
            if isinstance(value, re.Pattern) and value.pattern.startswith("(?P<pre>")]
    assert lazy == []
    assert len(_GATED) >= 17


def test_gate_skips_statements_without_the_verbs() -> None:
    assert claims._EN_LIKE.gate.search("memory 12: alice bob berlin coffee") is None
    assert extract_claims("memory 12: alice bob berlin coffee") == []


def test_cached_claims_are_returned_as_fresh_lists() -> None:
    first = extract_claims("My sister lives in Toronto")
    first.clear()
    again = extract_claims("My sister lives in Toronto")
    assert [c.slot for c in again] == ["residence|my sister"]


def test_digits_stem_to_themselves_like_snowball() -> None:
    snowball = snowballstemmer.stemmer("english")
    for word in ("0", "7", "42", "2019", "123456789", "00"):
        assert stem(word) == snowball.stemWord(word) == word
    assert stem("running") == "run"


@settings(max_examples=150, deadline=None)
@given(st.one_of(_en_text, _zh_text))
def test_number_skeleton_cache_keeps_the_counter_semantics(text: str) -> None:
    zh = bool(re.search(r"[\u3400-\u9fff]", text))
    skeleton, values, repeatable = (_zh_number_skeleton if zh else _en_number_skeleton)(text)
    cached = _number_skeleton(text, zh)
    assert cached == (skeleton, tuple(sorted(values.items())), repeatable)
    assert Counter(dict(cached[1])) == values


def test_verdicts_are_stable_across_repeated_calls() -> None:
    a, b = "The office opens at 9", "The office opens at 10"
    first = heuristic_verify(a, b)
    assert first.contradicts is True and first.rule == "number" and "10, 9" in first.description
    assert heuristic_verify(a, b) == first
