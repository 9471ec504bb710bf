"""Family rules for heuristic extraction in Chinese (see `extraction_families` for the design).

The same families as the English rules, read from Chinese frames: 搬到…, 在…做…医生, 每天…,
团队决定…, 以后回答我请…, 家人在…读书/工作, 我对…过敏, 我不吃…, 预算…, 我是…后.
"""

from __future__ import annotations

import re

from langchain_tiered_memory.ingest.extraction_rules import Rule

__all__ = ["ZH_FAMILY_RULES"]

# ---- Chinese fragments --------------------------------------------------------------------

_ZI = r"(?<![他她它你您])我"
_ZH_STOP = r"[^，,。.!！?？；;\n]"
_ZH_OBJ = rf"(?P<obj>{_ZH_STOP}+)"
_ZH_REL = (
    r"(?P<slot>老公|老婆|丈夫|妻子|爱人|对象|儿子|女儿|闺女|孩子|娃|大宝|二宝|小宝|老大|老二|老三"
    r"|双胞胎|爸爸|妈妈|爸妈|父母|父亲|母亲|老爸|老妈|哥哥|姐姐|弟弟|妹妹|爷爷|奶奶|外公|外婆"
    r"|姥姥|姥爷|公公|婆婆|岳父|岳母|男朋友|女朋友|男友|女友|未婚夫|未婚妻|继子|继女|侄子|侄女"
    r"|外甥|外甥女|舅舅|姑姑|叔叔|阿姨|家人|全家)"
)
_ZH_PETS = r"猫|狗|猫咪|小猫|小狗|狗狗|鹦鹉|仓鼠|兔子|乌龟|金鱼|鱼|蜥蜴|蛇|柯基|金毛|泰迪|柴犬|哈士奇|布偶|英短|橘猫"
_ZH_NUM = r"[一二两三四五六七八九十几\d]"
_ZH_JOBS = (
    r"工程师|程序员|码农|设计师|医生|大夫|老师|教师|幼师|教授|护士|律师|学生|研究生|博士生?|会计"
    r"|经理|厨师|司机|记者|作家|警察|主管|总监|分析师|科学家|研究员|产品经理|销售|运营|画家|演员"
    r"|歌手|编辑|翻译|农民|工人|公务员|军人|自由职业者?|开发|前端|后端|测试|运维|牙医|药剂师"
    r"|建筑师|摄影师|主播|客服|快递员|外卖员|骑手|保安|理发师|消防员|飞行员|空姐|空乘|导游|兽医"
    r"|心理咨询师|咨询师|会计师|审计|护工|保姆|店长|个体户|全职妈妈|家庭主妇|电工|司机|外科医生"
)
_ZH_COND = (
    r"糖尿病|高血压|低血压|哮喘|心脏病|胃病|胃炎|鼻炎|关节炎|颈椎病|腰椎间盘突出|痛风|贫血|失眠"
    r"|抑郁症?|焦虑症?|强迫症|多动症|自闭症|癫痫|偏头痛|湿疹|甲亢|甲减|乙肝|近视|色盲|红斑狼疮"
    r"|乳糖不耐受?|麸质不耐受?|脂肪肝|高血脂|肾结石|胆结石|[\u4e00-\u9fff]{1,4}(?:病|症|炎|癌)"
)
_ZH_LANGS = r"[\u4e00-\u9fff]{1,4}(?:语|话|文)|英文|中文|日文|粤语"
_ZH_TIME = r"(?:每天|天天|每周|每个?星期|每个?月|每年|每个?周末|每晚|每早|每顿|每次)"
_ZH_DIET = r"猪肉|牛肉|羊肉|肉|海鲜|鱼|虾|辣|辣椒|葱|蒜|香菜|牛奶|奶制品|鸡蛋|酒|甜食|糖|荤|内脏"


