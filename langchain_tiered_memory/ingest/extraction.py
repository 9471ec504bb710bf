"""Heuristic (offline) extraction of durable user facts from chat messages, English and Chinese.

Only user turns are read. Each is split into sentences; questions, passing states ("I'm tired
today") and jokes ("lol", "哈哈") are skipped, and a match is dropped when the text before it is
hypothetical ("if I were...", "如果...") or reports someone else's words ("my friend said...",
"他说..."). Three layers read a sentence, most precise first: the family rules
(`extraction_families`, `extraction_families_zh`: relatives, jobs in passing, conditions, diets,
team decisions, standing requests, habits...), the base pattern table (`extraction_rules`), and,
when neither found anything, the clause-level fallback (`extraction_clauses`): a first-person
declarative naming a family cue becomes a fact with a key unique to it, so unrelated facts never
supersede each other.

Statements are written in the third person with "User" as the subject ("User prefers dark roast
coffee"; Chinese: "用户喜欢喝绿茶") so that they read correctly when injected into a system prompt
and do not depend on who is speaking. Keys are stable semantic slots ("preference.coffee",
"identity.name", "location.home") so that a later statement on the same slot versions the earlier
one in the store.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from langchain_tiered_memory.ingest.extraction_clauses import classify_clause
from langchain_tiered_memory.ingest.extraction_families import EN_FAMILY_RULES
from langchain_tiered_memory.ingest.extraction_families_zh import ZH_FAMILY_RULES
from langchain_tiered_memory.ingest.extraction_filters import (
    is_passing_state,
    is_sarcastic,
    third_person_verb,
    zh_third_person,
)
from langchain_tiered_memory.ingest.extraction_rules import EN_RULES, ZH_RULES, FactKind, Rule
from langchain_tiered_memory.ingest.messages import NormalizedMessage, text_from_parts

__all__ = [
    "FACT_KINDS",
    "ExtractedFact",
    "MessageLike",
    "as_role_text",
    "extract_facts",
    "split_sentences",
]

FACT_KINDS: tuple[FactKind, ...] = (
    "preference",
    "identity",
    "goal",
    "constraint",
    "decision",
    "fact",
)

MessageLike = Any
"""A `NormalizedMessage`, a ``(role, text)`` tuple, a LangChain ``BaseMessage`` or a
``{"role", "content"}`` dict."""

_USER_KEY_PREFIXES = (
    "health.", "diet.", "relation.", "family.", "location.", "pet.", "habit.", "schedule.",
    "possession.", "language.", "hobby.",
)
# Family rules first: they claim text the general table would misread ("I'm a type 1 diabetic"
# is a condition, not a job).
_EN_TABLE: tuple[Rule, ...] = (*EN_FAMILY_RULES, *EN_RULES)
_ZH_TABLE: tuple[Rule, ...] = (*ZH_FAMILY_RULES, *ZH_RULES)


@dataclass(frozen=True, slots=True)
class ExtractedFact:
    """A durable fact found in a user message.

    Attributes:
        content: Third-person statement ("User prefers dark roast coffee").
        key: Stable semantic key; a later fact with the same key supersedes this one.
        kind: preference, identity, goal, constraint, decision or fact.
        confidence: 0-1; explicit statements score higher, hedged ones lower.
        tags: Kind and topic, for filtering.
        is_user_type: True when the fact describes the user (identity, preference, and personal
            health/diet/family/location facts): store it as ``MemoryType.USER`` (no decay).
        source_index: Index of the message it came from in the input sequence.
        evidence: The sentence it was read from.
    """

    content: str
    key: str
    kind: FactKind
    confidence: float
    tags: tuple[str, ...]
    is_user_type: bool
    source_index: int
    evidence: str = ""


# ---- input coercion -----------------------------------------------------------------------

_LC_ROLES = {"human": "user", "ai": "assistant", "system": "system", "tool": "tool"}


def as_role_text(item: MessageLike) -> tuple[str, str]:
    """Read (role, text) from any supported message form; unknown forms give ("", "")."""
    if isinstance(item, NormalizedMessage):
        return item.role, item.content
    if isinstance(item, tuple) and len(item) == 2:
        role, text = item
        return str(role).lower(), text if isinstance(text, str) else text_from_parts(text)
    if isinstance(item, Mapping):
        role = str(item.get("role") or item.get("type") or "").lower()
        return _LC_ROLES.get(role, role), text_from_parts(item.get("content"))
    msg_type = getattr(item, "type", None)
    if isinstance(msg_type, str) and hasattr(item, "content"):
        return _LC_ROLES.get(msg_type, msg_type), text_from_parts(item.content)
    return "", ""


# ---- sentences and filters ------------------------------------------------------------------

_SENTENCE_SPLIT_RE = re.compile(r"(?<=[.!?])\s+|(?<=[。！？；;…])|\n+")
_CJK_RE = re.compile(r"[\u4e00-\u9fff]")
_EN_QUESTION_START_RE = re.compile(
    r"^\W*(?:what|how|why|when|where|who|whom|which|whose|do|does|did|can|could|would|should|is"
    r"|are|am|will|shall|may|might|have|has|isn't|aren't|don't|doesn't|won't)\b",
    re.IGNORECASE,
)
_ZH_QUESTION_RE = re.compile(
    r"(?:吗|么|呢|嘛)\s*[。.!！~～]*$|是不是|要不要|有没有|能不能|可不可以|什么|怎么|为什么|哪里|哪个|多少"
)
_EN_HYPOTHETICAL_RE = re.compile(
    r"\b(?:if|suppose|supposing|imagine|pretend|assume|assuming|hypothetically|what\s+if"
    r"|let's\s+say|say\s+that|wish|unless|whether)\b",
    re.IGNORECASE,
)
_EN_REPORTED_RE = re.compile(
    r"\b(?:said|says|say|told|tells|thinks|thought|believes|claims|claimed|according\s+to|asked"
    r"|asks|wrote|writes|quote|quoted|mentioned|mentions|saying|apparently|reckons|heard"
    r"|supposedly|keeps\s+telling|insists)\b|[\"“]",
    re.IGNORECASE,
)
_ZH_HYPOTHETICAL_RE = re.compile(r"如果|假如|假设|要是|假若|倘若|万一|想象|假定|若是|就好了")
_ZH_REPORTED_RE = re.compile(r"说|认为|觉得|以为|告诉|听说|据说|提到|“|\"")
_HEDGE_RE = re.compile(
    r"\b(?:maybe|probably|perhaps|i\s+think|i\s+guess|kind\s+of|sort\s+of|kinda|possibly|might)\b"
    r"|可能|也许|大概|好像|或许",
    re.IGNORECASE,
)
_EN_HINT_RE = re.compile(r"\b(?:i|my|we|let's|call\s+me)\b|\bi['’]", re.IGNORECASE)


_MAX_SENTENCE = 500
_PREFIX_WINDOW = 160


def split_sentences(text: str) -> list[str]:
    """Split text into sentences on English and Chinese terminators and line breaks."""
    return [s.strip() for s in _SENTENCE_SPLIT_RE.split(text) if s and s.strip()]


def _is_question(sentence: str) -> bool:
    if sentence.rstrip().endswith(("?", "？")):
        return True
    if _CJK_RE.search(sentence):
        return bool(_ZH_QUESTION_RE.search(sentence))
    return bool(_EN_QUESTION_START_RE.match(sentence))


def _blocked_prefix(prefix: str, lang: str) -> bool:
    """Whether text before a match makes it hypothetical or someone else's words."""
    if lang == "zh":
        return bool(_ZH_HYPOTHETICAL_RE.search(prefix) or _ZH_REPORTED_RE.search(prefix))
    return bool(_EN_HYPOTHETICAL_RE.search(prefix) or _EN_REPORTED_RE.search(prefix))


