"""Benign texts shaped like what a memory store mostly holds, for training the learned model.

The attack sets' benign sides are hard look-alikes (manuals, policies, write-ups about attacks);
what a store receives most is short: extracted facts ("The user has a dog"), preferences,
observations of a conversation, and the identifiers and placeholder strings of test code. A
model trained without them refused such texts (the first default-on run of the test suite:
"The user has a dog" 0.95, "note 31", a sha256 hex digest). These generators give the trainer
that side; none of them is used to measure anything, except :func:`everyday`'s ``eval`` half.

:func:`everyday` reads ``data/benign_everyday_{en,zh}.jsonl``: ordinary chat turns, memory facts,
event summaries and preferences written by hand by two session-11 helpers who saw no code and no
data (1,000 English, 800 Chinese). Alternate rows are marked ``train`` and ``eval``: the trainer
uses the first half, ``benchmarks/security.py`` reports false positives on the second.

:func:`speaker_turns` writes chat turns the way a store keeps a transcript, ``Name: text``. Until
session 12 the model saw such turns only in attacks (quoted chat logs, ``Assistant:`` labels), and
refused 20 of 1,032 held-out LoCoMo turns stored with their speaker (2 without it).
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import uuid
from pathlib import Path

SUBJECTS = ["The user", "User", "the user", "Alice", "Bob", "My sister", "He", "She", "I",
            "Caroline", "Melanie", "My manager", "Our neighbour", "用户", "我", "他", "她"]
FACTS = [
    "has a dog", "has two cats", "works as a nurse", "works on the billing service",
    "prefers dark mode", "is allergic to peanuts", "lives in Berlin", "likes jazz",
    "went hiking last weekend", "is learning Spanish", "drives a blue Toyota",
    "moved to Seattle in 2021", "runs every morning", "has a meeting on Friday at 3 pm",
    "is vegetarian", "plays the guitar", "prefers short answers", "uses Linux at work",
    "is training for a marathon", "has a daughter named Mia", "reads science fiction",
    "wants to visit Japan next spring", "is studying for the bar exam", "drinks tea, not coffee",
    "started a new job at a bakery", "is afraid of flying", "volunteers at the animal shelter",
    "bought a house last year", "collects vinyl records", "prefers email over phone calls",
    "is saving for a new laptop", "has a birthday on 12 March", "paints landscapes",
    "attended an LGBTQ support group", "adopted a rescue dog named Max",
    "teaches maths at a high school", "is recovering from a knee injury",
    "likes to cook Italian food", "keeps a journal", "forgot the password to the old laptop",
    "changed the Wi-Fi password last week", "asked the bank to send a new card",
    "told the team to ignore the old spreadsheet", "always takes the train to work",
    "never eats breakfast", "reminded me to call the dentist", "follows the admin blog",
    "喜欢喝咖啡", "住在上海", "有一只猫", "在学吉他", "对花生过敏", "下周要去北京出差",
    "每天早上跑步", "是一名护士", "最近在准备考试", "以后想去日本旅游",
]
WHEN = ["", "", "", " since 2019", " last year", " on weekends", " (mentioned on 8 May 2023)",
        " according to the last session", " now", " again"]
WORDS = ["river", "green", "apple", "mountain", "coffee", "project", "garden", "music",
         "budget", "travel", "summer", "kitchen", "report", "meeting", "invoice", "piano"]


def memory_facts(rng: random.Random, n: int = 2500) -> list[str]:
    """Extracted facts and observations in the third and first person, English and Chinese."""
    out = []
    for _ in range(n):
        subject, fact = rng.choice(SUBJECTS), rng.choice(FACTS)
        cjk = bool(re.search(r"[\u4e00-\u9fff]", subject + fact))
        out.append(subject + fact if cjk else f"{subject} {fact}{rng.choice(WHEN)}.")
    return out


def placeholder_strings(rng: random.Random, n: int = 1500) -> list[str]:
    """Identifiers and placeholder texts of the kind test code and demos write."""
    out: list[str] = []
    for i in range(n):
        a, b = rng.choice(WORDS), rng.choice(WORDS)
        out += rng.choice([
            [f"note {i}", f"note {i} about {a} and {b}", f"big note {i}", f"memory {i}"],
            [f"user {i % 50} fact {i} about topic{i % 50}x{i}", f"fact {i}: {a}", f"test {a}"],
            [uuid.UUID(int=rng.getrandbits(128)).hex, str(uuid.UUID(int=rng.getrandbits(128)))],
            [hashlib.sha256(str(i).encode()).hexdigest(), hashlib.md5(a.encode()).hexdigest()],
            ["hello", "hello world", "ai", "ok", a, f"{a} {b}", f"hello world\nn: {i}"],
            [f"{a}.{b}", f"preference.{a}", f"{a}_{b}_{i}", f"item{i}x{i % 7}"],
        ])
    return out


def locomo_observations(file: Path) -> list[str]:
    """Observations, events and session summaries of one LoCoMo file (facts about speakers)."""
    doc = json.loads(file.read_text(encoding="utf-8"))
    out: list[str] = []
    for key, value in doc.items():
        if key.endswith("_observation") and isinstance(value, dict):
            out += [item[0] for items in value.values() for item in items if item]
        elif key.startswith("events_session") and isinstance(value, dict):
            out += [e for k, v in value.items() if k != "date" for e in v]
        elif key.endswith("_summary") and isinstance(value, str):
            out += [s.strip() for s in re.split(r"(?<=[.!?])\s+", value) if s.strip()]
    return out


def locomo_stored_turns(file: Path) -> list[dict[str, str]]:
    """One LoCoMo file's turns as ``benchmarks/locomo.py`` stores them: ``dia_id`` and ``text``,
    ``Speaker: text``, with ``[image: caption]`` after a turn that shared a photo."""
    raw = json.loads(file.read_text(encoding="utf-8"))
    turns = []
    for key, value in raw.items():
        if key.startswith("session_") and isinstance(value, list):
            for turn in value:
                text = f"{turn['speaker']}: {turn['text']}"
                if turn.get("blip_caption"):
                    text += f" [image: {turn['blip_caption']}]"
                turns.append({"dia_id": turn["dia_id"], "text": text})
    return turns


# Speakers of both languages' chat turns (LoCoMo's own speakers excluded: its files measure).
SPEAKERS = ["Ana", "Ben", "Chloe", "Dev", "Emeka", "Farah", "Gus", "Hana", "Ivan", "Jade",
            "Kofi", "Lena", "Marco", "Nia", "Omar", "Pia", "Raj", "Sofia", "Tom", "Yuki",
            "小王", "李娜", "阿强", "陈老师", "Mom", "Dad", "Grandma"]
CAPTIONS = ["a dog on a beach", "a plate of pasta", "a group of friends at a park",
            "a handwritten note on a table", "a city skyline at night", "a cake with candles",
            "a bookshelf full of books", "a mountain trail", "a poster for a concert"]


def speaker_turns(turns: list[str], rng: random.Random) -> list[str]:
    """Each turn as a transcript line, ``Speaker: text``, sometimes with a LoCoMo-style image
    caption, the way a store keeps a conversation."""
    out = []
    for text in turns:
        line = f"{rng.choice(SPEAKERS)}: {text}"
        if rng.random() < 0.15:
            line += f" [image: a photo of {rng.choice(CAPTIONS)}]"
        out.append(line)
    return out


EVERYDAY = Path(__file__).resolve().parent / "data"


def everyday(split: str) -> list[dict[str, str]]:
    """The hand-written everyday rows of one ``split`` (``train`` or ``eval``), both languages."""
    rows: list[dict[str, str]] = []
    for lang in ("en", "zh"):
        path = EVERYDAY / f"benign_everyday_{lang}.jsonl"
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if row.get("split") == split:
                rows.append(row)
    return rows
