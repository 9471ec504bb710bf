"""Extractive summary, entities, importance."""

from __future__ import annotations

from pathlib import Path

from langchain_tiered_memory.ingest import parse_file
from langchain_tiered_memory.ingest.summary import extract_entities, score_importance, summarize

EXPORTS = Path(__file__).resolve().parents[1] / "data" / "exports"

CHAT = [
    ("user", "Hi there!"),
    ("user", "I'm planning a trip to Japan in April with my sister Mei."),
    ("assistant", "April is cherry blossom season in Japan, so book hotels in Kyoto early."),
    ("user", "Good point. Hotels in Kyoto get expensive in April."),
    ("assistant", "Consider staying in Osaka and taking the train to Kyoto."),
    ("user", "lol ok"),
    ("assistant", "The weather is mild."),
]


def test_summary_respects_budget_and_keeps_order() -> None:
    for budget in (40, 120, 600):
        out = summarize(CHAT, max_chars=budget)
        assert 0 < len(out) <= budget
    full = summarize(CHAT, max_chars=600)
    assert "Hi there" not in full and "lol ok" not in full
    assert full.index("Japan") < full.index("Osaka")


def test_summary_prefers_central_sentences() -> None:
    out = summarize(CHAT, max_chars=150)
    assert "Kyoto" in out and "weather" not in out


def test_summary_prefers_user_facts() -> None:
    convs, _ = parse_file(EXPORTS / "chatgpt_conversations.json")
    out = summarize(convs[0].messages, max_chars=60)
    assert out.startswith("My name is Dana and I prefer dark roast coffee.")


def test_summary_empty_and_tiny_budget() -> None:
    assert summarize([], max_chars=100) == ""
    assert summarize([("tool", "42")]) == ""
    out = summarize(
        [("user", "A single very long sentence about databases and indexes.")], max_chars=10
    )
    assert 0 < len(out) <= 10 and out.endswith("…")


def test_entities_english_handles_and_chinese() -> None:
    ents = extract_entities(CHAT)
    assert set(ents[:3]) == {"Kyoto", "April", "Japan"} and {"Mei", "Osaka"} <= set(ents)
    assert "Hi" not in ents and "Good" not in ents and "Hotels" not in ents
    assert "@dana_r" in extract_entities([("user", "ping @dana_r about it")])
    zh = extract_entities([("user", "我叫李雷，我住在上海。"), ("user", "我在杭州工作")])
    assert {"李雷", "上海", "杭州"} <= set(zh)


def test_importance_orders_conversations() -> None:
    chit = score_importance([("user", "lol ok"), ("assistant", "haha")])
    factual = score_importance([("user", "My name is Dana and I'm allergic to peanuts.")])
    stressed = score_importance(
        [("user", "Please remember: my name is Dana and I'm allergic to peanuts.")]
    )
    assert 0.0 <= chit < factual < stressed <= 1.0
    assert score_importance("I live in Oslo.") > score_importance("ok")


def _pairwise_summary(messages: list[tuple[str, str]], max_chars: int) -> str:
    """The former all-pairs centrality, as the reference for short conversations."""
    from langchain_tiered_memory.ingest import summary as mod

    sentences = mod._sentences(messages)
    tokens = [mod.tokenize(s) for _, s, _ in sentences]
    vectors = mod._tfidf(tokens)
    facts = {f.evidence for f in mod.extract_facts([(r, s) for r, s, _ in sentences])}
    scores = []
    for i, (role, sentence, _) in enumerate(sentences):
        c = sum(mod._cosine(vectors[i], vectors[j]) for j in range(len(vectors)) if j != i)
        score = c / max(1, len(vectors) - 1) + 0.02 * min(len(tokens[i]), 15)
        score += (0.5 if sentence in facts else 0.0) + (0.05 if role == "user" else 0.0)
        scores.append(score)
    order = sorted(range(len(sentences)), key=lambda i: (-scores[i], i))
    chosen: list[int] = []
    used = 0
    for i in order:
        if scores[i] < mod._MIN_RELATIVE_SCORE * scores[order[0]]:
            break
        extra = len(sentences[i][1]) + (1 if chosen else 0)
        if used + extra > max_chars or any(
            mod._cosine(vectors[i], vectors[j]) > mod._DUPLICATE_COSINE for j in chosen
        ):
            continue
        chosen.append(i)
        used += extra
    return " ".join(sentences[i][1] for i in sorted(chosen))


def test_linear_centrality_matches_the_pairwise_one_on_short_chats() -> None:
    convs, _ = parse_file(EXPORTS / "chatgpt_conversations.json")
    chats = [CHAT] + [[(m.role, m.content) for m in c.messages] for c in convs]
    for chat in chats:
        for budget in (60, 200, 600):
            assert summarize(chat, max_chars=budget) == _pairwise_summary(chat, budget)


def test_long_transcript_summarises_in_seconds() -> None:
    import random
    import time

    rng = random.Random(7)
    words = [
        "coffee",
        "tea",
        "trip",
        "japan",
        "kyoto",
        "osaka",
        "hotel",
        "train",
        "april",
        "sister",
        "budget",
        "flight",
        "museum",
    ]
    for n in (1_000, 16_000):
        chat = [
            ("user" if i % 2 else "assistant", " ".join(rng.choices(words, k=12)) + f". Item {i}.")
            for i in range(n)
        ]
        start = time.perf_counter()
        out = summarize(chat)
        elapsed = time.perf_counter() - start
        assert 0 < len(out) <= 600
        assert elapsed < 5.0, f"{n} lines took {elapsed:.1f} s"  # was 275 s at 16k lines