# ---- objects, topics and keys -----------------------------------------------------------------

_PREPOSITIONS = frozenset(
    ["in", "on", "at", "over", "than", "for", "with", "from", "to", "of", "during", "after", "before", "about", "when", "while", "because", "into", "onto", "instead", "rather", "like", "by", "without", "every", "each", "whenever"]
)
_DETERMINERS = frozenset(
    ["a", "an", "the", "my", "your", "our", "their", "his", "her", "its", "some", "any", "more", "most", "very", "really", "all", "this", "that", "these", "those", "much", "many", "lots", "lot", "bit", "good", "great", "nice", "new", "old", "big", "small", "so", "such", "own"]
)
_LEAD_VERBS = frozenset(
    ["to", "use", "using", "drink", "drinking", "eat", "eating", "have", "having", "be", "being", "get", "getting", "go", "going", "with", "play", "playing", "watch", "watching", "read", "reading", "listen", "listening", "switch", "switching", "move", "moving", "try", "trying", "do", "doing", "take", "taking", "buy", "buying", "ship", "shipping", "adopt"]
)
_TIME_WORDS = frozenset(
    ["next", "this", "within", "before", "by", "until", "in", "after", "during", "every", "each", "someday", "soon", "today", "tomorrow", "tonight", "now", "eventually", "someday", "year", "month", "week", "summer", "winter", "spring", "autumn", "fall"]
)
_TRAILING_ADVERBS = frozenset(
    ["now", "anymore", "nowadays", "lately", "too", "either", "again", "already", "instead", "though", "much", "more"]
)
_TASK_VERBS = frozenset(
    ["know", "ask", "see", "check", "confirm", "understand", "clarify", "convert", "fix", "write", "generate", "translate", "summarize", "summarise", "debug", "explain", "tell", "say", "figure", "find", "remember", "believe", "wait", "open", "run", "install", "load", "connect", "reproduce", "access", "log", "stop", "imagine", "think", "seem", "help", "decide", "make", "sure", "compile", "show", "mention", "point", "add", "rewrite", "refactor", "continue", "start", "answer"]
)
_DEICTIC_RE = re.compile(
    r"\b(?:this(?!\s+(?:year|month|week|weekend|summer|winter|spring|autumn|fall|morning|evening"
    r"|semester|term|quarter))|that|these|those|it|here|there|you|your|yours|the\s+following"
    r"|below|above|which)\b",
    re.IGNORECASE,
)
_NON_TOPIC_HEADS = frozenset(
    ["question", "questions", "problem", "problems", "issue", "issues", "error", "errors", "bug", "bugs", "idea", "doubt", "request", "suggestion", "quick", "follow-up", "minute", "second", "moment", "feeling", "not"]
)
_ZH_TASKY_RE = re.compile(r"你|您|这个|那个|这段|那段|这些|它|知道|问问?|帮我|看看|一下")
_ZH_STRIP_LEAD_RE = re.compile(
    r"^(?:明年|今年|以后|将来|每天|周末|平时|经常|一直|总是|尽快|早日|能够|能|去|喝|吃|用|使用|"
    r"看|听|玩|学会|学习|学|考上|考|做|开|换成|换到|改用|成为|当|买|养|穿|在)"
)
_ZH_STRIP_TAIL_RE = re.compile(r"(?:了|的|吧|啊|呀|哦|呢|啦|嘛)+$")
_WORD_RE = re.compile(r"[a-z0-9][a-z0-9+#'-]*")
_TRAILING_TIME_RE = re.compile(
    r"\s+(?:(?:last|this|a\s+few|few|a\s+couple\s+of|\d+|two|three)\s+(?:days?|weeks?|months?"
    r"|years?|summer|winter|spring|autumn|fall)(?:\s+ago)?|yesterday|recently|ago|lately)\s*$",
    re.IGNORECASE,
)
_TRAILING_FILLER_RE = re.compile(
    r"\s+(?:too|as\s+well|also|lol|haha|please|btw|though|anyway|anyways)\s*$", re.IGNORECASE
)