def _zh(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


ZH_FAMILY_RULES: tuple[Rule, ...] = (
    # Standing style requests.
    Rule(_zh(r"(?:以后|今后|往后|之后|从现在起|从今以后|每次|一律|始终|永远)?[^，。]{0,4}"
             r"(?:回答|回复|答复|跟我说话|和我说话|跟我聊天|和我聊天|给我写)[^，。]{0,3}?"
             rf"(?:请|都|就|一律)?(?:用|使用|说)(?P<obj>{_ZH_LANGS})"
             rf"|(?:请|麻烦你?)?(?:一直|始终|总是|永远|以后都|每次都|都)(?:用|使用|说)(?P<obj2>{_ZH_LANGS})"
             r"(?:回复|回答|跟|和|给)我"),
         "preference", "language.reply", "用户希望用{obj}回答", 0.85, "zh"),
    Rule(_zh(rf"(?:请|麻烦你?)?(?:一直|始终|总是|永远|以后都|每次都)(?P<obj>(?:用|使用|说){_ZH_STOP}{{1,8}}?"
             r"(?:回复|回答|跟|和|给)我)"),
         "preference", "preference.style.{topic}", "用户的长期要求：{obj}", 0.8, "zh"),
    Rule(_zh(rf"(?:以后|今后|往后|从现在起|从今以后|每次)[^，。]{{0,6}}?(?:请|都|别|不要|要|一律|尽量"
             rf"|尽可能|最好|统一|用)"
             rf"(?P<obj>{_ZH_STOP}+)"),
         "preference", "preference.style.{topic}", "用户的长期要求：{obj}", 0.8, "zh"),
    Rule(_zh(r"(?:回答我|回复我|给我回答|给我的回答|跟我说话|和我说话|给我写代码|给我写)[^，。]{0,4}?"
             rf"(?:的时候[，,]?(?:请|都|别|不要|要)?|[，,]?(?:请|都|别|不要|要))(?P<obj>{_ZH_STOP}+)"),
         "preference", "preference.style.{topic}", "用户的长期要求：{obj}", 0.8, "zh"),
    # Team decisions.
    Rule(_zh(r"(?:团队|我们组|我们团队|组里|部门|公司|领导|管理层|老板|我们|咱们|大家|组长|经理|主管"
             r"|技术负责人|CTO|项目组)"
             r"(?:最后|最终|已经|终于|一致|开会)?(?:决定|定了|商量好|敲定|拍板|同意|选定了?|投票"
             r"决定)(?:了)?[，,：:]?(?P<obj>[^。.!！?？；;\n]+)"),
         "decision", "decision.{topic}", "团队决定：{obj}", 0.8, "zh"),
    Rule(_zh(r"(?:团队|我们组|我们团队|组里|部门|公司)(?:以后|之后|下个月|明年|从下周起)?(?:要|将)?"
             r"(?:改用|换成|统一用|全面切换到|迁移到|迁到)(?P<obj>[^。.!！?？；;\n]+)"),
         "decision", "decision.{topic}", "团队决定改用{obj}", 0.75, "zh"),
    # Relatives.
    Rule(_zh(rf"{_ZI}(?:的|家)?{_ZH_REL}(?!说|觉得|认为|告诉|讲|以为|听说)(?:都|也|现在|目前)?"
             rf"(?P<obj>(?:叫|在|是|住|读|上|当|做|开|有|今年|已经|刚|考|学|退休|工作|养|喜欢|"
             rf"不)[^，,。.!！?？；;\n]*)"),
         "fact", "family.{slot}", "用户的{slot}{obj}", 0.75, "zh"),
    Rule(_zh(rf"{_ZI}(?:家)?有(?:一个|两个|三个|个|一对)(?P<slot>儿子|女儿|孩子|双胞胎|哥哥|姐姐|弟弟"
             rf"|妹妹)(?P<obj>[^，,。.!！?？；;\n]*)"),
         "fact", "family.{slot}", "用户有{slot}{obj}", 0.75, "zh", object_optional=True),
    # Pets.
    Rule(_zh(rf"{_ZI}(?:们)?(?:家)?(?:养了|养着|养|有)(?P<obj>{_ZH_NUM}*(?:只|条|匹|缸|个)?"
             rf"{_ZH_STOP}{{0,6}}?(?:{_ZH_PETS}){_ZH_STOP}*)"),
         "fact", "pet.{topic}", "用户养了{obj}", 0.8, "zh"),
    Rule(_zh(rf"{_ZI}(?:家|的)(?:的)?(?P<obj>(?:{_ZH_PETS})(?:叫|是){_ZH_STOP}+)"),
         "fact", "pet.{topic}", "用户的{obj}", 0.8, "zh"),
    # Occupations.
    Rule(_zh(rf"(?:{_ZI}|^)(?:现在|目前|已经)?(?:在{_ZH_STOP}{{1,12}}?)?(?:做|当|干)(?:了)?"
             rf"(?:{_ZH_NUM}+年)?(?:的)?(?P<obj>{_ZH_STOP}{{0,6}}?(?:{_ZH_JOBS}))"),
         "identity", "identity.occupation", "用户是{obj}", 0.8, "zh"),
    Rule(_zh(rf"{_ZI}是(?:做|干|搞|开|教|卖|修|跑|送|写|画|搞)(?P<obj>{_ZH_STOP}{{1,10}}?)的(?=[，,。.!！\s]|$)"
             rf"|{_ZI}在(?:{_ZH_STOP}{{1,10}}?)(?:教|带)(?P<obj4>{_ZH_STOP}{{1,8}})"
             rf"|{_ZI}的(?:工作|职业)是(?P<obj2>{_ZH_STOP}+)|作为一名(?P<obj3>{_ZH_STOP}{{0,6}}?"
             rf"(?:{_ZH_JOBS}))"),
         "identity", "identity.occupation", "用户的职业是{obj}", 0.8, "zh"),
    # Health.
    Rule(_zh(rf"{_ZI}(?:有|患有|得了|得过|被诊断出?(?:患有|为|有)?|是)?(?:轻微的|严重的|慢性)?"
             rf"(?P<obj>{_ZH_COND})(?:患者)?(?![的药])"),
         "constraint", "health.condition", "用户有{obj}", 0.8, "zh"),
    Rule(_zh(rf"{_ZI}(?P<obj>[^，,。.!！?？；;\n对]{{1,6}})过敏"),
         "constraint", "health.allergy.{topic}", "用户对{obj}过敏", 0.9, "zh"),
    Rule(_zh(rf"{_ZI}的?(?P<obj>(?:腰|膝盖|颈椎|胃|肠胃|心脏|眼睛|腿|肩膀)(?:不好|不太好|有问题|受过伤))"),
         "constraint", "health.condition", "用户{obj}", 0.75, "zh"),
    Rule(_zh(rf"{_ZI}(?:的)?(?P<obj>(?:血压|血糖|血脂|胆固醇|尿酸)(?:有点|有些|偏|比较|一直)?(?:高|低|偏高|偏低))"
             rf"|被诊断出?(?:患有|为|有)?(?P<obj2>{_ZH_STOP}{{2,12}})"),
         "constraint", "health.condition", "用户有{obj}", 0.8, "zh"),
    # Diets.
    Rule(_zh(rf"{_ZI}(?:们)?(?:家)?(?:最近|现在|一直|目前|已经)?(?:是)?(?P<obj>滴酒不沾|吃全素|吃素|吃清真|清真|回民|穆斯林|素食|生酮饮食"
             rf"|在减肥|在控糖|戒糖|在戒糖|低碳水|轻断食|少油少盐)"),
         "constraint", "diet.style", "用户饮食：{obj}", 0.85, "zh"),
    Rule(_zh(rf"{_ZI}(?:们)?(?:家)?(?:从来|从|一直|一点|完全|平时)?(?:都)?(?:不|不能|没法|从不)(?:吃|喝|碰)"
             rf"(?:任何|一点)?(?P<obj>(?:{_ZH_DIET})[^，,。.!！?？；;\n]*)"),
         "constraint", "diet.{topic}", "用户不吃{obj}", 0.85, "zh"),
    Rule(_zh(rf"{_ZI}(?:一点|什么)?(?P<obj>{_ZH_DIET})(?:都|也)?(?:吃不了|不能吃|不吃|碰不了|不能碰|沾不了)"),
         "constraint", "diet.{topic}", "用户不吃{obj}", 0.85, "zh"),
    Rule(_zh(rf"(?:{_ZI}|本人)(?:现在|目前)?是(?:一名|一位|一个|个|名|位)?(?P<obj>{_ZH_STOP}{{0,8}}?"
             rf"(?:{_ZH_JOBS}))(?![的])|作为(?:一名|一个|一位|个)?(?P<obj2>{_ZH_STOP}{{0,6}}?(?:{_ZH_JOBS}))"),
         "identity", "identity.occupation", "用户是{obj}", 0.8, "zh"),
    # Schedules.
    Rule(_zh(rf"{_ZI}(?:每周|周|星期|每个?星期|每天|工作日|平时)?(?:[一二三四五六日天末]|周末)?"
             rf"(?:晚上|早上|下午|上午)?(?:都)?(?:要|得|需要)?(?P<obj>上夜班|上晚班|上早班|值夜班|倒班"
             rf"|三班倒|单休|双休|加班|值班|有课|上课|没空|有空|在家办公|远程办公|居家办公|996)"
             rf"|{_ZI}只有(?P<obj2>{_ZH_STOP}{{1,8}}?)(?:有空|有时间|方便)"
             rf"|{_ZI}(?:平时|一般|工作日|每天)?(?P<obj3>{_ZH_STOP}{{1,10}}?)才(?:有空|有时间|方便)"),
         "constraint", "schedule.{topic}", "用户的时间安排：{obj}", 0.75, "zh"),
    # Habits, negated or not.
    Rule(_zh(rf"{_ZI}(?:平时|一般|从来|从|基本|几乎)?(?:都)?(?:不|从不|很少|没有?)(?P<obj>(?:做饭|开车"
             rf"|喝咖啡|喝茶|吃早饭|吃早餐|抽烟|熬夜|运动|锻炼|看电视|玩游戏|坐飞机|骑车|化妆|点外卖"
             rf"|喝|吃|用|看|玩|坐|穿){_ZH_STOP}*)"),
         "fact", "habit.{topic}", "用户不{obj}", 0.75, "zh"),
    Rule(_zh(rf"{_ZI}(?:现在|一般|通常|平时)?{_ZH_TIME}(?P<obj>{_ZH_STOP}+)"
             rf"|{_ZI}(?:一般|通常|平时|经常|总是)(?:都)?(?:会)?(?P<obj2>(?:在|去|早上|晚上|每){_ZH_STOP}+)"
             rf"|{_ZI}(?:一般|通常|平时)?(?:都)?习惯(?:了)?(?P<obj4>{_ZH_STOP}+)"
             rf"|{_ZH_TIME}{_ZI}(?:都)?(?P<obj3>{_ZH_STOP}+)"),
         "fact", "habit.{topic}", "用户{obj}", 0.7, "zh", fallback=True),
    # Possessions.
    Rule(_zh(rf"{_ZI}(?:开的是|开的车是|开一辆|开着一辆)(?P<obj>{_ZH_STOP}+)"),
         "fact", "possession.car", "用户开{obj}", 0.8, "zh"),
    Rule(_zh(rf"{_ZI}(?:们)?(?:家)?(?:在{_ZH_STOP}{{1,8}}?)?(?:开的是|开着|开一辆|开|有|买了|有一辆|有一台|有一套|有一部)"
             rf"(?P<obj>(?:一辆|一台|一套|一部|一个|两套|辆|台|套|部)?{_ZH_STOP}{{0,10}}?"
             rf"(?:车|电脑|笔记本|手机|相机|房子|房|公寓|别墅|钢琴|吉他|摩托|自行车|iPhone|Mac"
             rf"|特斯拉|比亚迪|平板|服务器|NAS|游戏机|单反)){_ZH_STOP}*"),
         "fact", "possession.{topic}", "用户有{obj}", 0.75, "zh"),
    Rule(_zh(rf"{_ZI}的(?P<slot>车|电脑|笔记本|手机|相机|房子)是(?P<obj>{_ZH_STOP}+)"),
         "fact", "possession.{slot}", "用户的{slot}是{obj}", 0.8, "zh"),
    # Languages.
    Rule(_zh(rf"{_ZI}(?:会说|会讲|能说|能讲|说得|讲得|说|讲|懂)(?:一点|一些|一口流利的|流利的|点)?(?P<obj>{_ZH_LANGS})"
             rf"|{_ZI}的母语是(?P<obj2>{_ZH_LANGS})|{_ZI}是(?P<obj3>{_ZH_LANGS})母语"
             rf"|{_ZI}(?:的)?(?P<obj4>英语|日语|韩语|法语|德语)(?:已经)?(?:考过了?|过了|是|有)?"
             rf"(?:六级|四级|八级|专八|N[1-5]|雅思|托福|很流利|挺好|还行|不错)"),
         "identity", "identity.language", "用户会说{obj}", 0.85, "zh"),
    # Age and birthday.
    Rule(_zh(rf"{_ZI}(?:今年|已经|刚|刚刚|快)?(?:满|过了)?(?P<obj>\d{{1,2}}|[一二三四五六七八九十]{{1,3}})"
             rf"(?:岁|了|多岁)|{_ZI}今年(?:刚好|正好|刚|已经)?(?P<obj5>\d{{1,2}}|[一二三四五六七八九十]{{2,3}})"
             rf"(?=[，,。.!！]|$)|{_ZI}{_ZH_STOP}{{0,6}}?(?:满|过了)(?P<obj4>\d{{1,2}}|[一二三四五六七八九十]{{1,3}})"
             rf"(?:岁|周岁|了)"
             rf"|{_ZI}是(?P<obj2>\d{{2}}|[零〇一二三四五六七八九]{{2}})后"
             rf"|{_ZI}(?:是)?(?P<obj3>(?:19|20)?\d{{2}}|[零〇一二三四五六七八九]{{2,4}})年(?:出)?生的?"),
         "identity", "identity.age", "用户年龄：{obj}", 0.85, "zh"),
    Rule(_zh(rf"{_ZI}(?:的)?生日(?:是|在)?(?P<obj>{_ZH_STOP}+)"),
         "identity", "identity.birthday", "用户的生日是{obj}", 0.85, "zh"),
    Rule(_zh(rf"{_ZI}(?:是)?属(?P<obj>[鼠牛虎兔龙蛇马羊猴鸡狗猪])"),
         "identity", "identity.zodiac", "用户属{obj}", 0.85, "zh"),
    # Budgets.
    Rule(_zh(rf"(?P<obj>{_ZH_STOP}{{0,8}}?预算(?:大概|大约|是|为|在|只有|控制在|不超过)?{_ZH_STOP}*?"
             rf"(?:\d|[一二两三四五六七八九十百千万]){_ZH_STOP}*)"
             rf"|(?P<obj2>(?:{_ZI}|我们|一家){_ZH_STOP}{{0,10}}?(?:最多|顶多|不超过|不能超过)"
             rf"(?:花|出)?(?:\d|[一二两三四五六七八九十百千万]){_ZH_STOP}*)"),
         "constraint", "budget.{topic}", "用户的预算：{obj}", 0.8, "zh"),
    # Plans tied to events.
    Rule(_zh(rf"{_ZI}(?:们)?(?:在|正在|最近在)?(?:为|准备|备战|备考|打算|计划|准备好)(?P<obj>"
             rf"{_ZH_STOP}+)"),
         "goal", "goal.{topic}", "用户计划：{obj}", 0.75, "zh"),
    # Moves and homes.
    Rule(_zh(rf"(?:{_ZI}|我们|全家|我家|一家)(?:{_ZH_STOP}{{0,8}}?)(?:从{_ZH_STOP}{{1,8}}?)?"
             rf"(?:搬到|搬去|搬来|搬回|搬家到|移民到|移民去|定居到?)了?(?P<obj>{_ZH_STOP}{{1,12}})"),
         "identity", "location.home", "用户搬到了{obj}", 0.85, "zh"),
    Rule(_zh(rf"(?:{_ZI}们?|我们)家(?:在|住在)(?P<obj>[^，,。.!！?？；;\n有]{{2,14}})(?=[，,。.!！?？；;\n]|$)"),
         "identity", "location.home", "用户住在{obj}", 0.8, "zh"),
    # Workplaces.
    Rule(_zh(rf"{_ZI}(?:现在|目前|一直)?在(?P<obj>{_ZH_STOP}{{2,24}}?)(?:工作|上班|任职|实习)"),
         "identity", "identity.employer", "用户在{obj}工作", 0.8, "zh"),
    # Education.
    Rule(_zh(rf"{_ZI}(?:是)?(?P<obj>{_ZH_STOP}{{2,16}}?)毕业的|{_ZI}(?:大学|本科|研究生)?(?:学的是|读的是|"
             rf"念的是)(?P<obj2>{_ZH_STOP}+)|{_ZI}(?:只)?(?:读到|念到|上到)(?P<obj3>{_ZH_STOP}+)"
             rf"|{_ZI}(?:在|正在)?(?:读|念)(?P<obj4>(?:在职)?(?:MBA|研究生|研一|研二|研三|博士|大学"
             rf"|大[一二三四]|高中|硕士){_ZH_STOP}*)"),
         "identity", "identity.education", "用户的学历：{obj}", 0.8, "zh"),
    # Hobbies phrased around free time.
    Rule(_zh(rf"{_ZI}(?:业余时间|业余|空闲时间|有空的时候|没事的时候|闲暇时|周末|平时)(?:最)?(?:喜欢|爱)"
             rf"(?P<obj>{_ZH_STOP}+)"),
         "preference", "hobby.{topic}", "用户喜欢{obj}", 0.8, "zh"),
)
