"""Word knowledge behind the profile rules: concepts, opposite poles, jobs, places (EN + ZH).

Each table maps surface words to a small closed vocabulary so that two statements worded
differently ("I have two espressos every morning", "I don't drink coffee") meet on the same
concept. Concepts nest where a diet needs it: ``pork`` is also ``meat``, so "I'm vegetarian"
denies ``meat`` and clashes with "I eat pork", while "I don't eat pork" does not clash with
"I eat chicken".
"""

from __future__ import annotations

import re

__all__ = [
    "ADDITION",
    "CONCEPTS",
    "COUNTRIES",
    "DIET_DENIES",
    "JOBS",
    "NOT_WORKING",
    "PAST",
    "POLES",
    "REGIONS_ZH",
    "RELATIONS",
    "WORKING",
]


def _c(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


# concept -> (English cue, Chinese cue, broader concepts it belongs to)
CONCEPTS: dict[str, tuple[re.Pattern[str], re.Pattern[str], tuple[str, ...]]] = {
    "coffee": (_c(r"\b(?:coffees?|espressos?|lattes?|cappuccinos?|americanos?|flat\s+whites?)\b"),
               re.compile(r"咖啡|拿铁|美式|浓缩|卡布奇诺"), ()),
    "smoking": (_c(r"\b(?:smoke|smokes|smoking|smoked|cigarettes?|cigars?|vape|vaping)\b"),
                re.compile(r"戒烟|抽过?烟|吸过?烟|抽.{0,3}烟|烟瘾"), ()),
    "alcohol": (_c(r"\b(?:alcohol|booze|beers?|wines?|whisky|whiskey|vodka|gin|cocktails?"
                   r"|teetotal\w*|pints?)\b"),
                re.compile(r"戒酒|喝酒|啤酒|白酒|红酒|喝.{0,2}酒(?!店)"), ()),
    "exercise": (_c(r"\b(?:exercise|exercises|gym|work\s+out|workouts?|training\s+sessions?)\b"),
                 re.compile(r"健身|锻炼|运动"), ()),
    "breakfast": (_c(r"\bbreakfast\b|\bstart\s+the\s+day\s+with\b"),
                  re.compile(r"早饭|早餐|早上.{0,3}吃|以.{1,8}开始一天"), ()),
    "skiing": (_c(r"\b(?:ski|skis|skiing|skied)\b"), re.compile(r"滑过?雪"), ()),
    "swimming": (_c(r"\b(?:swim|swims|swimming|swam|swum)\b"), re.compile(r"游过?泳|游两|游.{0,2}米"), ()),
    "driving": (_c(r"\b(?:drive|drives|driving|drove|driven|driver'?s\s+licen[cs]e|driving\s+licen[cs]e)\b"),
                re.compile(r"开过?车|驾照|自驾"), ()),
    "abroad": (_c(r"\b(?:abroad|overseas|outside\s+the\s+country|foreign\s+countr\w*|passport"
                  r"|left\s+the\s+country)\b"
                  r"|\b(?:fly|flew|travel\w*|trips?|go|went|flights?)\s+(?:\w+\s+)?to\s+(?:japan|china"
                  r"|france|germany|spain|italy|the\s+us|america|canada|mexico|thailand|korea|europe"
                  r"|asia)\b"),
               re.compile(r"出过?国|国外|出境|境外|日本|美国|韩国|欧洲|泰国|新加坡|英国|法国|德国"), ()),
    "sailing": (_c(r"\b(?:sail|sails|sailing|sailed|boats?|yachts?|cruises?)\b"),
                re.compile(r"帆船|坐船|出海|游艇"), ()),
    "sweets": (_c(r"\b(?:sweets|desserts?|cakes?|chocolate|candy|pastr(?:y|ies)|sugar)\b"),
               re.compile(r"甜食|甜点|蛋糕|巧克力|糖果|奶茶"), ()),
    "flying": (_c(r"\b(?:fly|flying|flew|flights?|planes?)\b"), re.compile(r"坐飞机|飞机"), ()),
    "pork": (_c(r"\b(?:pork|bacon|ham|sausages?|pork\s+chops?)\b"),
             re.compile(r"猪肉|红烧肉|排骨|火腿|培根|猪蹄"), ("meat",)),
    "beef": (_c(r"\b(?:beef|steaks?|burgers?)\b"), re.compile(r"牛肉|牛排"), ("meat",)),
    "lamb": (_c(r"\b(?:lamb|mutton)\b"), re.compile(r"羊肉|涮羊肉|羊排"), ("meat",)),
    "chicken": (_c(r"\b(?:chicken|turkey)\b"), re.compile(r"鸡肉|炸鸡|烤鸡"), ("meat",)),
    "meat": (_c(r"\b(?:meat|meats|carnivore)\b"), re.compile(r"(?<!肌)肉|荤"), ()),
    "fish": (_c(r"\b(?:fish|seafood|sushi|sashimi|prawns?|shrimps?|salmon|tuna|raw\s+fish)\b"),
             re.compile(r"鱼|海鲜|虾|寿司"), ()),
    "dairy": (_c(r"\b(?:milk|cheese|dairy|yog(?:h)?urt|butter|ice\s+cream)\b"),
              re.compile(r"牛奶|奶酪|酸奶|奶制品|乳制品"), ()),
    "eggs": (_c(r"\beggs?\b"), re.compile(r"鸡蛋"), ()),
    "spicy": (_c(r"\b(?:spicy|chill?i(?:es)?|hot\s+sauce|sriracha)\b"),
              re.compile(r"辣"), ()),
    "cooking": (_c(r"\b(?:cook|cooks|cooking|cooked)\b"), re.compile(r"做饭|下厨"), ()),
}

# Diets and conditions that deny concepts: "I'm vegetarian" says "no meat, no fish".
DIET_DENIES: tuple[tuple[re.Pattern[str], re.Pattern[str], tuple[str, ...]], ...] = (
    (_c(r"\bvegan\b|\bplant[\s-]based\b"), re.compile(r"吃全素|纯素|全素"),
     ("meat", "fish", "dairy", "eggs")),
    (_c(r"\bvegetarian\b|\bveggie\b"), re.compile(r"吃素|素食"), ("meat", "fish")),
    (_c(r"\bpescatarian\b"), re.compile(r"$^"), ("meat",)),
    (_c(r"\b(?:halal|kosher|muslim)\b"), re.compile(r"清真|回民|穆斯林"), ("pork",)),
    (_c(r"\bteetotal\w*\b|\bsober\b"), re.compile(r"滴酒不沾"), ("alcohol",)),
    (_c(r"\blactose[\s-]intolerant\b"), re.compile(r"乳糖不耐"), ("dairy",)),
)

# attribute -> list of (pole, English cue, Chinese cue)
POLES: dict[str, tuple[tuple[str, re.Pattern[str], re.Pattern[str]], ...]] = {
    "chronotype": (
        ("early", _c(r"\bearly\s+(?:bird|riser)\b|\bmorning\s+person\b|\bup\s+at\s+[4-6]\b"
                     r"|\bbed\s+(?:by|at|around)\s+(?:9|10)\s*(?:pm)?\b"),
         re.compile(r"早起|早睡|早鸟|很早就睡|早就睡|睡得(?:很|特别|比较)?早|[九十]点(?:就|前)睡")),
        ("late", _c(r"\bnight\s+owl\b|\bnot\s+a\s+morning\s+person\b|\b(?:rarely|never)\s+sleep"
                    r"\s+before\b|\bbed\s+(?:around|at|after)\s+(?:1|2|3|4)\s*am\b|\bstay\s+up\s+late\b"),
         re.compile(r"夜猫子|熬夜|晚睡|凌晨.{0,4}睡")),
    ),
    "sociability": (
        ("introvert", _c(r"\bintrovert(?:ed)?\b|\bshy\b|\bquiet\s+type\b"), re.compile(r"内向|社恐|害羞")),
        ("extrovert", _c(r"\bextrovert(?:ed)?\b|\boutgoing\b|\bsocial\s+butterfly\b"
                         r"|\bcrowds\s+give\s+me\s+energy\b"), re.compile(r"外向|社牛|自来熟|开朗")),
    ),
    "handedness": (
        ("left", _c(r"\bleft[\s-]handed\b|\blefty\b|\bwith\s+my\s+left\s+hand\b"),
         re.compile(r"左撇子|用左手")),
        ("right", _c(r"\bright[\s-]handed\b|\bwith\s+my\s+right\s+hand\b"),
         re.compile(r"右撇子|用右手")),
    ),
    "height": (
        ("tall", _c(r"\b(?:i'm|i\s+am)\s+(?:\w+\s+)?tall\b|\b(?:6|six)\s+f(?:oo|ee)t\b"
                    r"|\b1[.,]9\d?\s*m\b"), re.compile(r"个子(?:很|挺|比较)?高|很高|一米八|一米九|1米8|1米9")),
        ("short", _c(r"\b(?:i'm|i\s+am)\s+(?:\w+\s+)?short\b(?![\s-](?:sighted|of|on|tempered))|\b(?:five|5)\s+f(?:oo|ee)t(?:\s+(?:one|two|three|[0-3]))?\b"
                     r"|\b1[.,][45]\d?\s*m\b"), re.compile(r"个子(?:很|挺|比较)?矮|很矮|一米五|一米六|1米5|1米6")),
    ),
    "tidiness": (
        ("organised", _c(r"\b(?:i'm|i\s+am)\s+(?:a\s+)?(?:very\s+|pretty\s+|super\s+)?(?:organi[sz]ed|tidy)\b"
                         r"|\bneat\s+freak\b"),
         re.compile(r"有条理|爱干净|整洁")),
        ("messy", _c(r"\b(?:i'm|i\s+am)\s+(?:a\s+)?(?:\w+\s+)?(?:disorgani[sz]ed|messy|chaotic|slob)\b"), re.compile(r"邋遢|没条理|乱糟糟")),
    ),
    "temperament": (
        ("impatient", _c(r"\b(?:i'm|i\s+am)\s+(?:very\s+|really\s+|so\s+)?(?:impatient|hot[\s-]headed"
                         r"|short[\s-]tempered)\b"), re.compile(r"急性子|脾气急|没耐心")),
        ("patient", _c(r"\b(?:i'm|i\s+am)\s+(?:very\s+|really\s+|super\s+)?(?:patient|laid[\s-]back"
                       r"|easy[\s-]going)\b"), re.compile(r"慢性子|性子(?:特别|很)?慢|很有耐心|从来不着急")),
    ),
    "build": (
        ("heavy", _c(r"\b(?:i'm|i\s+am)\s+(?:\w+\s+)?(?:overweight|fat|heavy|chubby)\b"),
         re.compile(r"我(?:很|比较|有点|挺)?胖|体重超标")),
        ("slim", _c(r"\b(?:i'm|i\s+am)\s+(?:\w+\s+)?(?:skinny|slim|thin|underweight)\b"),
         re.compile(r"我(?:很|比较|挺|特别)?瘦")),
    ),
    "outlook": (
        ("optimist", _c(r"\b(?:optimist|optimistic)\b"), re.compile(r"乐观")),
        ("pessimist", _c(r"\b(?:pessimist|pessimistic)\b"), re.compile(r"悲观")),
    ),
    "marital": (
        ("single", _c(r"\b(?:i'm|i\s+am)\s+single\b|\bnot\s+(?:in\s+a\s+relationship|seeing\s+anyone)\b"),
         re.compile(r"单身|没有?对象|没(?:有|在)?谈恋爱|没有恋爱")),
        ("unmarried", _c(r"\bnever\s+(?:been\s+)?married\b|\b(?:i'm|i\s+am)\s+not\s+married\b"),
         re.compile(r"未婚|没结过?婚|从没结过?婚")),
        ("married", _c(r"\b(?:i'm|i\s+am|i've\s+been|happily)\s+married\b|\bmy\s+(?:husband|wife|spouse)\b"
                       r"|\bmarried\s+to\b|\bour\s+(?:\w+\s+)?(?:wedding\s+)?anniversary\b"),
         re.compile(r"已婚|结婚了|(?:我|和|跟)(?:老公|老婆|爱人|丈夫|妻子|先生|太太)|结婚.{0,3}年")),
        ("divorced", _c(r"\bdivorced\b|\bmy\s+ex[\s-](?:wife|husband)\b"), re.compile(r"离婚|离异")),
        ("engaged", _c(r"\bengaged\b|\bmy\s+fianc[eé]e?\b"), re.compile(r"订婚|未婚夫|未婚妻")),
    ),
}

_JOB_TABLE: tuple[tuple[str, str, str], ...] = (
    ("medicine", r"doctor|physician|surgeon|paediatrician|pediatrician|gp|cardiologist|dermatologist"
     r"|radiologist|anaesthetist|anesthetist", r"医生|大夫|外科|内科|儿科医"),
    ("nursing", r"nurse|midwife", r"护士|护理"),
    ("emergency", r"firefighter|fireman|paramedic|emt", r"消防员|急救员"),
    ("dentistry", r"dentist|orthodontist|dental\s+hygienist|hygienist", r"牙医|口腔医生"),
    ("pharmacy", r"pharmacist", r"药剂师|药师"),
    ("veterinary", r"vet|veterinarian", r"兽医"),
    ("aviation", r"pilot|flight\s+attendant|air\s+traffic\s+controller", r"飞行员|空姐|空乘|机长"),
    ("trades", r"electrician|plumber|carpenter|mechanic|welder|builder", r"电工|水管工|木匠|修车|焊工"),
    ("media", r"journalist|reporter|editor|writer", r"记者|编辑|作家"),
    ("farming", r"farmer", r"农民|种地"),
    ("military", r"soldier|officer\s+in\s+the\s+army", r"军人|当兵"),
    ("teaching", r"teacher|lecturer|professor|tutor|teaching", r"老师|教师|教授|幼师|讲师|班主任"),
    ("tech", r"engineer|developer|programmer|coder|backend|frontend|software|tech|it|sysadmin"
     r"|data\s+scientist|devops", r"程序员|工程师|开发|码农|前端|后端|运维|测试|互联网|IT"),
    ("law", r"lawyer|attorney|solicitor|barrister|paralegal", r"律师|法务"),
    ("finance", r"accountant|banker|auditor|bookkeeper|finance", r"会计|银行|审计|财务|出纳"),
    ("kitchen", r"chef|cook|baker", r"厨师|面点师"),
    ("driving", r"driver|trucker|cabbie", r"司机|出租车|网约车"),
    ("police", r"police|cop|detective", r"警察|民警"),
    ("student", r"student|undergrad|pupil", r"学生|在读|研究生|大学生"),
    ("retired", r"retired|retiree|pensioner", r"退休"),
    ("sales", r"salesman|saleswoman|sales", r"销售"),
    ("design", r"designer|artist|illustrator", r"设计师|画家|插画师"),
)
JOBS: tuple[tuple[str, re.Pattern[str], re.Pattern[str]], ...] = tuple(
    (name, _c(rf"\b(?:{en})\b"), re.compile(zh)) for name, en, zh in _JOB_TABLE
)
NOT_WORKING = (
    _c(r"\b(?:retired|unemployed|out\s+of\s+work|between\s+jobs|stay[\s-]at[\s-]home\s+(?:mom|mum"
       r"|dad|parent)|homemaker|don't\s+(?:have\s+a\s+job|work)|no\s+job)\b"),
    re.compile(r"退休|失业|待业|全职妈妈|全职太太|家庭主妇|没有工作|没工作|不上班"),
)
WORKING = (
    _c(r"\b(?:work|works|working)\s+(?:at|for|as|in|nine|9|full|part|shifts?|nights)\b|\bmy\s+job\b"
       r"|\b9[\s-]to[\s-]5\b|\bnine[\s-]to[\s-]five\b|\bcommute\s+to\s+work\b|\bmy\s+(?:boss|manager)\b"),
    re.compile(r"上班|朝九晚五|在.{1,10}工作|当护士|当老师|做医生|我的老板|我们公司|加班"),
)

RELATIONS: dict[str, str] = {
    "wife": "spouse", "husband": "spouse", "spouse": "spouse", "mother": "mother", "mom": "mother",
    "mum": "mother", "mama": "mother", "father": "father", "dad": "father", "brother": "brother",
    "sister": "sister", "son": "son", "daughter": "daughter", "manager": "manager",
    "boss": "manager", "partner": "partner", "girlfriend": "partner", "boyfriend": "partner",
    "dog": "dog", "cat": "cat", "pet": "pet",
    "老婆": "spouse", "妻子": "spouse", "老公": "spouse", "丈夫": "spouse", "爱人": "spouse",
    "妈妈": "mother", "母亲": "mother", "妈": "mother", "爸爸": "father", "父亲": "father",
    "爸": "father", "哥哥": "older brother", "哥": "older brother", "弟": "younger brother",
    "姐": "older sister", "妹": "younger sister", "弟弟": "younger brother", "姐姐": "older sister",
    "妹妹": "younger sister", "儿子": "son", "女儿": "daughter", "老板": "manager",
    "领导": "manager", "男朋友": "partner", "女朋友": "partner", "对象": "partner", "狗": "dog",
    "猫": "cat", "先生": "spouse", "太太": "spouse", "媳妇": "spouse",
}
ADDITION = (
    _c(r"\b(?:also|another|other|second|too|as\s+well|plus)\b"),
    re.compile(r"还|另|也|又"),
)
PAST = (
    _c(r"\bi\s+was\s+(?:a|an|vegetarian|vegan|married|single)\b|\b(?:used\s+to|when\s+i\s+was|as\s+a\s+(?:kid|child|teen)|years\s+ago|back\s+then"
       r"|before\s+i|growing\s+up|formerly|previously)\b"),
    re.compile(r"以前|之前|曾经|原来|过去|小时候|年轻时|年轻的时候|当年|那时"),
)
COUNTRIES = frozenset(
    ["germany", "france", "spain", "italy", "portugal", "uk", "england", "britain", "scotland", "ireland", "usa", "us", "america", "canada", "mexico", "brazil", "argentina", "china", "japan", "korea", "india", "australia", "netherlands", "belgium", "austria", "switzerland", "sweden", "norway", "denmark", "finland", "poland", "russia", "turkey", "greece", "egypt", "singapore", "thailand", "vietnam", "indonesia", "texas", "california", "bavaria", "europe", "asia"]
)
REGIONS_ZH = frozenset(
    ["中国", "美国", "日本", "韩国", "英国", "法国", "德国", "加拿大", "澳大利亚", "广东", "广西", "浙江", "江苏", "山东", "河南", "河北", "湖南", "湖北", "四川", "福建", "安徽", "江西", "云南", "贵州", "陕西", "山西", "辽宁", "吉林", "黑龙江", "甘肃", "海南", "内蒙古", "新疆", "西藏", "宁夏", "青海", "国外", "南方", "北方", "老家"]
)