def _singular(word: str) -> str:
    if len(word) <= 3 or word.endswith(("ss", "us", "is")):
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "xes", "sses")):
        return word[:-2]
    if word.endswith("s"):
        return word[:-1]
    return word


def _slug(text: str) -> str:
    out = re.sub(r"[^\w]+", "_", text.strip().lower()).strip("_")
    return out[:48] or "general"


def _en_words(obj: str) -> list[str]:
    return _WORD_RE.findall(obj.lower())


def _en_topic(obj: str) -> str:
    words = _en_words(obj)
    while words and words[0] in _LEAD_VERBS:
        words = words[1:]
    for i, word in enumerate(words):
        if i > 0 and word in _PREPOSITIONS:
            words = words[:i]
            break
    content = [w for w in words if w not in _DETERMINERS]
    while len(content) > 1 and (content[-1] in _TIME_WORDS or content[-1] in _TRAILING_ADVERBS):
        content.pop()
    return _slug(_singular(content[-1])) if content else "general"


def _en_goal(obj: str) -> str:
    words = [w for w in _en_words(obj) if w not in _DETERMINERS]
    for i, word in enumerate(words):
        if i > 0 and (word in _TIME_WORDS or word in _PREPOSITIONS):
            words = words[:i]
            break
    return _slug("_".join(words[:3])) if words else "general"


