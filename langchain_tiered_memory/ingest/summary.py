"""Extractive summaries, entity spotting and importance scores, without an LLM.

`summarize` ranks sentences by TF-IDF centrality (a sentence that shares rare words with many
others carries the conversation's topic; computed against the sum of all sentence vectors, so
it is linear in the conversation's length), gives user sentences that state facts a bonus, and
returns the best ones in their original order under a character budget. `extract_entities` and
`score_importance` feed the EPISODIC tier (``Episode.entity_ids``, ``Episode.importance``).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from langchain_tiered_memory.ingest.extraction import (
    ExtractedFact,
    MessageLike,
    as_role_text,
    extract_facts,
    split_sentences,
)
from langchain_tiered_memory.text import tokenize

__all__ = ["extract_entities", "score_importance", "summarize"]

_ROLES = ("user", "human", "assistant")
_FILLER_RE = re.compile(
    r"^(?:(?:hi|hello|hey|thanks|thank you|ok|okay|sure|great|cool|yes|no|bye|lol|haha|hmm"
    r"|got it|sounds good|nice)(?:\s+(?:there|ok|okay|so much|a lot|then))?"
    r"|谢谢|好的|你好|嗯|哈+|\[image\])[\s!.,。！~]*$",
    re.IGNORECASE,
)
_DUPLICATE_COSINE = 0.7
_MIN_RELATIVE_SCORE = 0.2
# A summary of a few hundred characters needs no more candidates than this: a longer
# conversation is sampled at an even stride, which keeps its time bounded and its topics.
MAX_CANDIDATES = 4000
# Messages read for the summary and the entities of one conversation (the same even stride):
# the most frequent names of a 90,000-turn chat are those of any 2,000 turns spread over it.
MAX_MESSAGES = 2000


def _spread(items: Sequence[Any], limit: int) -> Sequence[Any]:
    """At most ``limit`` items taken at an even stride (all of them when there are fewer)."""
    if len(items) <= limit:
        return items
    stride = len(items) / limit
    return [items[int(i * stride)] for i in range(limit)]


def _sentences(messages: Sequence[MessageLike]) -> list[tuple[str, str, int]]:
    out: list[tuple[str, str, int]] = []
    for index, item in enumerate(messages):
        role, text = as_role_text(item)
        if role not in _ROLES or not text:
            continue
        role = "user" if role == "human" else role
        for sentence in split_sentences(text):
            if len(sentence) >= 3 and not _FILLER_RE.match(sentence):
                out.append((role, sentence, index))
    return out


def _tfidf(docs: list[list[str]]) -> list[dict[str, float]]:
    df: Counter[str] = Counter()
    for doc in docs:
        df.update(set(doc))
    n = len(docs)
    vectors: list[dict[str, float]] = []
    for doc in docs:
        tf = Counter(doc)
        vec = {t: (1 + math.log(c)) * math.log(1 + n / df[t]) for t, c in tf.items()}
        norm = math.sqrt(sum(v * v for v in vec.values())) or 1.0
        vectors.append({t: v / norm for t, v in vec.items()})
    return vectors


def _cosine(a: dict[str, float], b: dict[str, float]) -> float:
    if len(a) > len(b):
        a, b = b, a
    return sum(v * b.get(t, 0.0) for t, v in a.items())


def summarize(messages: Sequence[MessageLike], *, max_chars: int = 600) -> str:
    """Extractive summary of a conversation.

    Args:
        messages: `NormalizedMessage` values, ``(role, text)`` tuples, LangChain messages or dicts.
            User and assistant turns are used.
        max_chars: Upper bound on the summary length (always respected).

    Returns:
        The chosen sentences in conversation order, joined by spaces; "" when there is nothing.
        A conversation of more than `MAX_MESSAGES` messages (or `MAX_CANDIDATES` sentences) is
        summarised from that many, taken at an even stride.
    """
    sentences = list(_spread(_sentences(_spread(messages, MAX_MESSAGES)), MAX_CANDIDATES))
    if not sentences or max_chars <= 0:
        return ""
    token_lists = [tokenize(s) for _, s, _ in sentences]
    vectors = _tfidf(token_lists)
    fact_sentences = {f.evidence for f in extract_facts([(r, s) for r, s, _ in sentences])}
    # Centrality is the summed cosine to every other sentence: with unit vectors that is the dot
    # product with the sum of all vectors, minus the sentence's own 1. Linear, not pairwise.
    total: dict[str, float] = {}
    for vec in vectors:
        for term, weight in vec.items():
            total[term] = total.get(term, 0.0) + weight
    scores: list[float] = []
    for i, (role, sentence, _) in enumerate(sentences):
        own = sum(v * v for v in vectors[i].values())
        centrality = _cosine(vectors[i], total) - own
        score = centrality / max(1, len(vectors) - 1) + 0.02 * min(len(token_lists[i]), 15)
        if sentence in fact_sentences:
            score += 0.5
        if role == "user":
            score += 0.05
        scores.append(score)
    order = sorted(range(len(sentences)), key=lambda i: (-scores[i], i))
    # Filling the budget with near-zero sentences would add noise, not information.
    floor = _MIN_RELATIVE_SCORE * scores[order[0]]
    chosen: list[int] = []
    used = 0
    for i in order:
        if scores[i] < floor:
            break
        text = sentences[i][1]
        extra = len(text) + (1 if chosen else 0)
        if used + extra > max_chars:
            continue
        if any(_cosine(vectors[i], vectors[j]) > _DUPLICATE_COSINE for j in chosen):
            continue
        chosen.append(i)
        used += extra
    if not chosen:
        best = sentences[order[0]][1]
        return best[: max(0, max_chars - 1)].rstrip() + "…" if max_chars > 1 else best[:max_chars]
    return " ".join(sentences[i][1] for i in sorted(chosen))


_EN_ENTITY_RE = re.compile(r"\b[A-Z][a-zA-Z0-9'’.-]*[a-zA-Z0-9](?:\s+(?:of\s+|de\s+)?[A-Z][a-zA-Z0-9'’-]*)*")
_HANDLE_RE = re.compile(r"(?<![\w@])@[A-Za-z0-9_]{2,30}\b")
_ZH_NAME_RE = re.compile(r"(?:我叫|名叫|叫做|我的名字是|他叫|她叫)([\u4e00-\u9fff]{2,3})(?=[，,。！!？?\s]|$|我|是|的)")
_ZH_PLACE_RE = re.compile(
    r"(?:住在|来自|在|去|到|搬到)([\u4e00-\u9fff]{2,4}?)(?:工作|上班|生活|读书|旅游|出差|[，,。！!]|$)"
)
_NOT_ENTITIES = frozenset(
    ["I", "I'm", "I've", "I'll", "I'd", "The", "A", "An", "And", "But", "So", "If", "Then", "This", "That", "These", "Those", "It", "It's", "My", "Your", "Our", "We", "You", "He", "She", "They", "Hi", "Hello", "Hey", "Thanks", "Thank", "Yes", "No", "Ok", "Okay", "Sure", "What", "When", "Where", "Why", "How", "Who", "Which", "Can", "Could", "Would", "Should", "Please", "Let", "Let's", "Here", "There", "Also", "Just", "Not", "Do", "Does", "Did", "Is", "Are", "Was", "Great", "Good", "Nice", "Well", "Oh", "User", "Assistant", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "Today", "Tomorrow", "Yesterday"]
)
_ZH_PLACE_STOP = frozenset({"这里", "那里", "哪里", "家里", "公司", "学校", "网上", "这个", "那个"})


def extract_entities(messages: Sequence[MessageLike]) -> list[str]:
    """Names, @handles and places mentioned in user and assistant turns.

    English: capitalised word runs ("Dana", "New York"), except sentence-initial common words;
    @handles; Chinese: names after 我叫/叫/名叫, places after 住在/来自/在...工作.

    Returns:
        Distinct entities, most frequent first (ties in order of first mention); a conversation
        of more than `MAX_MESSAGES` messages is read at an even stride.
    """
    counts: Counter[str] = Counter()
    first: dict[str, int] = {}

    def add(entity: str) -> None:
        entity = entity.strip(" .'’-")
        if len(entity) < 2 or entity in _NOT_ENTITIES:
            return
        counts[entity] += 1
        first.setdefault(entity, len(first))

    sentences = [s for _, s, _ in _sentences(_spread(messages, MAX_MESSAGES))]
    # A capitalised word that only ever appears sentence-initially is probably not a name.
    mid_sentence = {
        m.group(0) for s in sentences for m in _EN_ENTITY_RE.finditer(s) if m.start() > 0
    }
    for sentence in sentences:
        for handle in _HANDLE_RE.findall(sentence):
            add(handle)
        for match in _EN_ENTITY_RE.finditer(sentence):
            words = match.group(0).split()
            while words and words[0] in _NOT_ENTITIES:
                words = words[1:]
            if not words:
                continue
            candidate = " ".join(words)
            if match.start() == 0 and len(words) == 1 and candidate not in mid_sentence:
                continue
            add(candidate)
        for name in _ZH_NAME_RE.findall(sentence):
            add(name)
        for place in _ZH_PLACE_RE.findall(sentence):
            if place not in _ZH_PLACE_STOP:
                add(place)
    return sorted(counts, key=lambda e: (-counts[e], first[e]))


_EMPHASIS_RE = re.compile(
    r"\b(?:remember|important|don't forget|never forget|always|must|critical|crucial)\b"
    r"|记住|重要|别忘|不要忘|一定要|务必",
    re.IGNORECASE,
)
_KIND_WEIGHT = {
    "identity": 1.0,
    "constraint": 1.0,
    "preference": 0.8,
    "decision": 0.8,
    "goal": 0.7,
    "fact": 0.6,
}


def score_importance(
    messages: Sequence[MessageLike] | str,
    *,
    facts: Sequence[ExtractedFact] | None = None,
    entities: Sequence[str] | None = None,
) -> float:
    """A 0-1 importance for a message, a conversation or a text.

    ``0.15`` base, plus ``0.45 * (1 - exp(-w))`` where ``w`` sums the kind weights of the user facts
    found (identity/constraint 1.0 ... fact 0.6), plus 0.15 when the user stresses something
    ("remember", "important", "记住"), plus up to 0.1 for named entities and up to 0.15 for substance
    (user words, saturating around 200 tokens). Clamped to [0, 1].

    Args:
        messages: Messages in any supported form, or a plain text (read as one user message).
        facts: Facts already extracted from ``messages`` (saves re-extracting).
        entities: `extract_entities` of ``messages``, when already known.
    """
    items: Sequence[MessageLike] = [("user", messages)] if isinstance(messages, str) else messages
    if facts is None:
        facts = extract_facts(items)
    weight = sum(_KIND_WEIGHT.get(f.kind, 0.5) * f.confidence for f in facts)
    user_text = " ".join(t for r, t in map(as_role_text, items) if r in ("user", "human"))
    score = 0.15 + 0.45 * (1.0 - math.exp(-weight))
    if _EMPHASIS_RE.search(user_text):
        score += 0.15
    if entities is None:
        entities = extract_entities(items)
    score += min(0.1, 0.03 * len(entities))
    # Saturates at 200 tokens: the first 20,000 characters hold those in any real text.
    score += 0.15 * min(1.0, len(tokenize(user_text[:20_000])) / 200)
    return round(max(0.0, min(1.0, score)), 4)
