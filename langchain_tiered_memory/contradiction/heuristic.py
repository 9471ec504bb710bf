"""The offline contradiction verifier: rules over slot claims, negation and numbers (EN + ZH).

Rules, strongest first:

* ``negation`` - the two statements say the same thing once negation words are removed, and one
  of them is negated (``I am vegetarian`` / ``I am not vegetarian anymore``, ``我喜欢猫`` /
  ``我不喜欢猫``).
* ``polarity`` - a slot claim is affirmed by one and denied by the other (``likes sushi`` /
  ``no longer likes sushi``, ``used to live in Madrid`` / ``still live in Madrid``).
* ``number`` - the statements match once numbers, years and months are masked, but the numbers
  differ (``I have 2 kids`` / ``I have 3 kids``, ``2019年搬到了柏林`` / ``2021年…``). Repeatable
  events (``visited Rome in 2015`` / ``in 2018``) are reported as unsure instead.
* ``same_slot`` - an exclusive slot (residence, employer, name, a favourite...) holds two different
  present values, neither statement says it adds to the other (``also``, ``也``) and they are not
  pinned to different years (``moved to Berlin in 2019`` / ``moved to Munich in 2021`` is a
  sequence, not a conflict).
* ``same_key`` - the entries share a key but say different things.

Anything else is judged compatible.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from ._text import (
    EN_NUMBER_WORDS,
    en_words,
    has_cjk,
    normalize_en,
    normalize_zh,
    parse_number,
    stem,
    zh_bigrams,
)
from .claims import Claim, extract_claims
from .lexicon import COUNTRIES, REGIONS_ZH
from .profile_rules import profile_verdict
from .verdict import Verdict

__all__ = ["HeuristicVerifier", "heuristic_verify"]

_EN_NEG_PHRASES = re.compile(
    r"\b(?:no longer|not any ?more|not|never|no|quit|quitted|stopped|gave up|used to)\b"
)
_EN_FILLERS = {
    "a", "an", "the", "am", "is", "are", "do", "does", "did", "really", "still", "now",
    "currently", "anymore", "any", "more", "every", "day", "daily", "these", "days", "last",
    "year", "week", "month", "just", "actually", "also", "too", "all", "very", "much", "at",
    "moment", "nowadays", "today", "lately", "recently", "ago", "again", "ever", "have", "has",
    "been", "on", "in", "of", "to",
}
_EN_MONTHS = {
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep",
    "sept", "oct", "nov", "dec",
}
_REPEATABLE = {
    "visit", "went", "go", "goe", "travel", "trip", "saw", "see", "met", "meet", "ate", "eat",
    "play", "ran", "run", "watch", "read", "call", "flew", "fli", "attend", "bought", "buy",
    "去", "旅游", "旅行", "参观", "见", "看", "吃", "玩", "买", "跑",
}

_ZH_NEG_MARKERS = re.compile(r"不再|再也不|已经不|不是|不|没有|没|别")
_ZH_NOT_NEGATION = re.compile(r"不错|不过(?!敏)|不少|不同|不久|不断|不仅|差不多|不得不|不管|不如")
_ZH_QUIT = (("戒烟", "不抽烟"), ("戒酒", "不喝酒"), ("戒了", "不"), ("戒掉了", "不"), ("戒掉", "不"))
_ZH_FILLERS = re.compile(
    r"现在|目前|如今|已经|每天|天天|平时|经常|常常|一直|仍然|依然|还是|都|了|很|非常|特别|真的|"
    r"也|还|啦|呢|吧|啊|再|每周|每晚|每早|早上|晚上"
)
_ZH_NUMBER = re.compile(
    r"\d+(?:\.\d+)?|[零一二两三四五六七八九十百千]+(?=[个只位条辆套本台岁年月日号次天周名家间匹头])"
)


def _en_polarity_tokens(text: str) -> tuple[int, frozenset[str]]:
    norm = normalize_en(text)
    negations = len(_EN_NEG_PHRASES.findall(norm))
    stripped = _EN_NEG_PHRASES.sub(" ", norm)
    tokens = frozenset(stem(w) for w in en_words(stripped) if w not in _EN_FILLERS)
    return negations, tokens


def _zh_polarity_tokens(text: str) -> tuple[int, frozenset[str]]:
    norm = normalize_zh(text)
    for short, long in _ZH_QUIT:
        norm = norm.replace(short, long)
    norm = _ZH_NOT_NEGATION.sub(lambda m: "#" * len(m[0]), norm)
    negations = len(_ZH_NEG_MARKERS.findall(norm))
    norm = _ZH_NEG_MARKERS.sub(lambda m: "是" if m[0] == "不是" else "", norm)
    norm = _ZH_FILLERS.sub("", norm)
    return negations, frozenset(zh_bigrams(norm))


# Each statement's analyses are pure functions of its text, cached: the store's on-write check
# compares one new statement with several candidates, and popular entries with many newcomers.
@lru_cache(maxsize=8192)
def _polarity_tokens(text: str, zh: bool) -> tuple[int, frozenset[str]]:
    return _zh_polarity_tokens(text) if zh else _en_polarity_tokens(text)


def _negation_rule(a: str, b: str) -> Verdict | None:
    zh = has_cjk(a) or has_cjk(b)
    neg_a, tok_a = _polarity_tokens(a, zh)
    neg_b, tok_b = _polarity_tokens(b, zh)
    if (neg_a % 2) == (neg_b % 2) or not tok_a or not tok_b:
        return None
    if tok_a == tok_b:
        return Verdict(True, 0.9, "one statement negates the other", rule="negation")
    small, large = (tok_a, tok_b) if len(tok_a) <= len(tok_b) else (tok_b, tok_a)
    if len(small) >= 3 and small <= large and len(large - small) <= 1:
        return Verdict(True, 0.75, "one statement negates the other (with an added detail)",
                       rule="negation")
    return None


def _en_number_skeleton(text: str) -> tuple[tuple[str, ...], Counter[str], bool]:
    words = en_words(normalize_en(text))
    skeleton: list[str] = []
    values: Counter[str] = Counter()
    repeatable = False
    for word in words:
        number = parse_number(word) if (word.isdigit() or word in EN_NUMBER_WORDS) else None
        if number is not None:
            skeleton.append("#")
            values[str(number)] += 1
        elif word in _EN_MONTHS:
            skeleton.append("#m")
            values[word[:3]] += 1
        elif word not in _EN_FILLERS:
            stemmed = stem(word)
            repeatable = repeatable or stemmed in _REPEATABLE
            skeleton.append(stemmed)
    return tuple(sorted(skeleton)), values, repeatable


def _zh_number_skeleton(text: str) -> tuple[tuple[str, ...], Counter[str], bool]:
    norm = _ZH_FILLERS.sub("", normalize_zh(text))
    values: Counter[str] = Counter(str(parse_number(m)) for m in _ZH_NUMBER.findall(norm))
    masked = _ZH_NUMBER.sub("#", norm)
    repeatable = any(word in masked for word in _REPEATABLE if not word.isascii())
    return tuple(sorted(zh_bigrams(masked) | {c for c in masked if c == "#"})), values, repeatable


@lru_cache(maxsize=8192)
def _number_skeleton(
    text: str, zh: bool
) -> tuple[tuple[str, ...], tuple[tuple[str, int], ...], bool]:
    """The skeleton, the numbers as sorted ``(value, count)`` pairs (immutable, so cacheable;
    equal exactly when the counters are) and the repeatable flag."""
    skeleton, values, repeatable = (_zh_number_skeleton if zh else _en_number_skeleton)(text)
    return skeleton, tuple(sorted(values.items())), repeatable


def _number_rule(a: str, b: str) -> Verdict | None:
    zh = has_cjk(a) or has_cjk(b)
    sk_a, val_a, rep_a = _number_skeleton(a, zh)
    sk_b, val_b, rep_b = _number_skeleton(b, zh)
    if not val_a or not val_b or sk_a != sk_b or val_a == val_b or len(sk_a) < 2:
        return None
    if rep_a or rep_b:
        return Verdict(None, 0.5, "the same kind of event with different numbers or dates; it "
                       "may have happened more than once", rule="number")
    changed = ", ".join(sorted({v for v, _ in val_a} ^ {v for v, _ in val_b}))
    return Verdict(True, 0.8, f"same statement with different numbers or dates ({changed})",
                   rule="number")


def _claim_rules(claims_a: list[Claim], claims_b: list[Claim]) -> Verdict | None:
    best: Verdict | None = None
    for ca in claims_a:
        for cb in claims_b:
            if ca.slot != cb.slot:
                continue
            slot = ca.slot.split("|", 1)[0]
            if ca.value == cb.value:
                if ca.positive != cb.positive and not ca.past and not cb.past:
                    return Verdict(True, 0.85, f"{slot} '{ca.value}' is affirmed by one "
                                   "statement and denied by the other", rule="polarity")
                continue
            if not (ca.positive and cb.positive) or ca.past or cb.past:
                continue
            if ca.also or cb.also:
                continue
            if ca.anchor and cb.anchor and ca.anchor != cb.anchor:
                continue  # a sequence of changes, each true at its own time
            if slot == "residence" and _is_region(ca.value, cb.value):
                continue  # a country or province against a city is a refinement
            if ca.exclusive and cb.exclusive:
                verdict = Verdict(True, 0.8, f"{slot} differs: '{ca.value}' vs '{cb.value}'",
                                  rule="same_slot")
            elif ca.kind == cb.kind and ca.kind in ("num", "noun"):
                verdict = Verdict(True, 0.65, f"{slot} differs: '{ca.value}' vs '{cb.value}'",
                                  rule="same_slot")
            else:
                continue
            if best is None or verdict.confidence > best.confidence:
                best = verdict
    return best


@lru_cache(maxsize=1)
def _region_stems() -> frozenset[str]:
    return frozenset(stem(c) for c in COUNTRIES) | COUNTRIES | REGIONS_ZH


def _is_region(*values: str) -> bool:
    return any(v in _region_stems() for v in values)


def _same_text(a: str, b: str) -> bool:
    if has_cjk(a) or has_cjk(b):
        return normalize_zh(a) == normalize_zh(b)
    return normalize_en(a) == normalize_en(b)


def heuristic_verify(
    a: str, b: str, *, key_a: str | None = None, key_b: str | None = None
) -> Verdict:
    """Judge whether two statements contradict each other, without a model.

    Args:
        a: One statement.
        b: The other statement.
        key_a: The key of ``a``'s entry, when it has one.
        key_b: The key of ``b``'s entry, when it has one.

    Returns:
        A `Verdict`: ``contradicts`` True with the rule that fired, None for an undecidable
        pair, False otherwise.
    """
    if _same_text(a, b):
        return Verdict(False, 0.95, "the statements say the same thing", rule="identical")
    claims_a, claims_b = extract_claims(a), extract_claims(b)
    for rule in (_negation_rule(a, b), _claim_rules(claims_a, claims_b), _number_rule(a, b)):
        if rule is not None and rule.contradicts is not False:
            if rule.contradicts is None:
                # An undecided number rule must not hide a decisive slot conflict.
                decisive = _claim_rules(claims_a, claims_b) or profile_verdict(a, b)
                return decisive if decisive is not None else rule
            return rule
    profile = profile_verdict(a, b)
    if profile is not None:
        return profile
    if key_a and key_b and key_a.strip().lower() == key_b.strip().lower():
        adds = any(c.also for c in claims_a + claims_b)
        if not adds:
            return Verdict(True, 0.7, f"both entries hold key '{key_a}' with different content",
                           rule="same_key")
    shared = {c.slot for c in claims_a} & {c.slot for c in claims_b}
    if shared:
        return Verdict(False, 0.7, "same subject, compatible statements", rule="compatible")
    return Verdict(False, 0.8, "no conflict found", rule="none")


class HeuristicVerifier:
    """`Verifier` wrapper around `heuristic_verify` (offline, English and Chinese)."""

    def verify(
        self, a: str, b: str, *, key_a: str | None = None, key_b: str | None = None
    ) -> Verdict:
        """Judge ``a`` against ``b``; see `heuristic_verify`."""
        return heuristic_verify(a, b, key_a=key_a, key_b=key_b)

    async def averify(
        self, a: str, b: str, *, key_a: str | None = None, key_b: str | None = None
    ) -> Verdict:
        """Async twin of `verify` (the rules are cheap, so it runs inline)."""
        return heuristic_verify(a, b, key_a=key_a, key_b=key_b)
