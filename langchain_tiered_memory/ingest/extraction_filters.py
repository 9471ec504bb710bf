"""Sentence filters and wording helpers for heuristic extraction (English and Chinese).

A durable fact is not a passing state ("I'm tired today", "我今天好累"), a joke or sarcasm
("Sure, I'm a billionaire lol", "对对对，我是亿万富翁") or someone else's words ("apparently my
neighbour is moving"); these filters drop such sentences before any rule reads them. The wording
helpers turn a first-person verb phrase into the third person ("swim every morning" -> "swims
every morning") so that a statement reads "User swims every morning".
"""

from __future__ import annotations

import re

__all__ = ["is_passing_state", "is_sarcastic", "third_person_verb", "zh_third_person"]

_EN_PASSING_RE = re.compile(
    r"\b(?:today|tonight|right\s+now|this\s+(?:morning|afternoon|evening)"
    r"|give\s+me\s+a\s+(?:sec|second|minute)|for\s+now|just\s+got\s+back|waiting\s+for"
    r"|feeling\s+(?:kind\s+of\s+|a\s+bit\s+|so\s+|really\s+)?\w+)\b"
    r"|\bi(?:'m|\s+am)\s+(?:so\s+|really\s+|a\s+bit\s+|kind\s+of\s+|pretty\s+)?(?:tired|hungry"
    r"|sleepy|exhausted|bored|stressed|sick|thirsty|cold|hot|late|stuck|in\s+a\s+meeting"
    r"|at\s+the\s+(?:airport|station|gym|office|doctor'?s?|dentist))\b",
    re.IGNORECASE,
)
_ZH_PASSING_RE = re.compile(
    r"今天|今晚|今早|刚才|刚刚|这会儿|此刻|等一下|稍等|现在好|现在有点|有点(?:累|饿|困|烦|头疼|冷|热)"
    r"|好累|好饿|好困|在开会|在路上|在机场|在车站|在等"
)
_EN_SARCASM_RE = re.compile(
    r"\b(?:lol|lmao|rofl|haha\w*|hehe|jk|just\s+kidding|yeah\s+right|as\s+if|oh\s+sure"
    r"|sure\s+thing|oh\s+(?:yes|great|joy|wonderful|sure|totally))\b|/s\b"
    r"|[😂🙄😏🤣😜]|^\W*(?:great|perfect|wonderful|fantastic|brilliant|awesome|lovely),\s+(?:another"
    r"|more|just)\b|\bjust\s+what\s+i\s+needed\b|\bfavou?rite\s+thing\s+ever\b",
    re.IGNORECASE,
)
# Shouted praise is how sarcasm is typed ("I just LOVE working overtime").
_EN_SHOUTED_RE = re.compile(r"\b(?:LOVE|ADORE|LOVED|AMAZING|GREAT|FANTASTIC|WONDERFUL|BEST)\b")
_ZH_SARCASM_RE = re.compile(r"哈哈|呵呵|嘿嘿|开玩笑|笑死|才怪|对对对|可太|爱死了|真是太.{1,6}了呢|[😂🙄😏🤣😜]")

_IRREGULAR = {"have": "has", "do": "does", "go": "goes", "am": "is", "are": "is", "'m": "is"}
_KEEP = frozenset(
    ["can", "could", "will", "would", "should", "must", "might", "may", "always", "usually",
     "never", "often", "still", "also", "just", "normally", "rarely", "sometimes", "only",
     "really", "generally", "mostly"]
)


def is_passing_state(sentence: str, *, zh: bool) -> bool:
    """Whether ``sentence`` describes a passing state rather than a durable fact."""
    return bool((_ZH_PASSING_RE if zh else _EN_PASSING_RE).search(sentence))


def is_sarcastic(text: str) -> bool:
    """Whether ``text`` carries a joke or sarcasm marker (``lol``, ``yeah right``, ``哈哈``)."""
    return bool(
        _EN_SARCASM_RE.search(text) or _EN_SHOUTED_RE.search(text) or _ZH_SARCASM_RE.search(text)
    )


def _verb_s(word: str) -> str:
    lower = word.lower()
    if lower in _IRREGULAR:
        return _IRREGULAR[lower]
    if lower.endswith(("s", "sh", "ch", "x", "z", "o")):
        return word + "es"
    if len(lower) > 2 and lower.endswith("y") and lower[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def third_person_verb(phrase: str) -> str:
    """Conjugate the first verb of a first-person phrase for a third-person subject."""
    words = phrase.split(" ")
    for i, word in enumerate(words):
        if word.lower() in _KEEP:
            if word.lower() in ("can", "could", "will", "would", "should", "must", "might", "may"):
                return phrase
            continue
        words[i] = _verb_s(word)
        break
    return " ".join(words)


def zh_third_person(text: str) -> str:
    """Rewrite a Chinese first-person sentence with 用户 as the speaker ("我们家" -> "用户家")."""
    return (text.replace("我们家", "用户家").replace("我的", "用户的").replace("我们", "用户")
            .replace("我", "用户"))
