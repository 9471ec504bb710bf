"""Issue 17: the offline verifier compares the user's profile slot by slot (EN + ZH).

Each family has contradicting pairs (flagged both ways round, by the named rule) and compatible
look-alikes that must not be flagged: refinements, different people, different attributes,
additions and changes marked in time.
"""

from __future__ import annotations

import pytest

from langchain_tiered_memory.contradiction import heuristic_verify
from langchain_tiered_memory.contradiction.profile import read_profile

CONTRADICTING = [
    # the same relation named twice
    ("My sister is called Ines.", "My sister's name is Carla.", "same_relation"),
    ("I have one son, Felix.", "My son Oscar just turned six.", "same_relation"),
    ("我弟弟叫小明。", "我弟弟名叫阿杰。", "same_relation"),
    # ages phrased differently
    ("I'm 31.", "I turned 44 in August.", "age"),
    ("I'm in my twenties.", "I'm 52.", "age"),
    ("我今年二十六岁。", "我已经五十多了。", "age"),
    ("我是00后。", "我今年四十多了。", "age"),
    # opposite values of one attribute
    ("I'm a morning person, up at 5.", "I'm a night owl, never asleep before 2am.", "opposite_value"),
    ("I'm quite shy.", "I'm a real extrovert.", "opposite_value"),
    ("我性格很内向。", "我特别外向，喜欢热闹。", "opposite_value"),
    ("我是左撇子。", "我一直用右手写字。", "opposite_value"),
    ("I'm single.", "My wife and I have been married ten years.", "opposite_value"),
    # a negated possession or experience against an activity implying it
    ("I've never been skiing.", "I ski in the Dolomites every winter.", "implied_negation"),
    ("I can't swim.", "I swim a mile every Sunday morning.", "implied_negation"),
    ("我没有驾照。", "我每天开车上班。", "implied_negation"),
    ("我从来没出过国。", "我每年都去日本出差。", "implied_negation"),
    # a negated habit against the habit
    ("I don't drink coffee.", "I have three lattes a day.", "implied_negation"),
    ("我不吃辣。", "我每顿饭都放辣椒。", "implied_negation"),
    # a diet against behaviour
    ("I'm vegetarian.", "I grill steaks every weekend.", "implied_negation"),
    ("我是回民，不吃猪肉。", "我最爱吃红烧肉。", "implied_negation"),
    # jobs, working, counts, homes, tastes
    ("I'm a dentist.", "I work as a software engineer.", "same_slot"),
    ("我已经退休了。", "我每天朝九晚五上班。", "opposite_value"),
    ("I have two kids.", "All four of my kids are at school.", "count"),
    ("I'm an only child.", "My brother lives in Perth.", "count"),
    ("My flat is in Glasgow.", "I rent a place in Cardiff, my only home.", "same_slot"),
    ("Cats are not for me.", "I adore cats.", "polarity"),
    ("寿司是我最爱的食物。", "我很讨厌生鱼。", "polarity"),
    # none against some, whoever the sentence is about
    ("I have no kids.", "My son starts school in May.", "count"),
    ("I don't have any pets.", "I've got a cat.", "count"),
    ("我是独生子女。", "我有一个弟弟和一个妹妹。", "count"),
    # quitting denies, a diet denies several things, Chinese homes and marriage
    ("我戒酒三年了。", "我每天晚上喝点白酒。", "implied_negation"),
    ("我吃全素。", "我每周都去吃一次涮羊肉。", "implied_negation"),
    ("我们住在乡下。", "我们住在巴黎市中心。", "same_slot"),
    ("我单身。", "我和我老公刚庆祝了结婚十周年。", "opposite_value"),
    ("我唯一的宠物是一只叫豆豆的猫。", "我家的狗叫旺财。", "same_relation"),
]

COMPATIBLE = [
    ("I live in Austria.", "I live in Vienna."),  # refinement
    ("I'm a doctor.", "I'm a paediatric surgeon."),  # refinement
    ("我住在广东。", "我住在深圳。"),
    ("I'm in my forties.", "I'm 44."),
    ("My brother is a pilot.", "My sister is a chef."),  # different people
    ("My husband doesn't eat spicy food.", "I love spicy food."),
    ("我朋友是夜猫子。", "我每天很早就睡。"),
    ("My dog is called Bruno.", "My dog is very old."),  # different attributes
    ("My car is blue.", "My car is a Skoda."),
    ("我的车是红色的。", "我的车是丰田。"),
    ("I don't drink coffee.", "I drink rooibos every evening."),  # different objects
    ("I've never skied.", "I snowboard every winter."),
    ("I don't eat pork.", "I eat chicken most days."),
    ("我不吃猪肉。", "我也不吃牛肉。"),  # addition
    ("I have a brother called Sam.", "I also have a brother called Joe."),
    ("我以前住在武汉。", "我现在住在长沙。"),  # change marked in time
    ("I smoked when I was young.", "I don't smoke now."),
    ("I'm a night owl.", "I usually go to bed around 2am."),  # reworded
    ("I'm married to Lea.", "My wife is Lea."),
    ("我没去过日本。", "我去过韩国。"),  # one country is not "abroad"
    ("I was a vegetarian for years.", "Now I eat fish."),
    ("我在北京工作。", "我住在天津。"),  # a workplace is not a home
    ("我29岁。", "我身高1米80。"),
    ("I have two kids.", "I'm a father of two."),
]


@pytest.mark.parametrize(("a", "b", "rule"), CONTRADICTING)
def test_flags_profile_contradictions(a: str, b: str, rule: str) -> None:
    for x, y in ((a, b), (b, a)):
        verdict = heuristic_verify(x, y)
        assert verdict.contradicts is True, (x, y, verdict)
        assert verdict.rule == rule, (x, y, verdict)


@pytest.mark.parametrize(("a", "b"), COMPATIBLE)
def test_compatible_look_alikes_are_not_flagged(a: str, b: str) -> None:
    for x, y in ((a, b), (b, a)):
        assert heuristic_verify(x, y).contradicts is not True, (x, y)


def test_profile_reads_slots() -> None:
    profile = read_profile("I'm vegan and I'm left-handed.")
    assert profile.about_user and not profile.past
    assert profile.concepts["meat"] is False and profile.concepts["dairy"] is False
    assert profile.poles == {"handedness": "left"}
    assert read_profile("I was born in 1990.").age is not None
    assert read_profile("我老公不吃辣。").about_user is False
    assert read_profile("我以前抽烟。").past is True
    assert read_profile("Pepper is the only pet I've got.").names == {"pet": "pepper"}
