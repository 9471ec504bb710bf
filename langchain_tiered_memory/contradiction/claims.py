"""Turn a short memory statement into slot claims (``who lives where``, ``who likes what``...).

A claim is a ``(slot, value, polarity)`` triple with a few flags. Two claims about the same slot
can then be compared: same value with opposite polarity, or two values of an exclusive slot, means
the statements cannot both hold. The patterns cover the facts a personal memory mostly holds
(residence, employer, job, name, age, counts, preferences, ``my X is Y`` attributes) in English
and Chinese; anything else yields no claim and is left to the other rules.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from ._text import EN_NUMBER_WORDS, has_cjk, normalize_en, normalize_zh, parse_number, stem

__all__ = ["Claim", "extract_claims"]


@dataclass(frozen=True, slots=True)
class Claim:
    """One slot assertion read from a statement.

    Attributes:
        slot: What the claim is about, subject included (``"residence|my sister"``).
        value: The normalised value (``"toronto"``, ``"北京"``, ``"3"``).
        positive: False when the statement denies it (``no longer``, ``不再``, ``used to``).
        past: True for a finished past state (``lived``, ``以前``); ignored for conflicts.
        anchor: A year the statement is pinned to (``"2019"``), when it names one.
        exclusive: The slot holds one value at a time (a residence, a name, a favourite...).
        also: The statement says it adds to what is known (``also``, ``too``, ``也``).
        kind: Shape of the value (``"num"``, ``"noun"``, ``"text"``), for non-exclusive slots.
    """

    slot: str
    value: str
    positive: bool = True
    past: bool = False
    anchor: str | None = None
    exclusive: bool = True
    also: bool = False
    kind: str = "text"


# Every pattern that opens with a lazy subject prefix is stored with a "gate": the same pattern
# without the prefix. A match of the pattern implies a match of its gate, and the prefix makes a
# failing scan quadratic in the clause length (it is retried from every start), so a clause whose
# gate does not match skips the pattern. Most statements name none of the verbs: the gates turn
# ~1 ms of failed scanning per statement into a few microseconds, with identical results.
@dataclass(frozen=True, slots=True)
class _Gated:
    """A pattern with a cheap necessary condition (its gate)."""

    pattern: re.Pattern[str]
    gate: re.Pattern[str]

    def finditer(self, clause: str) -> Iterator[re.Match[str]]:
        """``pattern.finditer(clause)``, skipped when the gate finds nothing."""
        if self.gate.search(clause) is None:
            return iter(())
        return self.pattern.finditer(clause)


def _gated(prefix: str, body: str) -> _Gated:
    return _Gated(re.compile(prefix + body), re.compile(body))


# --------------------------------------------------------------------------------------------
# English

_EN_NUM = r"\d+|" + "|".join(EN_NUMBER_WORDS)
_EN_NEG = re.compile(r"\b(?:not|no longer|never|no)\b")
_EN_USED_TO = re.compile(r"\bused to\b")
_EN_ALSO = re.compile(r"\b(?:also|too|as well|another|second|additionally)\b")
_EN_PRE = r"(?P<pre>[a-z' ]*?)"
_EN_SUBJECT_NOISE = {
    "do", "does", "did", "not", "no", "longer", "never", "still", "also", "now", "currently",
    "really", "actually", "used", "to", "am", "is", "are", "was", "were", "have", "has", "had",
    "just", "recently", "already", "will", "would", "can", "could", "then", "so", "and",
}
_EN_VALUE_STOP = {
    "in", "since", "for", "with", "and", "but", "now", "anymore", "currently", "again", "before",
    "after", "because", "as", "when", "these", "at", "from", "until", "last", "this", "next",
    "every", "on", "too", "also", "still", "any", "very", "much", "a lot", "over", "than",
    "rather", "to", "so", "or", "nowadays", "lately", "today", "yesterday", "though",
}
_EN_ARTICLES = {"a", "an", "the", "some"}
_EN_EXCLUSIVE_ATTRS = (
    "favourite", "favorite", "name", "birthday", "age", "email", "phone", "address", "hometown",
    "manager", "boss", "husband", "wife", "partner", "girlfriend", "boyfriend", "fiance",
    "blood type", "major", "native language", "mother tongue", "salary", "height", "weight",
    "nationality", "job", "occupation", "profession", "employer", "company", "title", "role",
    "zip", "postcode", "surname", "nickname", "team", "dentist", "doctor", "landlord",
)
_EN_PAST_VERBS = {"lived", "resided", "worked", "stayed"}

_EN_FRAMES: tuple[tuple[str, _Gated], ...] = (
    (
        "residence",
        _gated(
            _EN_PRE,
            r"\b(?P<verb>live|lives|living|lived|reside|resides|resided|"
            r"stay|stays|staying|moved|move|moves|relocated|based|settled)\s+(?:back\s+)?"
            r"(?:in|to|at)\s+(?P<v>[a-z0-9' ]+)",
        ),
    ),
    (
        "employer",
        _gated(
            _EN_PRE,
            r"\b(?P<verb>work|works|working|worked|employed|joined)\s+"
            r"(?:at|for|by)\s+(?P<v>[a-z0-9' ]+)",
        ),
    ),
    (
        "work_location",
        _gated(_EN_PRE, r"\b(?P<verb>work|works|working|worked)\s+in\s+(?P<v>[a-z0-9' ]+)"),
    ),
    (
        "job",
        _gated(_EN_PRE, r"\b(?P<verb>work|works|working|worked)\s+as\s+(?P<v>[a-z0-9' ]+)"),
    ),
    ("origin", _gated(_EN_PRE, r"\b(?P<verb>am|is|are|come|comes)\s+from\s+"
                               r"(?P<v>[a-z0-9' ]+)")),
    ("name", _gated(_EN_PRE, r"\b(?P<verb>call me|am called|is called|go by)\s+"
                             r"(?P<v>[a-z0-9' ]+)")),
)
_EN_AGE = _gated(
    _EN_PRE,
    rf"\b(?:am|is|are|turned|just turned)\s+(?P<v>{_EN_NUM})(?:\s+years?\s+old\b|\s*$)",
)
_EN_COUNT = _gated(
    _EN_PRE, rf"\b(?:have|has|own|owns|got)\s+(?P<n>{_EN_NUM})\s+(?P<noun>[a-z]+)"
)
_EN_PREFER = _gated(
    _EN_PRE,
    r"\bprefers?\s+(?P<x>[a-z0-9' ]+?)\s+(?:over|to|rather than|more than)\s+"
    r"(?P<y>[a-z0-9' ]+)",
)
_EN_LIKE = _gated(
    _EN_PRE,
    r"\b(?P<verb>like|likes|liked|love|loves|loved|enjoy|enjoys|enjoyed|adore|"
    r"adores|prefer|prefers|am into|am fond of|hate|hates|dislike|dislikes|detest|detests|"
    r"can not stand|loathe|loathes|stopped liking|stopped enjoying)\s+(?P<v>[a-z0-9' ]+)",
)
_EN_NEGATIVE_VERBS = {
    "hate", "hates", "dislike", "dislikes", "detest", "detests", "can not stand", "loathe",
    "loathes", "stopped liking", "stopped enjoying",
}
_EN_COPULA = re.compile(
    r"(?:^|\s)(?P<owner>my|his|her|our|their|your|[a-z]+'s)\s+(?P<attr>[a-z ]{2,40}?)\s+"
    r"(?P<cop>is|are|was|were)\s+(?P<neg>not\s+)?(?P<v>[a-z0-9' ]+)"
)
_EN_YEAR = re.compile(r"\b(?:19|20)\d{2}\b")


def _en_subject(pre: str) -> str:
    words = [w for w in pre.split() if w not in _EN_SUBJECT_NOISE]
    return " ".join(words[-3:]) if words else "i"


def _en_value(raw: str, *, stop: set[str] | None = None, max_words: int = 4) -> tuple[str, str]:
    words = raw.split()
    kind = "noun" if words and words[0] in ("a", "an") else "text"
    while words and words[0] in _EN_ARTICLES:
        words = words[1:]
    stops = _EN_VALUE_STOP if stop is None else stop
    out: list[str] = []
    for i, word in enumerate(words):
        if i > 0 and word in stops:
            break
        out.append(word)
    out = out[:max_words]
    if out and (out[0].isdigit() or out[0] in EN_NUMBER_WORDS):
        kind = "num"
    return " ".join(stem(w) for w in out), kind


def _en_flags(pre: str, clause: str) -> tuple[bool, bool, bool]:
    """(positive, past, also) for the words before a verb and the whole clause."""
    used_to = bool(_EN_USED_TO.search(pre))
    negated = bool(_EN_NEG.search(pre)) or used_to
    return not negated, False, bool(_EN_ALSO.search(clause))


def _en_clause_claims(clause: str) -> list[Claim]:
    claims: list[Claim] = []
    years = _EN_YEAR.findall(clause)
    anchor = years[0] if years else None
    for slot, pattern in _EN_FRAMES:
        for m in pattern.finditer(clause):
            positive, _, also = _en_flags(m["pre"], clause)
            value, kind = _en_value(m["v"])
            if not value:
                continue
            past = m["verb"] in _EN_PAST_VERBS and not _EN_USED_TO.search(m["pre"])
            subject = _en_subject(m["pre"])
            claims.append(Claim(f"{slot}|{subject}", value, positive, past, anchor, True, also, kind))
    for m in _EN_AGE.finditer(clause):
        positive, _, also = _en_flags(m["pre"], clause)
        number = parse_number(m["v"])
        claims.append(Claim(f"age|{_en_subject(m['pre'])}", str(number), positive, False, anchor,
                            True, also, "num"))
    for m in _EN_COUNT.finditer(clause):
        positive, _, also = _en_flags(m["pre"], clause)
        slot = f"count|{_en_subject(m['pre'])}|{stem(m['noun'])}"
        claims.append(Claim(slot, str(parse_number(m["n"])), positive, False, anchor, True, also,
                            "num"))
    claims.extend(_en_preference_claims(clause, anchor))
    for m in _EN_COPULA.finditer(clause):
        attr = m["attr"].strip()
        owner = m["owner"].replace("'s", "")
        value, kind = _en_value(m["v"], stop={"and", "but", "because", "now", "anymore", "too",
                                              "also", "since", "though"})
        if not value:
            continue
        exclusive = any(word in attr for word in _EN_EXCLUSIVE_ATTRS)
        claims.append(Claim(f"attr|{owner}|{' '.join(stem(w) for w in attr.split())}", value,
                            not m["neg"], m["cop"] in ("was", "were"), anchor, exclusive,
                            bool(_EN_ALSO.search(clause)), kind))
    return claims


def _en_preference_claims(clause: str, anchor: str | None) -> list[Claim]:
    claims: list[Claim] = []
    for m in _EN_PREFER.finditer(clause):
        positive, _, also = _en_flags(m["pre"], clause)
        subject = _en_subject(m["pre"])
        x, _ = _en_value(m["x"])
        y, _ = _en_value(m["y"])
        if x and y:
            claims.append(Claim(f"like|{subject}|{x}", x, positive, False, anchor, True, also))
            claims.append(Claim(f"like|{subject}|{y}", y, not positive, False, anchor, True, also))
    if claims:
        return claims
    for m in _EN_LIKE.finditer(clause):
        positive, _, also = _en_flags(m["pre"], clause)
        if m["verb"] in _EN_NEGATIVE_VERBS:
            positive = not positive
        value, _ = _en_value(m["v"])
        if not value:
            continue
        past = m["verb"].endswith("ed") and not m["verb"].startswith("stopped")
        slot = f"like|{_en_subject(m['pre'])}|{value}"
        claims.append(Claim(slot, value, positive, past, anchor, True, also))
    return claims


def _en_claims(text: str) -> list[Claim]:
    norm = normalize_en(text)
    claims: list[Claim] = []
    for clause in re.split(r"\s(?:but|because|while|whereas|although|though)\s", norm):
        claims.extend(_en_clause_claims(clause.strip()))
    return claims


# --------------------------------------------------------------------------------------------
# Chinese

_ZH_VALUE = (
    r"(?P<v>[\u4e00-\u9fffa-z0-9]{1,10}?)"
    r"(?=已经|工作|生活|上班|任职|就职|居住|定居|住|多年|好几年|了|的|和|跟|，|$)"
)
_ZH_NEG = re.compile(r"不再|再也不|已经不|不|没有|没")
_ZH_PAST = re.compile(r"以前|之前|曾经|原来|过去|小时候|当年|那时")
_ZH_ALSO = re.compile(r"也|另外|同时|还有|兼职")
_ZH_NOISE = re.compile(
    r"现在|目前|如今|已经|仍然|依然|一直|还|也|另外|同时|之前|以前|曾经|原来|过去|小时候|当年|"
    r"不再|再也不|不|没有|没|都|就|今年|去年|明年|(?:\d+|[一二三四五六七八九十两]+)年|周末|每天|"
    r"平时|最近|正在|在"
)
_ZH_PLACES = {
    "北京", "上海", "广州", "深圳", "杭州", "成都", "重庆", "南京", "武汉", "西安", "天津",
    "苏州", "长沙", "青岛", "厦门", "大连", "香港", "澳门", "台北", "纽约", "伦敦", "巴黎",
    "东京", "柏林", "慕尼黑", "旧金山", "洛杉矶", "新加坡", "悉尼", "多伦多", "温哥华", "首尔",
    "美国", "英国", "法国", "德国", "日本", "中国", "加拿大", "澳大利亚", "国外", "老家", "家里",
}
_ZH_EXCLUSIVE_ATTRS = (
    "生日", "名字", "邮箱", "电话", "手机", "血型", "老板", "经理", "领导", "丈夫", "妻子",
    "老公", "老婆", "男朋友", "女朋友", "专业", "母语", "家乡", "老家", "国籍", "职业", "工作",
    "公司", "身高", "体重", "工资", "生肖", "星座", "地址", "昵称",
)
_ZH_QUANTIFIER = re.compile(r"^(?:一家|一个|一所|一间|某家|某个|这家|那家)")

_ZH_PRE = r"(?P<pre>[^，]*?)"
_ZH_FRAMES: tuple[tuple[str, _Gated], ...] = (
    ("residence", _gated(_ZH_PRE, r"在" + _ZH_VALUE + r"(?:住|居住|生活|定居)")),
    ("residence", _gated(_ZH_PRE, r"(?:住在|居住在|定居在|生活在|定居于|搬到了|搬到|"
                                  r"搬去了|搬去|搬家到|搬回了|搬回)" + _ZH_VALUE)),
    ("employer", _gated(_ZH_PRE, r"在" + _ZH_VALUE + r"(?:工作|上班|任职|就职)")),
    ("employer", _gated(_ZH_PRE, r"(?:就职于|任职于|供职于|受雇于|入职了|入职|"
                                 r"加入了|跳槽到了|跳槽到)" + _ZH_VALUE)),
    ("origin", _gated(_ZH_PRE, r"(?:来自|老家在|老家是|出生在|出生于)" + _ZH_VALUE)),
    ("job", _gated(_ZH_PRE, r"(?:职业是|工作是|是一名|是一位|当了|当)" + _ZH_VALUE)),
    ("name", _gated(_ZH_PRE, r"(?:名字是|名字叫|叫做|叫)" + _ZH_VALUE)),
)
_ZH_NUM = r"\d+|[一二两三四五六七八九十百]+"
_ZH_AGE = _gated(_ZH_PRE, rf"(?P<v>{_ZH_NUM})岁")
_ZH_COUNT = _gated(
    _ZH_PRE,
    rf"有(?P<n>{_ZH_NUM})(?:个|只|条|辆|套|本|位|台|家|间|匹|头)"
    r"(?P<noun>[\u4e00-\u9fff]{1,4}?)(?=了|，|$|的)"
)
_ZH_FAVOURITE = _gated(_ZH_PRE, r"最(?:喜欢|爱)的(?P<attr>[\u4e00-\u9fff]{1,6}?)"
                           r"(?:是|叫)(?P<v>[^，]+)")
_ZH_COPULA = re.compile(r"(?P<owner>[^，]{0,4}?)的(?P<attr>[\u4e00-\u9fff]{1,6}?)(?:是|叫)"
                        r"(?P<neg>不是)?(?P<v>[^，]+)")
_ZH_LIKE = _gated(_ZH_PRE, r"(?P<verb>不喜欢|喜欢|喜爱|热爱|讨厌|厌恶|反感|受不了|"
                      r"爱)(?P<v>[^，]+)")
_ZH_NEGATIVE_VERBS = {"不喜欢", "讨厌", "厌恶", "反感", "受不了"}
_ZH_YEAR = re.compile(r"((?:19|20)\d{2})年")
_ZH_TAIL = re.compile(r"(?:了|啦|呢|吧|啊|的|哦)+$")


def _zh_subject(pre: str) -> str:
    subject = _ZH_NOISE.sub("", pre).strip()
    return subject or "我"


def _zh_flags(pre: str, clause: str) -> tuple[bool, bool, bool]:
    negs = _ZH_NEG.findall(pre)
    return len(negs) % 2 == 0, bool(_ZH_PAST.search(clause) or "过" in clause), bool(
        _ZH_ALSO.search(clause)
    )


def _zh_clean_value(value: str) -> str:
    return _ZH_TAIL.sub("", _ZH_QUANTIFIER.sub("", value)).strip()


def _zh_clause_claims(clause: str) -> list[Claim]:
    claims: list[Claim] = []
    years = _ZH_YEAR.findall(clause)
    anchor = years[0] if years else None
    taken: list[tuple[int, int]] = []
    for slot, pattern in _ZH_FRAMES:
        for m in pattern.finditer(clause):
            span = m.span("v")
            if any(s <= span[0] < e for s, e in taken):
                continue
            value = _zh_clean_value(m["v"])
            if not value or value in ("我", "你", "他", "她"):
                continue
            taken.append(span)
            positive, past, also = _zh_flags(m["pre"], clause)
            name = slot
            if slot == "employer" and (value in _ZH_PLACES or value[-1] in "市省国区县州"):
                name = "work_location"
            subject = _zh_subject(m["pre"])
            claims.append(Claim(f"{name}|{subject}", value, positive, past, anchor, True, also))
    for m in _ZH_AGE.finditer(clause):
        positive, past, also = _zh_flags(m["pre"], clause)
        claims.append(Claim(f"age|{_zh_subject(m['pre'])}", str(parse_number(m["v"])), positive,
                            past, anchor, True, also, "num"))
    for m in _ZH_COUNT.finditer(clause):
        positive, past, also = _zh_flags(m["pre"], clause)
        claims.append(Claim(f"count|{_zh_subject(m['pre'])}|{m['noun']}",
                            str(parse_number(m["n"])), positive, past, anchor, True, also, "num"))
    favourite = False
    for m in _ZH_FAVOURITE.finditer(clause):
        favourite = True
        positive, past, also = _zh_flags(m["pre"], clause)
        claims.append(Claim(f"attr|{_zh_subject(m['pre'])}|最喜欢的{m['attr']}",
                            _zh_clean_value(m["v"]), positive, past, anchor, True, False))
    if not favourite:
        for m in _ZH_COPULA.finditer(clause):
            owner = _zh_subject(m["owner"])
            value = _zh_clean_value(m["v"])
            kind = "num" if re.match(r"\d|[一二两三四五六七八九十]", value) else "text"
            exclusive = any(a in m["attr"] for a in _ZH_EXCLUSIVE_ATTRS)
            claims.append(Claim(f"attr|{owner}|{m['attr']}", value, not m["neg"],
                                bool(_ZH_PAST.search(clause)), anchor, exclusive,
                                bool(_ZH_ALSO.search(clause)), kind))
        for m in _ZH_LIKE.finditer(clause):
            value = _zh_clean_value(m["v"])
            if not value or value.startswith("的"):
                continue
            positive, past, also = _zh_flags(m["pre"], clause)
            if m["verb"] in _ZH_NEGATIVE_VERBS:
                positive = not positive
            claims.append(Claim(f"like|{_zh_subject(m['pre'])}|{value}", value, positive, past,
                                anchor, True, also))
    return claims


def _zh_claims(text: str) -> list[Claim]:
    claims: list[Claim] = []
    for clause in normalize_zh(text).split("，"):
        if clause:
            claims.extend(_zh_clause_claims(clause))
    return claims


def extract_claims(text: str) -> list[Claim]:
    """Read the slot claims of one statement, in English or Chinese.

    Args:
        text: A short memory statement (``"I live in Paris"``, ``"我住在北京"``).

    Returns:
        Every claim the patterns recognise; an empty list when none applies.
    """
    return list(_cached_claims(text))


# The store's on-write check reads the same statements again and again (the new entry against
# each candidate, a popular entry against every newcomer): claims are a pure function of the text.
@lru_cache(maxsize=8192)
def _cached_claims(text: str) -> tuple[Claim, ...]:
    return tuple(_zh_claims(text) if has_cjk(text) else _en_claims(text))
