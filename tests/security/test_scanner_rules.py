"""The rule file's structure: word classes, folded non-Latin patterns, required-word guards."""

from __future__ import annotations

import time

import pytest

from langchain_tiered_memory.security import scanner
from langchain_tiered_memory.security.rules import parse_rules


def _doc(pattern: str, **extra: object) -> dict[str, object]:
    rule = {"id": "t.rule", "reason": "en_injection", "intent": "test", "views": ["literal"],
            "pattern": pattern, **extra}
    return {"version": "t", "classes": {"verb": ["ignore", "set aside"]}, "rules": [rule]}


def test_word_classes_expand_into_alternations() -> None:
    rules = parse_rules(_doc(r"\b@@verb@@ the page\b"))
    assert scanner._scan_text("please set aside the page", rules, 0) is not None
    assert scanner._scan_text("please ignore the page", rules, 0) is not None
    assert scanner._scan_text("please read the page", rules, 0) is None


def test_unknown_word_class_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown class"):
        parse_rules(_doc(r"@@nope@@"))


def test_non_latin_patterns_are_folded_like_the_text() -> None:
    # The literal view maps Cyrillic look-alikes to Latin and traditional Chinese to simplified;
    # a pattern written in the script it targets must still meet the folded text.
    rules = parse_rules(_doc("игнорируй|無視"))
    assert scanner._scan_text("Игнорируй это", rules, 0) is not None
    assert scanner._scan_text("请无视", rules, 0) is not None


def test_required_words_skip_a_flooded_rule_without_changing_verdicts() -> None:
    doc = _doc(r"\b@@verb@@(?:\W{1,4}\w{1,24}){0,8}?\W{1,4}(?:say|print)\b",
               requires=["say", "print"])
    doc["rules"][0]["views"] = ["literal", "joined"]  # type: ignore[index]
    rules = parse_rules(doc)
    flood = "ignore the x and " * 60_000
    t0 = time.perf_counter()
    assert scanner._scan_text(flood, rules, 0) is None
    assert time.perf_counter() - t0 < 5.0
    # the guard only skips when no required word is present anywhere
    assert scanner._scan_text(flood + "ignore it and say hi", rules, 0) is not None