def _zh_topic(obj: str) -> str:
    text = obj.strip()
    match = re.search(r"(?:用|使用|采用)?(.+?)(?:来做|做|作为|当作)(.+)$", text)
    if match:
        text = match.group(2)
    for _ in range(4):
        stripped = _ZH_STRIP_LEAD_RE.sub("", text, count=1)
        if stripped == text or not stripped:
            break
        text = stripped
    text = _ZH_STRIP_TAIL_RE.sub("", text).strip()
    return _slug(text[:12]) if text else "general"


def _decision_topic(obj: str, lang: str) -> str:
    if lang == "en":
        match = re.search(r"\bfor\s+(?:the\s+|our\s+|my\s+|a\s+)?(.+)$", obj, re.IGNORECASE)
        if match:
            return _en_topic(match.group(1))
        return _en_topic(obj)
    return _zh_topic(obj)


def _object_ok(obj: str, lang: str) -> bool:
    """Reject objects that are requests or references to the chat, not facts about the user."""
    if lang == "zh":
        return bool(obj.strip()) and not _ZH_TASKY_RE.search(obj)
    words = _en_words(obj)
    while words and words[0] in ("to", "a", "an", "the"):
        words = words[1:]
    if not words or words[0] in _TASK_VERBS or words[0] in _NON_TOPIC_HEADS:
        return False
    if _DEICTIC_RE.search(obj):
        return False
    return any(w not in _DETERMINERS and w not in _PREPOSITIONS for w in words)


def _third_person(text: str, lang: str) -> str:
    if lang == "zh":
        return zh_third_person(text)
    text = re.sub(r"\bmyself\b", "themselves", text, flags=re.IGNORECASE)
    text = re.sub(r"\bmy\b", "their", text, flags=re.IGNORECASE)
    text = re.sub(r"\bme\b", "them", text, flags=re.IGNORECASE)
    text = re.sub(r"\bI(?:'m|’m)\b", "they're", text)
    return re.sub(r"\bI\b", "they", text)


def _clean_object(obj: str) -> str:
    obj = obj.strip().strip("\"'“”‘’").rstrip(".")
    obj = _TRAILING_FILLER_RE.sub("", obj)
    obj = _TRAILING_TIME_RE.sub("", obj)
    return re.sub(r"\s+", " ", obj).strip()


def _fact_from_match(rule: Rule, match: re.Match[str], sentence: str, index: int) -> ExtractedFact | None:
    groups = {k: v for k, v in match.groupdict().items() if v is not None}
    lang = rule.lang
    raw_obj = next((v for k, v in groups.items() if k.startswith("obj")), groups.get("place", ""))
    obj = _clean_object(raw_obj)
    if "{obj}" in rule.statement or "{topic}" in rule.key or "{goal}" in rule.key:
        if not obj and "{obj}" in rule.statement and not rule.object_optional:
            return None
        if rule.check_object and not _object_ok(obj, lang):
            return None
    name = groups.get("name", "").strip()
    if name and lang == "en":
        name = " ".join(w[:1].upper() + w[1:] for w in name.split())
    slot = groups.get("slot", "").strip()
    if rule.kind == "decision":
        topic = _decision_topic(obj, lang)
    else:
        topic = _en_topic(obj) if lang == "en" else _zh_topic(obj)
    goal = _en_goal(obj) if lang == "en" else topic
    head = next((w for w in _en_words(obj) if w not in _DETERMINERS), topic)
    key = rule.key.format(topic=topic, slot=_slug(slot), goal=goal, head=_slug(_singular(head)))
    third = _third_person(obj, lang)
    statement = rule.statement.format(
        obj=third,
        vobj=third_person_verb(third) if lang == "en" else third,
        name=name,
        slot=slot.lower() if lang == "en" else slot,
        article=groups.get("article", "a").lower(),
    )
    statement = re.sub(r"\s+", " ", statement).strip()
    confidence = rule.confidence - (0.2 if _HEDGE_RE.search(sentence) else 0.0)
    tags = tuple(dict.fromkeys((rule.kind, key.rsplit(".", 1)[-1])))
    return ExtractedFact(
        content=statement,
        key=key,
        kind=rule.kind,
        confidence=round(max(0.05, min(1.0, confidence)), 3),
        tags=tags,
        is_user_type=rule.kind in ("identity", "preference") or key.startswith(_USER_KEY_PREFIXES),
        source_index=index,
        evidence=sentence,
    )


