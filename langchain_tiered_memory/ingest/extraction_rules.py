"""The pattern table behind heuristic fact extraction (English and Chinese).

Each `Rule` is a regular expression over one sentence of a user message, the kind of fact it
finds, how to build the fact's semantic key and its statement, and a base confidence. Rules are
tried in table order and a later rule never claims text an earlier one matched, so specific rules
("I'm a vegetarian", "my favourite X is Y") come before general ones ("I'm a <job>").

Key templates: ``{topic}`` is the head of the captured object (``dark roast coffee`` -> ``coffee``,
``绿茶``), ``{slot}`` a slug of the ``slot`` group (``programming language`` ->
``programming_language``), ``{goal}`` up to three content words of a goal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from .needles import needles

__all__ = ["EN_RULES", "ZH_RULES", "FactKind", "Rule"]

FactKind = Literal["preference", "identity", "goal", "constraint", "decision", "fact"]


@dataclass(frozen=True, slots=True)
class Rule:
    """One extraction pattern.

    Attributes:
        pattern: Compiled regex; named groups ``obj`` (the object), ``slot`` (a key part) and
            ``name`` (a proper name) are used by the templates.
        kind: The fact kind.
        key: Key template (``identity.name``, ``preference.{topic}``...).
        statement: Statement template; ``{obj}``, ``{slot}`` and ``{name}`` are filled in.
        confidence: Base confidence (hedges lower it).
        lang: ``en`` or ``zh`` (decides how topics are derived).
        check_object: Whether the object must pass the "is this about a task?" filter.
        object_optional: Whether the rule still holds with an empty object ("I never fly").
        requires: A pattern the whole sentence must also match (a habit needs a frequency word
            somewhere in it: "I bike to work, rain or shine").
        fallback: A clause-level catch-all, tried only when no other rule found a fact in the
            sentence (a habit is what is left once jobs, conditions and schedules are read).
        needles: Lower-cased strings one of which every match contains (`needles`; ``None``:
            none known): a sentence without any of them is not tried.
    """

    pattern: re.Pattern[str]
    kind: FactKind
    key: str
    statement: str
    confidence: float
    lang: Literal["en", "zh"] = "en"
    check_object: bool = False
    object_optional: bool = False
    requires: re.Pattern[str] | None = None
    fallback: bool = False
    needles: tuple[str, ...] | None = field(init=False, default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "needles", needles(self.pattern))


# ---- English -------------------------------------------------------------------------------

_I = r"(?:(?<=^)|(?<=[\s,;:(\"'“]))(?:I|i)"  # the pronoun "I" at a word start
_ADV = (
    r"(?:\s+(?:really|truly|absolutely|also|just|still|totally|definitely|generally|usually"
    r"|always|much|very\s+much|kind\s+of|kinda|sort\s+of|actually|honestly|personally|mostly"
    r"|do|especially|particularly|strongly|genuinely))*"
)
# The object runs to the end of the clause: punctuation, or a conjunction that opens a new one.
_OBJ_TEMPLATE = (
    r"(?P<NAME>[^,.;!?\n()]+?)(?=\s*(?:[,.;!?\n()]|$|\s(?:and|but|because|so|since|although"
    r"|though|while|or|which|as|unless|whereas)\s+(?:I|i|my|we|it|that|the|so|then|this)\b"
    r"|\s(?:because|since|unless|whereas)\b))"
)
_OBJ = _OBJ_TEMPLATE.replace("NAME", "obj")
_OBJ2 = _OBJ_TEMPLATE.replace("NAME", "obj2")
_OBJ3 = _OBJ_TEMPLATE.replace("NAME", "obj3")
_OBJ4 = _OBJ_TEMPLATE.replace("NAME", "obj4")
_NAME = r"(?P<name>[A-Za-z\u00c0-\u024f][\w'\u00c0-\u024f-]*(?:\s+[A-Z][\w'\u00c0-\u024f-]*){0,2})"
_PLACE = r"(?P<obj>[A-Z][\w'.\u00c0-\u024f-]*(?:[\s-]+(?:[A-Z][\w'.\u00c0-\u024f-]*|de|da|del|of|on|upon))*)"
_IM = rf"{_I}(?:'m|’m|\s+am)"
_WE = r"(?:(?<=^)|(?<=[\s,;:(]))(?:[Ww]e|[Ii])"
_REL = (
    r"(?P<slot>wife|husband|partner|girlfriend|boyfriend|son|daughter|mother|father|mom|mum|dad"
    r"|brother|sister|dog|cat|kid|child|boss|manager|fiancée?|spouse)"
)
_JOB_EXCLUDE = (
    r"(?!(?:big|huge|little|bit|lot|total|real|fan|kind|sort|type|beginner|newbie|bit\s+of)\b)"
)


def _en(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def _en_i(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


EN_RULES: tuple[Rule, ...] = (
    Rule(_en(rf"(?i:\bmy\s+name\s+is|\bmy\s+name's|\bcall\s+me|{_I}\s+go\s+by)\s+{_NAME}"),
         "identity", "identity.name", "User's name is {name}", 0.95),
    Rule(_en_i(rf"\bmy\s+{_REL}(?:'s\s+name\s+is|\s+is\s+(?:named|called))\s+{_NAME}"),
         "fact", "relation.{slot}", "User's {slot} is named {name}", 0.85),
    Rule(_en_i(rf"\bmy\s+(?:favou?rite|preferred)\s+(?P<slot>[\w\s-]{{2,40}}?)\s+(?:is|are)\s+{_OBJ}"),
         "preference", "preference.{slot}", "User's favourite {slot} is {obj}", 0.9),
    Rule(_en_i(rf"{_I}(?:'m|’m|\s+am|'ve\s+been|\s+have\s+been){_ADV}\s+(?:a\s+|an\s+)?(?P<slot>vegetarian|vegan|pescatarian|teetotal(?:er)?"
               r"|keto|halal|kosher)\b"),
         "constraint", "diet.style", "User is {slot}", 0.9),
    Rule(_en_i(rf"{_IM}{_ADV}\s+(?P<slot>lactose|gluten)[\s-]intolerant"),
         "constraint", "health.{slot}", "User is {slot} intolerant", 0.9),
    Rule(_en_i(rf"{_IM}{_ADV}\s+(?:severely\s+|very\s+)?allergic\s+to\s+{_OBJ}"),
         "constraint", "health.allergy.{topic}", "User is allergic to {obj}", 0.95),
    Rule(_en_i(rf"{_I}(?:\s+(?:don't|don’t|do\s+not|never|can't|cannot|can’t|won't))\s+"
               rf"(?P<slot>eat|drink)\s+{_OBJ}"),
         "constraint", "diet.{topic}", "User does not {slot} {obj}", 0.85),
    Rule(_en_i(rf"\bmy\s+budget\s+(?:is|was)\s+{_OBJ}"),
         "constraint", "constraint.budget", "User's budget is {obj}", 0.85),
    Rule(_en_i(rf"{_I}\s+only\s+(?P<slot>eat|drink)\s+{_OBJ}"),
         "constraint", "diet.{topic}", "User only {slot}s {obj}", 0.8),
    Rule(_en_i(rf"{_I}\s+can\s+only\s+{_OBJ}"),
         "constraint", "constraint.{topic}", "User can only {obj}", 0.7),
    Rule(_en_i(rf"{_I}\s+only\s+have\s+{_OBJ}"),
         "constraint", "constraint.{topic}", "User only has {obj}", 0.65, check_object=True),
    Rule(_en_i(rf"{_I}\s+(?:can't|cannot|can’t|can\s+not|am\s+not\s+able\s+to|'m\s+unable\s+to)"
               rf"\s+(?!stand\b|bear\b){_OBJ}"),
         "constraint", "constraint.{topic}", "User cannot {obj}", 0.7, check_object=True),
    Rule(_en_i(rf"{_I}\s+never\s+(?P<slot>fly|drive|drink|smoke|travel|work|eat|cook|use)\b(?:{_OBJ})?"),
         "constraint", "constraint.{slot}", "User does not {slot} {obj}", 0.75,
         object_optional=True),
    Rule(_en_i(rf"{_I}(?:'m|’m|\s+am){_ADV}\s+not\s+(?:a\s+(?:big\s+|huge\s+)?)?fan\s+of\s+{_OBJ}"),
         "preference", "preference.{topic}", "User dislikes {obj}", 0.8),
    Rule(_en_i(rf"{_IM}{_ADV}\s+(?:a\s+)?(?:big\s+|huge\s+|massive\s+)?fan\s+of\s+{_OBJ}"),
         "preference", "preference.{topic}", "User is a fan of {obj}", 0.85),
    Rule(_en_i(rf"{_I}(?:\s+(?:don't|don’t|do\s+not|really\s+don't|really\s+do\s+not))"
               rf"{_ADV}\s+(?:like|love|enjoy|care\s+for)\s+{_OBJ}"),
         "preference", "preference.{topic}", "User dislikes {obj}", 0.8),
    Rule(_en_i(rf"{_I}{_ADV}\s+(?:hate|dislike|detest|despise|can't\s+stand|cannot\s+stand)\s+{_OBJ}"),
         "preference", "preference.{topic}", "User dislikes {obj}", 0.85),
    Rule(_en_i(rf"{_I}(?:'d|’d|\s+would){_ADV}\s+rather\s+{_OBJ}"),
         "preference", "preference.{topic}", "User would rather {obj}", 0.75),
    Rule(_en_i(rf"{_I}{_ADV}\s+(?P<slot>prefer|like|love|enjoy|adore)s?\s+{_OBJ}"),
         "preference", "preference.{topic}", "User {slot}s {obj}", 0.85, check_object=True),
    Rule(_en_i(rf"{_I}(?:'m|’m|\s+am){_ADV}\s+(?P<slot>\d{{1,3}})(?:\s+years?\s+old|\s*yo\b)"),
         "identity", "identity.age", "User is {slot} years old", 0.9),
    Rule(_en_i(rf"{_WE}(?:'m|’m|\s+am|'re|\s+are|\s+have){_ADV}\s+(?:currently\s+|now\s+)?(?:living|based|"
               rf"lived|been\s+living)\s+in\s+{_OBJ}|{_I}{_ADV}\s+(?:currently\s+|now\s+)?"
               rf"(?:live|reside|moved|relocated)\s+(?:in|to)\s+{_OBJ2}"),
         "identity", "location.home", "User lives in {obj}", 0.9),
    Rule(_en_i(rf"{_I}(?:'m|’m|\s+am|\s+come){_ADV}\s+(?:originally\s+)?from\s+{_OBJ}"),
         "identity", "identity.origin", "User is from {obj}", 0.85),
    Rule(_en_i(rf"{_I}{_ADV}\s+(?:currently\s+|now\s+)?work\s+(?:remotely\s+|full[\s-]time\s+|"
               rf"part[\s-]time\s+)?(?:at|for)\s+{_OBJ}|"
               rf"{_I}(?:'m|’m|\s+am)\s+(?:currently\s+)?(?:employed\s+(?:at|by)|working\s+(?:at|for))"
               rf"\s+{_OBJ2}"),
         "identity", "identity.employer", "User works at {obj}", 0.85),
    Rule(_en_i(rf"{_I}\s+work\s+as\s+(?:a|an)\s+{_OBJ}"),
         "identity", "identity.occupation", "User works as {article} {obj}", 0.9),
    Rule(_en_i(rf"{_IM}{_ADV}\s+(?P<article>a|an)\s+{_JOB_EXCLUDE}{_OBJ}"),
         "identity", "identity.occupation", "User is {article} {obj}", 0.75, check_object=True),
    Rule(_en_i(rf"\bmy\s+(?:main\s+|long-term\s+|big\s+)?(?:goal|dream|aim|ambition|plan|"
               rf"objective)\s+is\s+(?:to\s+)?{_OBJ}"),
         "goal", "goal.{goal}", "User's goal is to {obj}", 0.9),
    Rule(_en_i(rf"{_I}(?:'m|’m|\s+am){_ADV}\s+(?:trying|planning|hoping|aiming|saving\s+up)\s+to\s+{_OBJ}|"
               rf"{_I}{_ADV}\s+(?:plan|hope|aim|intend|want|wanna|would\s+love|'d\s+love|'d\s+like"
               rf"|would\s+like)\s+to\s+{_OBJ2}|{_I}(?:'m|’m|\s+am)\s+working\s+towards?\s+{_OBJ3}"),
         "goal", "goal.{goal}", "User wants to {obj}", 0.7, check_object=True),
    Rule(_en_i(rf"{_I}(?:'m|’m|\s+am){_ADV}\s+(?:currently\s+)?learning\s+{_OBJ}"),
         "goal", "goal.learn_{topic}", "User is learning {obj}", 0.75, check_object=True),
    Rule(_en_i(rf"{_WE}(?:'ve|\s+have)?{_ADV}\s+decided\s+(?:to\s+)?{_OBJ}"),
         "decision", "decision.{topic}", "User decided to {obj}", 0.85),
    Rule(_en_i(rf"{_WE}(?:'ll|’ll|\s+will|'re\s+going\s+to|\s+are\s+going\s+to|'m\s+going\s+to)"
               rf"\s+(?:use|go\s+with|stick\s+with|switch\s+to|adopt)\s+{_OBJ}|"
               rf"\blet's\s+(?:use|go\s+with|stick\s+with|switch\s+to)\s+{_OBJ2}|"
               rf"{_WE}(?:'m|’m|\s+am|'re|\s+are)\s+(?:going\s+with|switching\s+to|sticking\s+with)"
               rf"\s+{_OBJ3}|{_WE}(?:'ve|\s+have)?\s+(?:chosen|chose|picked|settled\s+on|opted\s+for)"
               rf"\s+{_OBJ4}"),
         "decision", "decision.{topic}", "Decision: use {obj}", 0.8),
    Rule(_en_i(rf"{_I}\s+have\s+(?P<slot>a|an|one|two|three|four|five|\d+)\s+{_OBJ}"),
         "fact", "family.{topic}", "User has {slot} {obj}", 0.7, check_object=True),
)

# ---- Chinese --------------------------------------------------------------------------------

_ZH_ADV = r"(?:也|很|非常|特别|真的|最|更|比较|一直|还|都|超|挺|蛮|十分|尤其|超级|从小就|向来)*"
_ZH_OBJ = r"(?P<obj>[^，,。.!！?？；;、\n]+)"
_ZH_NAME = r"(?P<name>[\u4e00-\u9fff]{2,4}?|[A-Za-z][\w-]*)(?=[，,。.!！?？；;\s]|$)"
_ZH_JOB = (
    r"(?:工程师|程序员|设计师|医生|老师|教师|教授|护士|律师|学生|研究生|博士生?|会计|经理|"
    r"厨师|司机|记者|作家|警察|主管|总监|老板|创始人|分析师|科学家|研究员|产品经理|"
    r"销售|运营|画家|演员|歌手|编辑|翻译|农民|工人|公务员|军人|退休人员|自由职业者|开发者)"
)
_ZH_I = r"(?<![他她它你您们])我"


def _zh(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


ZH_RULES: tuple[Rule, ...] = (
    Rule(_zh(rf"(?:{_ZH_I}叫|{_ZH_I}的名字(?:是|叫)|叫我)\s*{_ZH_NAME}"),
         "identity", "identity.name", "用户的名字是{name}", 0.95, "zh"),
    Rule(_zh(rf"{_ZH_I}(?:的)?(?P<slot>妻子|老婆|丈夫|老公|男朋友|女朋友|儿子|女儿|妈妈|爸爸|猫|狗)"
             rf"(?:叫|的名字是)\s*{_ZH_NAME}"),
         "fact", "relation.{slot}", "用户的{slot}叫{name}", 0.85, "zh"),
    Rule(_zh(rf"{_ZH_I}最(?:喜欢|爱)的(?P<slot>[^，,。!！?？是]{{1,10}})是{_ZH_OBJ}"),
         "preference", "preference.{slot}", "用户最喜欢的{slot}是{obj}", 0.9, "zh"),
    Rule(_zh(rf"{_ZH_I}(?:对|对于){_ZH_OBJ}过敏"),
         "constraint", "health.allergy.{topic}", "用户对{obj}过敏", 0.95, "zh"),
    Rule(_zh(rf"{_ZH_I}(?:是素食者|是素食主义者|吃素|是吃素的)"),
         "constraint", "diet.style", "用户吃素", 0.9, "zh"),
    Rule(_zh(rf"{_ZH_I}{_ZH_ADV}(?:不吃|不喝|不能吃|不能喝|忌口){_ZH_OBJ}"),
         "constraint", "diet.{topic}", "用户不吃{obj}", 0.85, "zh"),
    Rule(_zh(rf"{_ZH_I}的预算(?:是|为|只有)?{_ZH_OBJ}"),
         "constraint", "constraint.budget", "用户的预算是{obj}", 0.85, "zh"),
    Rule(_zh(rf"{_ZH_I}(?:不能|不可以|没法|无法){_ZH_OBJ}"),
         "constraint", "constraint.{topic}", "用户不能{obj}", 0.7, "zh", check_object=True),
    Rule(_zh(rf"{_ZH_I}的(?P<slot>爱好|兴趣|兴趣爱好)(?:是|有){_ZH_OBJ}"),
         "preference", "preference.{slot}", "用户的{slot}是{obj}", 0.85, "zh"),
    Rule(_zh(rf"{_ZH_I}{_ZH_ADV}(?:不太喜欢|不怎么喜欢|不喜欢|不爱|讨厌|受不了|反感|厌恶){_ZH_OBJ}"),
         "preference", "preference.{topic}", "用户不喜欢{obj}", 0.85, "zh", check_object=True),
    Rule(_zh(rf"{_ZH_I}{_ZH_ADV}(?P<slot>喜欢|爱|热爱|偏爱|偏好|钟爱|迷上了?)(?!的){_ZH_OBJ}"),
         "preference", "preference.{topic}", "用户{slot}{obj}", 0.85, "zh", check_object=True),
    Rule(_zh(rf"{_ZH_I}(?:今年|已经|现在)?(?P<slot>\d{{1,3}}|[一二三四五六七八九十]{{1,3}})岁"),
         "identity", "identity.age", "用户{slot}岁", 0.9, "zh"),
    Rule(_zh(rf"{_ZH_I}(?:现在|目前|一直)?(?:住在|住|生活在|定居在?|搬到了?){_ZH_OBJ}"),
         "identity", "location.home", "用户住在{obj}", 0.9, "zh"),
    Rule(_zh(rf"{_ZH_I}(?:来自|老家是|老家在|是从){_ZH_OBJ}|{_ZH_I}是(?P<place>[\u4e00-\u9fff]{{2,4}})人(?=[，,。!！\s]|$)"),
         "identity", "identity.origin", "用户来自{obj}", 0.85, "zh"),
    Rule(_zh(rf"{_ZH_I}(?:现在|目前)?在(?P<obj>[^，,。!！?？；;\s]{{2,20}}?)(?:工作|上班|任职)"),
         "identity", "identity.employer", "用户在{obj}工作", 0.85, "zh"),
    Rule(_zh(rf"{_ZH_I}(?:现在|目前)?是(?:一名|一位|一个|名)?(?P<obj>[^，,。!！?？；;]{{0,10}}?{_ZH_JOB})"),
         "identity", "identity.occupation", "用户是{obj}", 0.85, "zh"),
    Rule(_zh(rf"{_ZH_I}的(?:目标|梦想|愿望|计划)(?:是|就是){_ZH_OBJ}"),
         "goal", "goal.{topic}", "用户的目标是{obj}", 0.9, "zh"),
    Rule(_zh(rf"{_ZH_I}(?:最近|现在|目前|正)?(?:打算|计划|准备|希望能?|想要成为|想成为|想学会?|要学会?|正在学|在学|立志)"
             rf"{_ZH_OBJ}"),
         "goal", "goal.{topic}", "用户想要{obj}", 0.75, "zh", check_object=True),
    Rule(_zh(rf"(?:{_ZH_I}们?|咱们)(?:已经)?(?:决定|选择了?|选定了?|定了){_ZH_OBJ}"),
         "decision", "decision.{topic}", "决定：{obj}", 0.85, "zh"),
    Rule(_zh(rf"(?:{_ZH_I}们|咱们)(?:就)?(?:用|使用|采用){_ZH_OBJ}吧"),
         "decision", "decision.{topic}", "决定：用{obj}", 0.8, "zh"),
)
