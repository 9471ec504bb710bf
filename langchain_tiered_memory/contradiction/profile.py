"""A statement read as the user's profile, slot by slot (EN + ZH); `profile_rules` compares two.

A statement is read into a `Profile`: whether the user is its subject (not "my friend", "我老公")
and whether it is about the past; the concepts it affirms or denies (``coffee``, ``skiing``,
``meat``; a diet denies several); the pole it takes on an attribute with opposite values
(early bird / night owl, 内向 / 外向, single / married); the job family it claims and whether the
user works at all; an age range ("I'm 29" -> 29-29, "四十多" -> 41-49, "00后" -> a birth decade);
the names given to relatives and pets; counts of children, pets and siblings; and the place the
user lives. Two profiles contradict when one slot holds incompatible values: an affirmed concept
the other denies, two poles of one attribute, disjoint job families, non-overlapping ages, two
names for one relative, two counts, two homes (never a country against a city: that is a
refinement). Refinements, additions ("also", "还"), other people and past states are compatible.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from functools import lru_cache

from ._text import EN_NUMBER_WORDS, has_cjk, parse_zh_number
from .lexicon import (
    ADDITION,
    CONCEPTS,
    DIET_DENIES,
    JOBS,
    NOT_WORKING,
    PAST,
    POLES,
    RELATIONS,
    WORKING,
)

__all__ = ["Profile", "read_profile"]


@dataclass(frozen=True, slots=True)
class Profile:
    """What one statement says about the user, by slot."""

    about_user: bool
    past: bool
    addition: bool
    concepts: dict[str, bool] = field(default_factory=dict)
    poles: dict[str, str] = field(default_factory=dict)
    jobs: frozenset[str] = frozenset()
    working: bool | None = None
    age: tuple[int, int] | None = None
    names: dict[str, str] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    home: str | None = None
    tastes: dict[str, bool] = field(default_factory=dict)
    spouse: bool = False


_EN_OTHER = re.compile(
    r"^\W*(?:(?!i\b|i'|we\b)\w+\W+){0,2}?(?:my|our)\s+(?:\w+\s+)?(?:friend|colleague|boss|manager|brother|sister"
    r"|wife|husband|partner|mom|mum|mother|dad|father|son|daughter|kids?|parents|neighbou?r"
    r"|roommate|flatmate|cousin|uncle|aunt|grandma|grandpa)s?\b(?!\s+and\s+i\b)(?!'s\s+name)"
    r"(?!\s+is\s+(?:named|called|(?-i:[A-Z])))",
    re.IGNORECASE,
)
_ZH_OTHER = re.compile(
    r"^[^，。]{0,3}?(?<![和跟与])我(?:的)?(?:老公|老婆|丈夫|妻子|爱人|朋友|同事|室友|邻居|儿子|女儿|孩子|爸爸|妈妈|爸妈"
    r"|父母|哥哥|姐姐|弟弟|妹妹|老板|领导|男朋友|女朋友)(?!叫|的名字)"
)
_EN_NEG = re.compile(
    r"\b(?:don't|do\s+not|doesn't|never|not|no|can't|cannot|haven't|hasn't|won't|quit|gave\s+up"
    r"|stopped|without|zero)\b",
    re.IGNORECASE,
)
_EN_TASTE = re.compile(r"\b(?:like|love|enjoy|mind|care\s+for|fan\s+of|into)\b", re.IGNORECASE)
_ZH_NEG = re.compile(r"不|没|戒")
_ZH_TASTE = re.compile(r"喜欢|爱吃|爱喝|讨厌")
_ABROAD = re.compile(r"abroad|overseas|country|countries|passport|出.?国|国外|出境|境外", re.I)
_CLAUSE_SPLIT = re.compile(r"[,;.!?，。；！？]|\s(?:but|and|so)\s")


def _concepts(text: str, zh: bool) -> dict[str, bool]:
    """Concept -> affirmed (True) or denied (False), clause by clause."""
    found: dict[str, bool] = {}
    for clause in _CLAUSE_SPLIT.split(text):
        taken: list[tuple[int, int]] = []
        # Narrower concepts come first in the table: "猪肉" is pork, not also a denial of meat.
        for name, (en_cue, zh_cue, _) in CONCEPTS.items():
            match = (zh_cue if zh else en_cue).search(clause)
            if match is None or any(s < match.end() and match.start() < e for s, e in taken):
                continue
            taken.append(match.span())
            before = clause[: match.start()]
            after = clause[match.end() : match.end() + 3] if zh else ""
            taste = (_ZH_TASTE if zh else _EN_TASTE).search(before)
            negated = bool((_ZH_NEG if zh else _EN_NEG).search(before)) or (
                zh and bool(re.match(r"[^，。]?不了|都不", after) or match.group(0).startswith("戒"))
            )
            if negated and name == "abroad" and not _ABROAD.search(match.group(0)):
                continue  # not having been to Japan is not never having been abroad
            if taste and negated:
                continue  # "I don't like coffee" is a taste, not a habit
            found.setdefault(name, not negated)
    for en_cue, zh_cue, denied in DIET_DENIES:
        if (zh_cue if zh else en_cue).search(text):
            for name in denied:
                found.setdefault(name, False)
    return found


def _poles(text: str, zh: bool) -> dict[str, str]:
    out: dict[str, str] = {}
    for attribute, poles in POLES.items():
        for pole, en_cue, zh_cue in poles:
            if (zh_cue if zh else en_cue).search(text):
                out.setdefault(attribute, pole)
    return out


_EN_JOB_FRAME = re.compile(
    r"\b(?:i'm|i\s+am|i\s+work\s+as|i\s+work\s+in|i've\s+been|as)\s+(?:a|an|the)?\s*"
    r"(?P<job>(?:[\w-]+\s+){0,3}[\w-]+)\b",
    re.IGNORECASE,
)
_ZH_JOB_FRAME = re.compile(r"我(?:现在|目前|已经)?(?:是|在[^，。]{0,10}?(?:当|做)|当|做)(?P<job>[^，。]{1,12})")


def _jobs(text: str, zh: bool) -> frozenset[str]:
    frames = [m["job"] for m in (_ZH_JOB_FRAME if zh else _EN_JOB_FRAME).finditer(text)]
    found = set()
    for frame in frames:
        for name, en_cue, zh_cue in JOBS:
            if (zh_cue if zh else en_cue).search(frame):
                found.add(name)
    return frozenset(found)


def _en_number(word: str) -> int | None:
    word = word.lower()
    if word.isdigit():
        return int(word)
    parts = word.split("-")
    if all(p in EN_NUMBER_WORDS for p in parts):
        return sum(EN_NUMBER_WORDS[p] for p in parts)
    return None


_DECADES = {"teens": 10, "twenties": 20, "thirties": 30, "forties": 40, "fifties": 50,
            "sixties": 60, "seventies": 70, "eighties": 80, "nineties": 90}
_EN_AGE = re.compile(
    r"\b(?:i'm|i\s+am|i\s+turned|i\s+just\s+turned|i'll\s+be|turning)\s+"
    r"(?:only\s+|just\s+|nearly\s+|almost\s+|about\s+|barely\s+)?(?P<n>\d{1,3}|[a-z]+(?:-[a-z]+)?)"
    r"(?![.,]\d)(?:\s+years?\s+old)?(?=\s*(?:$|[,.;!]|\s+(?:in|on|last|this|next|years?|and|but|now|today)\b))"
    r"|\bin\s+my\s+(?P<part>early|mid|late)?\s*(?P<dec>teens|twenties|thirties|forties|fifties|sixties"
    r"|seventies|eighties|nineties|[2-9]0s)\b|\bborn\s+in\s+(?P<year>(?:19|20)\d\d)\b"
    r"|\b(?P<teen>teenager|teen)\b",
    re.IGNORECASE,
)
_ZH_DIGITS = "零〇一二三四五六七八九"


def _zh_digits(text: str) -> int | None:
    if text.isdigit():
        return int(text)
    if all(c in _ZH_DIGITS for c in text):
        return int("".join(str(max(_ZH_DIGITS.index(c) - 1, 0)) for c in text))
    return None


_ZH_AGE = re.compile(
    r"(?P<n>\d{1,3}|[一二三四五六七八九十]{1,3})(?:岁|周岁)|满(?P<n2>\d{1,3}|[一二三四五六七八九十]{1,3})"
    r"|我(?:今年|已经)?(?P<n3>\d{1,2}|[一二三四五六七八九十]{2,3})了"
    r"|(?P<tens>[一二三四五六七八九])十(?P<kind>多|出头|几)|快(?P<near>[一二三四五六七八九])十"
    r"|(?P<gen>\d{2}|[零〇一二三四五六七八九]{2})后|(?P<year>(?:19|20)?\d{2}|[零〇一二三四五六七八九]{2,4})年(?:出)?生"
)


def _birth_range(lo_year: int, hi_year: int) -> tuple[int, int]:
    now = date.today().year
    return max(0, now - hi_year - 1), now - lo_year


def _full_year(value: int) -> int:
    if value >= 100:
        return value
    return 1900 + value if value > date.today().year % 100 else 2000 + value


def _age(text: str, zh: bool) -> tuple[int, int] | None:
    if not zh:
        m = _EN_AGE.search(text)
        if m is None:
            return None
        if m["n"]:
            n = _en_number(m["n"])
            return (n, n) if n is not None and 0 < n < 120 else None
        if m["teen"]:
            return 13, 19
        if m["dec"]:
            dec = m["dec"].lower()
            base = _DECADES.get(dec) or int(dec[:2])
            lo, hi = base, base + 9
            part = (m["part"] or "").lower()
            lo, hi = {"early": (lo, lo + 4), "mid": (lo + 3, lo + 7), "late": (lo + 5, hi)}.get(
                part, (lo, hi))
            return lo, hi
        year = int(m["year"])
        return _birth_range(year, year)
    m = _ZH_AGE.search(text)
    if m is None:
        return None
    for group in ("n", "n2", "n3"):
        if m[group]:
            n = parse_zh_number(m[group])
            return (n, n) if n is not None and 0 < n < 120 else None
    if m["tens"]:
        base = 10 * (parse_zh_number(m["tens"]) or 0)
        return (base, base + 3) if m["kind"] == "出头" else (base + 1, base + 9)
    if m["near"]:
        base = 10 * (parse_zh_number(m["near"]) or 0)
        return base - 3, base - 1
    if m["gen"]:
        start = _zh_digits(m["gen"])
        if start is None:
            return None
        year = _full_year(start)
        return _birth_range(year, year + 9)
    value = _zh_digits(m["year"])
    if value is None:
        return None
    year = _full_year(value)
    return _birth_range(year, year)


_NAME_STOP = frozenset(
    ["i", "the", "a", "an", "and", "but", "canadian", "american", "british", "english", "french", "german", "chinese", "japanese", "spanish", "italian", "irish", "indian"]
)
_REL_EN = r"(?P<rel>wife|husband|spouse|mother|mom|mum|father|dad|brother|sister|son|daughter|manager|boss|partner|girlfriend|boyfriend|dog|cat)"
_EN_NAMES = (
    re.compile(rf"\b[Mm]y\s+(?P<only>only\s+)?(?P<q>older\s+|younger\s+|little\s+|big\s+)?(?i:{_REL_EN})"
               r"(?:'s\s+name\s+is|\s+is\s+(?:named|called)|\s+is|,)?\s+(?P<name>[A-Z][a-z]+)\b"),
    re.compile(rf"\bI\s+have\s+(?P<only>only\s+one\s+|one\s+|a\s+|an\s+)(?P<q>older\s+|younger\s+)?"
               rf"(?i:{_REL_EN}),?\s+(?:named\s+|called\s+)?(?P<name>[A-Z][a-z]+)\b"),
    re.compile(r"\b(?P<name>[A-Z][a-z]+)\s+is\s+(?P<only>the\s+only|my\s+only)\s+(?P<rel>pet|dog|cat)\b"),
    re.compile(r"\bI\s+report\s+to\s+(?:a\s+(?:guy|woman|man|lady)\s+(?:named|called)\s+)?(?P<name>[A-Z][a-z]+)"
               r"(?P<rel>)(?P<only>)"),
    re.compile(r"\bI(?:'m|\s+am)\s+married\s+to\s+(?P<name>[A-Z][a-z]+)(?P<rel>)(?P<only>)"),
)
_ZH_REL = "|".join(sorted((k for k in RELATIONS if has_cjk(k)), key=len, reverse=True))
_ZH_NAMES = (
    re.compile(r"我(?:家)?(?:的)?(?P<only>唯一的)宠物是?(?:一只|一条|只|条)?(?:叫)?(?P<name>[\u4e00-\u9fff]{1,4}?)"
               r"的?(?P<rel>猫|狗)?(?=[，。！,.!\s]|$)"),
    re.compile(r"(?P<name>[\u4e00-\u9fffA-Za-z]{1,4}?)是我(?:家)?(?P<only>唯一的)(?:宠物|(?P<rel>猫|狗))"),
    re.compile(rf"我(?:就|只有)(?P<only>一个|一只|一条|个)(?P<rel>{_ZH_REL})[，,](?:叫|名叫)"
               r"(?P<name>[\u4e00-\u9fff]{1,4}?)(?=[，。！,.!\s]|$)"),
    re.compile(r"(?:向|给)(?:一个叫)?(?P<name>[\u4e00-\u9fff]{2,3}?)(?:的人)?汇报(?P<rel>)(?P<only>)"),
    re.compile(rf"我(?:家)?(?:的)?(?P<only>唯一的)?(?P<rel>{_ZH_REL})(?:叫|名叫|叫做|的?名字是|的?名字叫)(?P<name>[\u4e00-\u9fffA-Za-z]{{1,4}}?)"
               r"(?=[，。！,.!\s]|$)"),
    re.compile(rf"我(?:有|养了)?(?:一个|个|一只|只|一条|条)(?P<rel>{_ZH_REL})(?:叫)(?P<name>[\u4e00-\u9fff]{{1,4}}?)"
               r"(?=[，。！,.!\s]|$)(?P<only>)"),
)


def _names(text: str, zh: bool) -> dict[str, str]:
    out: dict[str, str] = {}
    for pattern in _ZH_NAMES if zh else _EN_NAMES:
        for m in pattern.finditer(text):
            name = m["name"]
            if name.lower() in _NAME_STOP:
                continue
            raw = (m["rel"] or "").lower()
            if not raw:
                raw = "spouse" if "married" in m.group(0) else (
                    "pet" if "宠物" in m.group(0) else "manager")
            rel = RELATIONS.get(raw, raw)
            qualifier = (m.groupdict().get("q") or "").strip().lower()
            key = f"{qualifier} {rel}".strip()
            only = (m["only"] or "").lower()
            if ("only" in only or "唯一" in only) and (
                    rel in ("pet", "dog", "cat") or "宠物" in m.group(0)):
                key = "pet"
            out.setdefault(key, name.lower())
    return out


_COUNT_NOUNS = {"kid": "kids", "kids": "kids", "child": "kids", "children": "kids",
                "son": "sons", "sons": "sons", "daughter": "daughters", "daughters": "daughters",
                "grandchild": "grandkids", "grandchildren": "grandkids", "grandkids": "grandkids",
                "brother": "brothers", "brothers": "brothers", "sister": "sisters",
                "sisters": "sisters",
                "cat": "cats", "cats": "cats", "dog": "dogs", "dogs": "dogs",
                "孩子": "kids", "娃": "kids", "小孩": "kids", "猫": "cats", "狗": "dogs"}
_EN_COUNT = re.compile(
    r"\b(?P<n>\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:\w+\s+){0,2}"
    r"(?P<noun>kids?|children|child|cats?|dogs?|sons?|daughters?|grandchild(?:ren)?|grandkids"
    r"|brothers?|sisters?)\b|\bmy\s+only\s+(?P<noun2>kid|child|cat|dog|son|daughter|brother|sister)\b|\b(?:father|mother|mom|mum|dad|parent)\s+of\s+"
    r"(?P<n2>\d+|one|two|three|four|five|six)\b",
    re.IGNORECASE,
)
_ZH_COUNT = re.compile(
    r"(?P<n>\d+|[一二两三四五六七八九十])(?:个|只|条)?(?P<noun>孩子|娃|小孩|猫|狗)"
)
_EN_ONLY_CHILD = re.compile(r"\bonly\s+child\b|\bno\s+(?:siblings|brothers\s+or\s+sisters)\b",
                            re.IGNORECASE)
_EN_SIBLING = re.compile(r"\b(?:my|have\s+(?:a|an|one|two|\d))\s+(?:\w+\s+)?(?:brothers?|sisters?|siblings?)\b",
                         re.IGNORECASE)


def _counts(text: str, zh: bool) -> dict[str, int]:
    out: dict[str, int] = {}
    for m in (_ZH_COUNT if zh else _EN_COUNT).finditer(text):
        if zh:
            n = parse_zh_number(m["n"].replace("两", "二"))
            noun = _COUNT_NOUNS[m["noun"]]
        elif m["n2"]:
            n, noun = _en_number(m["n2"]), "kids"
        elif m["noun2"]:
            n, noun = 1, _COUNT_NOUNS[m["noun2"].lower()]
        else:
            n, noun = _en_number(m["n"]), _COUNT_NOUNS[m["noun"].lower()]
        if n is not None:
            out.setdefault(noun, n)
    for noun, (en_none, zh_none, en_some, zh_some) in _NONE_OR_SOME.items():
        if noun in out:
            continue
        if (zh_none if zh else en_none).search(text):
            out[noun] = 0
        elif (zh_some if zh else en_some).search(text):
            out[noun] = -1  # at least one
    return out


# noun -> (none EN, none ZH, some EN, some ZH): "I'm an only child" against "my brother".
_NONE_OR_SOME = {
    "siblings": (_EN_ONLY_CHILD, re.compile(r"独生"), _EN_SIBLING,
                 re.compile(r"我(?:有|的)?.{0,4}(?:哥哥|弟弟|姐姐|妹妹)")),
    "kids": (re.compile(r"\b(?:no|don't\s+have\s+(?:any\s+)?)\s*(?:kids|children)\b|\bchildless\b", re.I),
             re.compile(r"没有?孩子|丁克"),
             re.compile(r"\bmy\s+(?:\w+\s+)?(?:son|daughter|kids?|children|child)\b", re.I),
             re.compile(r"我(?:的|家)?(?:儿子|女儿|孩子|闺女|娃)")),
    "pets": (re.compile(r"\b(?:no|don't\s+have\s+(?:any\s+)?)\s*pets\b", re.I), re.compile(r"没(?:有)?养.{0,2}宠物|不养宠物"),
             re.compile(r"\b(?:my|i've\s+got\s+a|i\s+have\s+a)\s+(?:\w+\s+)?(?:dog|cat|puppy|kitten|rabbit|parrot)\b", re.I),
             re.compile(r"我(?:家)?(?:的|养了?)?(?:一只|只)?(?:猫|狗)")),
}


_PLACE = r"(?P<place>[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*)*)"
_EN_HOMES = tuple(re.compile(p) for p in (
    rf"\b(?:I|[Ww]e)(?:\s+live|\s+am\s+based|'m\s+based|'re\s+based|\s+are\s+based|\s+reside)"
    rf"\s+(?:right\s+)?(?:in|near)\s+"
    rf"(?:the\s+)?(?:centre\s+of\s+|center\s+of\s+|heart\s+of\s+)?{_PLACE}",
    rf"\b[Mm]y\s+(?:apartment|flat|home|house|place)\s+is\s+in\s+{_PLACE}",
    rf"^\W*[Hh]ome\s+is\s+{_PLACE}",
    rf"\b(?:I|[Ww]e)\s+rent\s+a\s+(?:place|flat|room|house|apartment)\s+in\s+{_PLACE}",
    rf"^\W*{_PLACE}\s+is\s+where\s+I\s+live",
))
_EN_RURAL = re.compile(r"\b(?:countryside|rural|village|farm|middle\s+of\s+nowhere|miles\s+from)\b", re.I)
_EN_URBAN = re.compile(r"\b(?:city\s+cent(?:re|er)|centre\s+of|center\s+of|downtown|heart\s+of)\b", re.I)


def _home(text: str, zh: bool) -> str | None:
    if zh:
        if re.search(r"乡下|农村|村里|郊区", text) and re.search(r"住|家", text):
            return "#rural"
        if re.search(r"市中心|市区", text) and re.search(r"住在", text):
            return "#urban"
        found = _ZH_HOME.search(text)
        if found is None:
            return None
        if found["verb"] == "在" and not re.match(r"租|住|生活|买", text[found.end() :]):
            return None  # "我在北京工作" names a workplace, not a home
        return found["place"]
    if _EN_RURAL.search(text) and re.search(r"\b(?:live|home|based)\b", text, re.I):
        return "#rural"
    m = next((m for m in (p.search(text) for p in _EN_HOMES) if m is not None), None)
    if m is None:
        return None
    if _EN_URBAN.search(text):
        return "#urban"
    return m["place"].lower().rstrip(".")


_EN_TASTES = (
    (True, re.compile(r"\b(?:i|i\s+really|i\s+absolutely)\s+(?:love|adore|like|enjoy)\s+(?P<x>[a-z][a-z\s-]*)", re.I)),
    (True, re.compile(r"^\W*(?P<x>[a-z][a-z\s-]*?)\s+(?:is|are)\s+(?:basically\s+|honestly\s+)?(?:all\s+i\s+"
                      r"(?:listen\s+to|eat|watch|read|play)|my\s+(?:absolute\s+)?(?:favou?rite|fave|thing))\b", re.I)),
    (False, re.compile(r"\b(?:i|i\s+really|i\s+absolutely)\s+(?:hate|dislike|detest|loathe|can't\s+stand|cannot\s+stand"
                       r"|don't\s+like|do\s+not\s+like)\s+(?P<x>[a-z][a-z\s-]*)", re.I)),
    (False, re.compile(r"^\W*(?:honestly\s+|frankly\s+)?(?P<x>[a-z][a-z\s-]*?)\s+(?:is|are)(?:n't|\s+not)\s+(?:really\s+)?"
                       r"(?:for\s+me|my\s+thing)", re.I)),
)
_ZH_TASTES = (
    (True, re.compile(r"^(?P<x>[\u4e00-\u9fffA-Za-z]{1,6}?)是我(?:的)?最(?:爱|喜欢)的")),
    (True, re.compile(r"(?:只|天天|每天都)(?:听|吃|看|喝|玩)(?P<x>[\u4e00-\u9fffA-Za-z]{1,6})")),
    (False, re.compile(r"(?:不喜欢|不爱|讨厌|受不了|反感|厌恶|烦)(?:吃|喝|听|看|玩)?(?P<x>[\u4e00-\u9fffA-Za-z]{1,6})")),
    (True, re.compile(r"(?<![不])(?:最喜欢|喜欢|最爱|热爱|爱|迷上了?)(?:吃|喝|听|看|玩)?(?P<x>[\u4e00-\u9fffA-Za-z]{1,6})")),
)
_TASTE_STOP = re.compile(r"^(?:it|them|that|this|the|a|an)\b|^(?:的|这|那|你|他|她)")


def _taste_key(raw: str, zh: bool) -> str:
    raw = raw.strip().lower()
    for name, (en_cue, zh_cue, _) in CONCEPTS.items():
        if (zh_cue if zh else en_cue).search(raw):
            return f"#{name}"
    if zh:
        return re.sub(r"(?:了|的|啊|呀|乐|音乐)+$", "", raw)[:4]
    words = [w for w in raw.split() if w not in ("the", "a", "an", "to", "and", "it", "just")]
    word = words[0] if words else ""
    return word[:-1] if word.endswith("s") and len(word) > 3 else word


def _tastes(text: str, zh: bool) -> dict[str, bool]:
    out: dict[str, bool] = {}
    for clause in _CLAUSE_SPLIT.split(text):
        for positive, pattern in _ZH_TASTES if zh else _EN_TASTES:
            m = pattern.search(clause)
            if m is None or _TASTE_STOP.match(m["x"].strip().lower()):
                continue
            key = _taste_key(m["x"], zh)
            if key:
                out.setdefault(key, positive)
            break
    return out


_ZH_HOME = re.compile(
    r"我(?:们)?(?:现在|目前|一直)?(?P<verb>住在|住|生活在|定居在|家在|的公寓在|的房子在|在)"
    r"(?P<place>(?![的在])[\u4e00-\u9fff]{2,4}?)(?=[，。,.!！市区县\s]|$|离|的|租|住|生活|买)"
)
_SPOUSE = re.compile(r"\bmy\s+(?:husband|wife|spouse)\b|我(?:的)?(?:老公|老婆|丈夫|妻子|爱人)", re.I)


@lru_cache(maxsize=8192)
def read_profile(text: str) -> Profile:
    """Read what ``text`` says about the user (see the module docstring)."""
    zh = has_cjk(text)
    other = (_ZH_OTHER if zh else _EN_OTHER).search(text)
    return Profile(
        about_user=other is None,
        past=bool(PAST[1 if zh else 0].search(text)),
        addition=bool(ADDITION[1 if zh else 0].search(text)),
        concepts=_concepts(text, zh),
        poles=_poles(text, zh),
        jobs=_jobs(text, zh),
        working=False if NOT_WORKING[1 if zh else 0].search(text) else (
            True if WORKING[1 if zh else 0].search(text) else None),
        age=_age(text, zh),
        names=_names(text, zh),
        counts=_counts(text, zh),
        home=_home(text, zh),
        tastes=_tastes(text, zh),
        spouse=bool(_SPOUSE.search(text)),
    )