def _facts_in_sentence(sentence: str, index: int) -> Iterable[ExtractedFact]:
    zh = bool(_CJK_RE.search(sentence))
    if is_passing_state(sentence, zh=zh):
        return ()
    rulesets: list[tuple[Rule, ...]] = []
    if zh:
        rulesets.append(_ZH_TABLE)
    if not zh or _EN_HINT_RE.search(sentence):
        rulesets.append(_EN_TABLE)
    taken: list[tuple[int, int]] = []
    found: list[tuple[int, ExtractedFact]] = []
    lowered = sentence.lower()
    for fallback in (False, True):
        if fallback and found:
            break
        for rules in rulesets:
            for rule in rules:
                if rule.fallback != fallback:
                    continue
                if rule.needles is not None and not any(n in lowered for n in rule.needles):
                    continue  # it cannot match: none of the literals its matches hold is here
                for match in rule.pattern.finditer(sentence):
                    start, end = match.span()
                    if any(start < t_end and t_start < end for t_start, t_end in taken):
                        continue
                    # Hypothetical or reported speech qualifies the words near the statement.
                    window = sentence[max(0, start - _PREFIX_WINDOW) : start]
                    if _blocked_prefix(window, rule.lang):
                        continue
                    if rule.requires is not None and not rule.requires.search(sentence):
                        continue
                    fact = _fact_from_match(rule, match, sentence, index)
                    if fact is not None:
                        taken.append((start, end))
                        found.append((start, fact))
    if not found:
        clause = _clause_fact(sentence, index, zh)
        return () if clause is None else (clause,)
    found.sort(key=lambda pair: pair[0])
    return (fact for _, fact in found)


_CLAUSE_CONFIDENCE = 0.6


def _clause_fact(sentence: str, index: int, zh: bool) -> ExtractedFact | None:
    """The clause-level fallback, for a sentence no rule read (see `extraction_clauses`)."""
    if zh:
        if _ZH_HYPOTHETICAL_RE.search(sentence):
            return None
    elif _EN_HYPOTHETICAL_RE.search(sentence) or _EN_REPORTED_RE.search(sentence):
        return None
    found = classify_clause(sentence)
    if found is None:
        return None
    confidence = _CLAUSE_CONFIDENCE - (0.2 if _HEDGE_RE.search(sentence) else 0.0)
    return ExtractedFact(
        content=found.statement,
        key=found.key,
        kind=found.kind,
        confidence=round(confidence, 3),
        tags=tuple(dict.fromkeys((found.kind, found.key.split(".", 1)[0]))),
        is_user_type=found.kind in ("identity", "preference")
        or found.key.startswith(_USER_KEY_PREFIXES),
        source_index=index,
        evidence=sentence,
    )


def extract_facts(messages: Sequence[MessageLike]) -> list[ExtractedFact]:
    """Find preferences, identity, goals, constraints and decisions stated by the user.

    Args:
        messages: `NormalizedMessage` values, ``(role, text)`` tuples, LangChain messages or
            ``{"role", "content"}`` dicts. Only user (``human``) messages are read.

    Returns:
        Facts in message order; exact repeats (same key and statement) are kept once. Several
        facts may share a key: the later one is the newer version.
    """
    out: list[ExtractedFact] = []
    seen: set[tuple[str, str]] = set()
    for index, item in enumerate(messages):
        role, text = as_role_text(item)
        if role not in ("user", "human") or not text or is_sarcastic(text):
            continue
        for sentence in split_sentences(text):
            # A stated fact is a short sentence; a longer "sentence" is pasted text (code, logs,
            # a document) whose every match would be a false fact, and scanning it costs.
            if len(sentence) < 4 or len(sentence) > _MAX_SENTENCE or _is_question(sentence):
                continue
            for fact in _facts_in_sentence(sentence, index):
                marker = (fact.key, fact.content.lower())
                if marker not in seen:
                    seen.add(marker)
                    out.append(fact)
    return out
