"""Issue 17: every fact family is read whatever its phrasing, in English and Chinese.

Each family has a couple of statements (kind and key prefix checked, and the statement rewritten
in the third person) and a look-alike that must yield nothing: a question, a hypothetical,
someone else's words, a passing state, a joke or a one-off request.
"""

from __future__ import annotations

import pytest

from langchain_tiered_memory.ingest.extraction import extract_facts

FAMILIES = [
    # relatives with names, and relatives described
    ("My son Ezra starts kindergarten in the autumn.", "fact", "family.son"),
    ("I've got a daughter called Noor.", "fact", "family.daughter"),
    ("My older brother runs a climbing gym in Leeds.", "fact", "family.older_brother"),
    ("我女儿今年上小学二年级。", "fact", "family.女儿"),
    ("我老公在一家保险公司上班。", "fact", "family.老公"),
    # occupations said in passing
    ("I work the night shift as a radiographer.", "identity", "identity.occupation"),
    ("Being a high school librarian, I get summers off.", "identity", "identity.occupation"),
    ("我在急诊科做护士已经六年了。", "identity", "identity.occupation"),
    ("本人是一名消防员。", "identity", "identity.occupation"),
    # health conditions
    ("I've got type 2 diabetes, so I watch my sugar.", "constraint", "health.condition"),
    ("I have a severe shellfish allergy.", "constraint", "health.allergy"),
    ("我有哮喘，冬天很容易犯。", "constraint", "health.condition"),
    # diets
    ("We keep kosher at home.", "constraint", "diet"),
    ("我是素食主义者。", "constraint", "diet"),
    # plans tied to events
    ("I'm training for the Vienna half marathon in April.", "goal", "goal."),
    ("我在准备明年六月的雅思考试。", "goal", "goal."),
    # team decisions
    ("We decided to replace Jira with Linear next quarter.", "decision", "decision."),
    ("团队决定下个月把前端迁移到React。", "decision", "decision."),
    # budgets and amounts
    ("Our budget for the bathroom is around 8k.", "constraint", "budget."),
    ("我换电脑的预算是八千以内。", "constraint", "budget."),
    # standing style requests
    ("Always answer me in Portuguese.", "preference", "language.reply"),
    ("From now on keep code samples in Go, please.", "preference", "preference.style"),
    ("以后回答我请用英文。", "preference", "language.reply"),
    ("以后回答尽量简短一点。", "preference", "preference.style"),
    # habits, also stated by negation
    ("I don't cook, I just order in.", "fact", "habit."),
    ("I cycle to the lab every morning.", "fact", "habit."),
    ("我每天早上六点起床跑步。", "fact", "habit."),
    ("我平时不开车，出门都坐地铁。", "fact", "habit."),
    # moves and homes
    ("We relocated to Graz in the spring.", "identity", "location.home"),
    ("我们去年从成都搬到了昆明。", "identity", "location.home"),
    # languages, ages, schedules, pets, possessions, education
    ("I speak Dutch and a bit of Swahili.", "identity", "identity.language"),
    ("我会说粤语和一点日语。", "identity", "identity.language"),
    ("I turned 41 in March.", "identity", "identity.age"),
    ("我是九零后。", "identity", "identity.age"),
    ("I'm only free after 7 on weekdays.", "constraint", "schedule."),
    ("我每周三晚上有课。", "constraint", "schedule."),
    ("We adopted a rescue greyhound named Olive.", "fact", "pet."),
    ("我养了一只橘猫叫胖虎。", "fact", "pet."),
    ("I drive a 2011 Mazda 3.", "fact", "possession."),
    ("I graduated from Leeds with a physics degree.", "identity", "identity.education"),
]

LOOK_ALIKES = [
    "If I moved to Graz, would I need a car?",  # hypothetical
    "My neighbour says she's allergic to cats.",  # someone else's words
    "Apparently my cousin is training for a marathon.",  # hearsay
    "I'm so tired today.",  # passing state
    "I'm at the airport waiting for my flight.",  # passing state
    "Sure, I'm a billionaire lol.",  # joke
    "Use a table for this answer.",  # one-off request
    "Can you recommend a vegan bakery in Lyon?",  # question
    "如果我辞职了，存款够用多久？",
    "我同事告诉我他对花生过敏。",
    "我今天好累。",
    "对对对，我是亿万富翁。",
    "帮我把这段话翻译成英文。",
    "你觉得我应该搬去杭州吗？",
]


@pytest.mark.parametrize(("text", "kind", "key_prefix"), FAMILIES)
def test_family_is_read(text: str, kind: str, key_prefix: str) -> None:
    facts = extract_facts([("user", text)])
    assert [f.kind for f in facts] == [kind], (text, facts)
    [fact] = facts
    assert fact.key.startswith(key_prefix), fact.key
    # Third person: the statement never speaks as the user.
    assert not any(word in fact.content.split() for word in ("I", "I'm", "my", "My", "we"))
    assert "我" not in fact.content


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_look_alike_yields_nothing(text: str) -> None:
    assert extract_facts([("user", text)]) == []


def test_unrelated_facts_never_share_a_key() -> None:
    facts = extract_facts([
        ("user", "I swim every morning before work."),
        ("user", "I call my grandmother every Sunday."),
        ("user", "We decided to move CI to GitHub Actions."),
        ("user", "We decided to hold retros every two weeks."),
    ])
    assert len(facts) == 4
    assert len({f.key for f in facts}) == 4


def test_one_slot_is_versioned_by_a_later_statement() -> None:
    facts = extract_facts([("user", "We relocated to Graz."), ("user", "I just moved to Linz.")])
    assert [f.key for f in facts] == ["location.home", "location.home"]
    assert facts[-1].content == "User lives in Linz"


def test_clause_fallback_reads_a_fact_no_rule_names() -> None:
    [fact] = extract_facts([("user", "My epipen goes everywhere with me because of a wasp allergy.")])
    assert fact.kind == "constraint" and fact.key.startswith("health.allergy")
    assert fact.content.startswith("User")
    assert fact.confidence < 0.7  # a fallback reading is held less firmly than a rule's
