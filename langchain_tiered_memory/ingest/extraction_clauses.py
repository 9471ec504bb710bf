"""Clause-level fallback extraction: a first-person declarative with a topic cue is a fact.

The pattern tables read precise slots; this reads what they miss, so coverage does not hang on
the phrasings they were written from. A sentence qualifies when the user is its subject ("I",
"we", "my ...", "我", "我们家"...), it is not a request to the assistant, and it names a cue of one
fact family (a condition, a diet, a relative, a pet, an amount of money with a limit, a time of
the week...). Its statement is the sentence in the third person; its key is the family's slot
when the slot is clear (``health.condition``, ``identity.age``) and otherwise the family plus the
sentence's own content words, so unrelated facts never supersede each other.

The caller runs this only after the tables found nothing in the sentence, and only on sentences
already cleared of questions, hypotheticals, reported speech, passing states and sarcasm.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from langchain_tiered_memory.ingest.extraction_filters import zh_third_person
from langchain_tiered_memory.ingest.extraction_rules import FactKind

__all__ = ["ClauseFact", "classify_clause"]


@dataclass(frozen=True, slots=True)
class ClauseFact:
    """The family a first-person sentence belongs to.

    Attributes:
        kind: The fact kind.
        key: The slot key, or the family prefix plus the fact's own words.
        statement: The sentence in the third person.
    """

    kind: FactKind
    key: str
    statement: str


def _c(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


_EN_SUBJECT = _c(r"\b(?:i|i'm|i've|i'd|i'll|my|me|we|we're|we've|our|mine)\b")
_EN_COMMAND = _c(
    r"^\W*(?:please\s+)?(?:summari[sz]e|translate|make|rewrite|give|write|explain|help|show|list"
    r"|tell|fix|try|use|add|remove|convert|check|find|draft|create|generate|compare|describe"
    r"|can|could|would|let's|let\s+me)\b"
)
# About the chat, not the user: "I love it when the code works", "I like your suggestion".
_EN_ABOUT_CHAT = _c(
    r"\b(?:you|your|it|this|that|these|those)\b|\b(?:trying|want|need)\s+to\s+(?:understand"
    r"|figure|know|fix|debug|get|find|see|check)\b"
)
_EN_GOAL = _c(r"\b(?:i'd\s+(?:like|love)\s+to|i\s+(?:want|hope|plan|intend)\s+to|my\s+goal)\b")
_ZH_SUBJECT = re.compile(r"^[^，,。]{0,8}?(?<![帮给让叫告诉问陪跟和教把对替])(?:我|本人|咱|家里)")
_ZH_COMMAND = re.compile(r"^(?:请你?|麻烦你?|帮我|给我|把|你|再|用)")
# Requests that outlive the answer, and decisions, need no "I": "以后回答请简短", "组里定了用Go".
_EN_STANDING = _c(r"\b(?:always|never|from\s+now\s+on|in\s+future|going\s+forward|whenever"
                  r"|every\s+time|don't\s+ever)\b")
_ZH_STANDING = re.compile(r"以后|今后|每次|一律|始终|一直|永远|不要|别|尽量")
_ZH_ONE_OFF = re.compile(r"这次|这个问题|这段|这篇|这封|上面|下面|刚才")
_ZH_TEAM = re.compile(
    r"^(?:[^，,。]{0,6}?)(?:团队|组里|部门|公司|领导|管理层|大家|我们|咱们|组长|经理|主管|项目组)"
)
_ZH_REPORTED = re.compile(r"听说|据说|告诉|觉得|认为|以为|说(?=[他她我要会是，,：:])")

# (kind, slot or family prefix, unique?, English cue, Chinese cue), most specific first.
_FAMILIES: tuple[tuple[FactKind, str, bool, re.Pattern[str], re.Pattern[str]], ...] = (
    ("decision", "decision", True,
     _c(r"\b(?:we|team|company|management|leadership|founders|department)\b.*\b(?:decided"
        r"|agreed|chose|chosen|picked|settled|switch(?:ed|ing)|adopt(?:ed|ing)|standardi[sz]ed"
        r"|going\s+with|signed\s+off|voted|ditch(?:ed|ing)|replac(?:ed|ing)|migrat(?:ed|ing))\b"),
     re.compile(r"(?:我们|团队|组里|部门|公司|领导|大家|咱们).*(?:决定|定了|定下来|统一|改用|换成"
                r"|选择了|选了|拍板|敲定|采用|迁移)")),
    ("preference", "preference.style", True,
     _c(r"\b(?:repl(?:y|ies)|answers?|respon(?:d|ses?)|explanations?|code\s+examples?|talk\s+to"
        r"\s+me|write\s+to\s+me)\b"),
     re.compile(r"回答|回复|答案|代码示例|跟我说话|和我说话|给我写|叫我")),
    ("constraint", "health.allergy", True, _c(r"\ballerg|\breaction\s+to\b"), re.compile(r"过敏")),
    ("constraint", "health.condition", False,
     _c(r"\b(?:diagnos\w*|condition|disease|disorder|syndrome|chronic|diabet\w*|asthma\w*"
        r"|migraines?|arthritis|injur(?:y|ies)|insulin|inhaler|medication|meds|intoleran\w*"
        r"|blood\s+pressure|surgery|therapy|deaf|blind|wheelchair)\b"),
     re.compile(r"病|症|炎|不耐受|毛病|吃药|诊断|手术|血压|血糖|哮喘|偏头痛|心脏|颈椎|腰椎|近视")),
    ("constraint", "diet.style", False,
     _c(r"\b(?:vegan|vegetarian|pescatarian|kosher|halal|keto|diet|gluten[\s-]free"
        r"|dairy[\s-]free|plant[\s-]based|teetotal\w*|sober)\b"),
     re.compile(r"吃素|素食|清真|忌口|生酮|饮食|戒糖|控糖|减肥|吃不了|不吃|不喝酒")),
    ("constraint", "budget", True,
     _c(r"\b(?:budget|afford|spend|spending|price\s+range|max(?:imum)?|at\s+most|tops)\b.*"
        r"(?:\d|\bgrand\b)|[$€£¥]\s?\d"),
     re.compile(r"预算|最多花|顶多花|不超过.*[\d一二两三四五六七八九十百千万]|[\d一二两三四五六七八九十百千万]"
                r"(?:块|元|万|千)(?:以内|左右|之内)")),
    ("constraint", "schedule", True,
     _c(r"\b(?:shifts?|nights|(?:mon|tues|wednes|thurs|fri|satur|sun)days?|weekends?|weekdays"
        r"|office\s+hours|9[\s-]to[\s-]5|free\s+(?:after|before|on|until)|available|busy\s+on"
        r"|off\s+on)\b"),
     re.compile(r"(?:周[一二三四五六日末]|星期[一二三四五六日天]|工作日|晚上|上午|下午|早上|\d+点|[一二三四五六七八九十]+点)"
                r".*(?:上班|下班|加班|值班|有空|没空|有时间|没时间|接孩子|有课|上课|开会)"
                r"|三班倒|倒班|夜班|早班|晚班|单休|双休|996")),
    ("identity", "identity.occupation", False,
     _c(r"\b(?:nurse|doctor|teacher|engineer|developer|programmer|designer|lawyer|accountant"
        r"|chef|driver|pilot|paramedic|firefighter|electrician|plumber|mechanic|farmer|journalist"
        r"|writer|photographer|artist|musician|therapist|scientist|researcher|consultant"
        r"|pharmacist|dentist|vet|librarian|cashier|barista|courier|freelancer|retired)\b"),
     re.compile(r"工程师|程序员|设计师|医生|大夫|老师|教师|护士|律师|会计|厨师|司机|记者|作家|警察"
                r"|分析师|研究员|产品经理|销售|运营|编辑|翻译|公务员|骑手|快递员|摄影师|消防员|主播"
                r"|客服|保安|退休|自由职业")),
    ("fact", "family", True,
     _c(r"\b(?:my|our)\s+(?:\w+\s+)?(?:wife|husband|partner|spouse|son|daughter|kids?|children"
        r"|child|twins|mother|father|mom|mum|dad|parents|brother|sister|siblings?|grandma|grandpa"
        r"|grandmother|grandfather|aunt|uncle|cousin|niece|nephew|in-laws|youngest|eldest|baby)\b"),
     re.compile(r"老公|老婆|丈夫|妻子|爱人|儿子|女儿|闺女|孩子|娃|大宝|二宝|小宝|老大|老二|爸|妈|父母"
                r"|哥哥|姐姐|弟弟|妹妹|爷爷|奶奶|外公|外婆|姥姥|姥爷|公公|婆婆")),
    ("fact", "pet", True,
     _c(r"\b(?:dogs?|pupp(?:y|ies)|cats?|kittens?|parrots?|hamsters?|rabbits?|tortoises?"
        r"|turtles?|lizards?|snakes?|goldfish|horses?|budgies?|ferrets?|guinea\s+pigs?)\b"),
     re.compile(r"猫|(?<!属)狗|鹦鹉|仓鼠|兔子|乌龟|金鱼|蜥蜴|边牧|金毛|柯基|泰迪|柴犬|哈士奇|拉布拉多|布偶")),
    ("identity", "identity.age", False,
     _c(r"\b(?:years?\s+old|turned\s+\d+|birthday|born\s+in|born\s+on|my\s+age)\b"),
     re.compile(r"\d+岁|[一二三四五六七八九十]+岁|生日|属[鼠牛虎兔龙蛇马羊猴鸡狗猪]|[0-9零〇一二三四五六七八九]{2}后"
                r"|出生|满[\d一二三四五六七八九十]+")),
    ("identity", "identity.language", False,
     _c(r"\b(?:english|spanish|french|german|italian|portuguese|dutch|russian|arabic|hindi"
        r"|chinese|mandarin|cantonese|japanese|korean|vietnamese|thai|tagalog|polish|turkish"
        r"|greek|swedish|hebrew|language|fluent|native\s+speaker|bilingual)\b"),
     re.compile(r"[\u4e00-\u9fff](?:语|话)(?!题)|英文|中文|日文|普通话|母语|双语")),
    ("identity", "identity.education", False,
     _c(r"\b(?:university|college|uni|degree|phd|master'?s|mba|bachelor'?s|graduated|student"
        r"|school|studied|major(?:ed)?|diploma|dropped\s+out)\b"),
     re.compile(r"大学|本科|研究生|硕士|博士|毕业|专业|学历|高中|初中|读书|上学|MBA")),
    ("identity", "identity.employer", False,
     _c(r"\b(?:work(?:ed|ing)?|employed|job|joined)\b.*\b(?:at|for)\b|\b(?:company|startup|firm"
        r"|employer)\b"),
     re.compile(r"在.{1,16}(?:工作|上班|任职|实习)|单位|公司")),
    ("fact", "possession", True,
     _c(r"\b(?:own|drive|car|laptop|house|flat|apartment|bike|motorbike|van|truck|phone|piano"
        r"|computer|cabin|boat)\b"),
     re.compile(r"车|房|电脑|笔记本|手机|钢琴|相机|平板")),
    ("goal", "goal", True,
     _c(r"\b(?:marathon|exam|test|wedding|trip|holiday|honeymoon|race|interview|conference"
        r"|ironman|triathlon|half|certification|audition|competition)\b"),
     re.compile(r"准备|计划|打算|报名|备考|考试|婚礼|旅行|旅游|马拉松|比赛|面试")),
    ("identity", "location.home", False,
     _c(r"\b(?:moved|relocated|live|living|lived|based|home|hometown|settled)\b"),
     re.compile(r"搬|住|家在|定居|老家")),
    ("preference", "preference", True,
     _c(r"\b(?:like|love|enjoy|hate|favou?rite|fave|into|not\s+for\s+me|my\s+thing|hobby"
        r"|spare\s+time|for\s+fun|passion|obsessed|can't\s+stand|are\s+for)\b"),
     re.compile(r"喜欢|爱|讨厌|最爱|爱好|业余|受不了|烦")),
    ("fact", "habit", True,
     _c(r"\b(?:every|each|always|usually|normally|daily|weekly|a\s+lot|never|most\s+days"
        r"|(?:in\s+the|most)\s+(?:mornings|evenings)|don't|do\s+not)\b"),
     re.compile(r"每天|天天|每周|每晚|每个|一般|通常|平时|习惯|经常|总是|从不|从来不|很少|都会"
                r"|早上|睡前")),
)

_EN_STOP = frozenset(
    ["i", "i'm", "i've", "i'd", "my", "me", "we", "we're", "our", "a", "an", "the", "is", "are", "am", "was", "be", "been", "to", "of", "in", "on", "at", "for", "and", "or", "so", "but", "it", "this", "that", "with", "just", "really", "also", "very", "have", "has", "had", "do", "does", "not"]
)


def _en_statement(sentence: str) -> str:
    text = sentence.strip().rstrip(".!;")
    subs = (
        (r"\bI(?:'m|’m)\b", "User is"), (r"\bI(?:'ve|’ve)\b", "User has"),
        (r"\bI(?:'d|’d)\b", "User would"), (r"\bI(?:'ll|’ll)\b", "User will"), (r"\bI\b", "User"),
        (r"\bmy\b", "their"), (r"\bme\b", "them"), (r"\bmyself\b", "themselves"),
        (r"\bwe(?:'re|’re)\b", "User and family are"), (r"\bwe\b", "User and family"),
        (r"\bour\b", "their"), (r"\bus\b", "them"),
    )
    for pattern, repl in subs:
        text = re.sub(pattern, repl, text, flags=re.IGNORECASE)
    if not text.startswith("User"):
        text = f"User: {text}"
    return text


def _unique_key(prefix: str, sentence: str, zh: bool) -> str:
    if zh:
        words = re.sub(r"[^\u4e00-\u9fff\w]+", "", sentence.replace("我", ""))[:10]
    else:
        words = "_".join(w for w in re.findall(r"[a-z0-9']+", sentence.lower())
                         if w not in _EN_STOP)[:40]
    return f"{prefix}.{words.strip('_') or 'general'}"


def _standing_request(sentence: str, zh: bool) -> ClauseFact | None:
    """A request about every later answer ("以后回答请简短", "never use emojis in answers")."""
    kind, slot = _FAMILIES[1][0], _FAMILIES[1][1]
    if zh:
        if not (_FAMILIES[1][4].search(sentence) and _ZH_STANDING.search(sentence)):
            return None
        if _ZH_ONE_OFF.search(sentence):
            return None
        return ClauseFact(kind, _unique_key(slot, sentence, zh),
                          f"用户的长期要求：{zh_third_person(sentence.strip().rstrip('。！!'))}")
    if not (_FAMILIES[1][3].search(sentence) and _EN_STANDING.search(sentence)):
        return None
    if re.search(r"\b(?:this|that|these|here)\b", sentence, re.IGNORECASE):
        return None
    return ClauseFact(kind, _unique_key(slot, sentence, zh),
                      f"User's standing request: {sentence.strip().rstrip('.!')}")


def classify_clause(sentence: str) -> ClauseFact | None:
    """Read one cleared sentence as a fact of the first family whose cue it names.

    Args:
        sentence: A user sentence that is not a question, hypothetical, report, passing state
            or joke (the caller checks those).

    Returns:
        The fact, or None when the user is not the subject, the sentence is a request to the
        assistant, or no family cue is present.
    """
    zh = bool(re.search(r"[\u4e00-\u9fff]", sentence))
    standing = _standing_request(sentence, zh)
    if standing is not None:
        return standing
    if zh and _ZH_TEAM.search(sentence) and _FAMILIES[0][4].search(sentence):
        kind, slot = _FAMILIES[0][0], _FAMILIES[0][1]
        return ClauseFact(kind, _unique_key(slot, sentence, zh), f"团队决定：{zh_third_person(sentence.strip('。！!'))}")
    if zh:
        if not _ZH_SUBJECT.search(sentence) or _ZH_COMMAND.match(sentence):
            return None
        if _ZH_REPORTED.search(sentence):
            return None
    elif (not _EN_SUBJECT.search(sentence) or _EN_COMMAND.match(sentence)
          or _EN_ABOUT_CHAT.search(sentence)):
        return None
    elif _EN_GOAL.search(sentence):
        return ClauseFact("goal", _unique_key("goal", sentence, zh), _en_statement(sentence))
    for kind, slot, unique, en_cue, zh_cue in _FAMILIES:
        if (zh_cue if zh else en_cue).search(sentence):
            key = _unique_key(slot, sentence, zh) if unique else slot
            if zh:
                statement = zh_third_person(sentence.strip().rstrip("。！!；;"))
            else:
                statement = _en_statement(sentence)
            return ClauseFact(kind, key, statement)
    return None
