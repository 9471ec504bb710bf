"""tokenize: English stop words + Snowball stems, Chinese segmentation, mixed text, speed."""

from __future__ import annotations

import logging
import time

from langchain_tiered_memory.text import is_stop_word, stem, tokenize, tokenize_many


def test_english_lowercase_stop_words_and_stems() -> None:
    assert tokenize("The cats were Running in the Parks!") == ["cat", "run", "park"]
    assert tokenize("running runs ran") == ["run", "run", "ran"]


def test_apostrophes_and_possessives() -> None:
    assert tokenize("Alice's dog doesn't bark; I'm sure it's fine") == [
        "alic", "dog", "bark", "sure", "fine"
    ]
    assert tokenize("dont won’t") == []


def test_numbers_and_punctuation() -> None:
    assert tokenize("Flight BA-287 at 10:30, gate 7") == ["flight", "ba", "287", "10", "30", "gate", "7"]
    assert tokenize("") == [] and tokenize("  ,.;!? ") == []


def test_same_token_for_query_and_document_forms() -> None:
    assert set(tokenize("What are her hobbies?")) <= set(tokenize("Her hobby is painting"))


def test_chinese_segmentation_and_stop_words() -> None:
    toks = tokenize("我喜欢深色模式")
    assert "喜欢" in toks and "深色" in toks and "模式" in toks
    assert "我" not in toks
    # Search mode also yields sub-words, so a query for the short word finds the long one.
    assert {"北京", "大学", "北京大学"} <= set(tokenize("北京大学的学生"))
    assert "的" not in tokenize("北京大学的学生")


def test_mixed_text() -> None:
    toks = tokenize("我在用Python写Kubernetes配置 meetings")
    assert "python" in toks and "kubernet" in toks and "meet" in toks
    assert "配置" in toks


def test_stop_word_and_stem_helpers() -> None:
    assert is_stop_word("the") and is_stop_word("的") and not is_stop_word("cat")
    assert stem("running") == "run" and stem("abc123") == "abc123"
    assert tokenize_many(["cats", "dogs"]) == [["cat"], ["dog"]]


def test_jieba_does_not_touch_root_logger() -> None:
    root = logging.getLogger()
    level, handlers = root.level, list(root.handlers)
    tokenize("记忆系统")
    assert root.level == level and root.handlers == handlers


def test_tokenize_is_fast() -> None:
    text = "Caroline: I went to the LGBTQ support group yesterday and it was so powerful. " * 2
    tokenize(text)
    start = time.perf_counter()
    n = 0
    for _ in range(2000):
        n += len(tokenize(text))
    rate = n / (time.perf_counter() - start)
    assert rate > 100_000, f"{rate:.0f} tokens/s"
