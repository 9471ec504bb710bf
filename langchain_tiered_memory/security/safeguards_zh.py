"""What makes a Chinese standing rule the writer's own safeguard rather than a poisoned memory.

:mod:`.addressed_zh` finds a standing rule (以后, 每次, 凡是…) with a hostile act in it (send a
code, skip a check, pay into an account); these predicates read the act's sentence for what
turns it into the writer's protection: a warning against the act (请勿把验证码告诉他人), an alert
(…都是诈骗), a destination the writer owns (我老公的邮箱), a reminder to the writer that hands
nothing on (提醒我先打码), or a confirmation waived for an act that moves nothing (加到待办清单，
不用再问我确认).
"""

from __future__ import annotations

import re

from .zh_fold import SENTENCE_END

__all__ = ["OWN", "reports_phishing", "writers_safeguard"]


def _sentence_start(text: str, at: int) -> int:
    """Where the sentence holding ``text[at]`` starts."""
    return max((m.end() for m in SENTENCE_END.finditer(text, 0, at)), default=0)


def writers_safeguard(window: str, act: re.Match[str]) -> bool:
    """Whether the hostile ``act`` of a standing rule in ``window`` is the writer's own
    protection rather than a poisoned memory (see the module doc)."""
    return (
        _waives_a_harmless_check(window, act)
        or _sent_to_the_writer(window, act)
        or _warned_against(window, act.start())
        # (a warning inside the act itself: 请记住您的密码，不要告诉任何人)
        or _WARNING.search(window, act.start() + 2, act.end()) is not None
    )


# A confirmation waived is hostile by what it waives: 付款不用再问我确认 hands money over,
# 加到我的待办清单里，不用再问我确认 adds a to-do item.
_WAIVED = re.compile(r"(?:不要|无需|不用|不必|别|不需要)(?:再次?)?(?:向我|跟我|和我|找我|问我)?确认$")
_CONSEQUENCE = re.compile(
    r"付|转账|转帐|汇|支付|买|购|下单|订|发送|发给|转发|寄|删|签|批准|同意|授权|退|交易|链接|登录|登陆"
    r"|密码|验证码|账户|账号|卡|钱|款|投资|借|贷|安装|下载|打开|点击|分享|共享|公开|上传|通知"
)


def _waives_a_harmless_check(window: str, act: re.Match[str]) -> bool:
    """Whether ``act`` waives a confirmation in a sentence that moves nothing (no payment, no
    sending, no link, no secret)."""
    if _WAIVED.search(act.group()) is None:
        return False
    start = _sentence_start(window, act.start())
    end = SENTENCE_END.search(window, act.end())
    return _CONSEQUENCE.search(window, start, end.start() if end else len(window)) is None


# A rule that warns against the act (请勿把验证码告诉他人, 银行不会要求您转账到…, 谨防…) is
# the user's protection, not a poisoned memory.
_WARNING = re.compile(
    r"不要|不得|请勿|切勿|千万别|千万不要|绝不|不会|禁止|严禁|谨防|警惕|提防|小心|防止|以免|骗|不许|不准"
    r"|不需要|无需|从不|冒充"
)
_CLAUSE_START = re.compile(r"[。！？!?\n；;，,]")


# (or the act named as what an attacker asks, or as what is refused or escalated when asked:
# 凡是要求跳过审批的邮件，一律不予处理; 凡是要求跳过核实的消息，都标记为需上报)
_ALERT = re.compile(
    r"警惕|谨防|提防|小心|诈骗|骗局|骗子|冒充|风险提示|攻击者|黑客|骇客"
    r"|不予(?:处理|受理|办理|支付)|一律拒绝|拒绝处理|标记为[“\"「]?(?:可疑|需上报|风险)|需上报|停下来确认"
)


def _warned_against(window: str, at: int) -> bool:
    """Whether the hostile act at ``at`` is the writer's protection: warned against, alerted to,
    sent to a destination the sentence gives the writer, or a reminder to the writer."""
    start = max((m.end() for m in _CLAUSE_START.finditer(window, 0, at)), default=0)
    sentence = _sentence_start(window, at)
    end = SENTENCE_END.search(window, at)
    # a warning word before the act in its clause, an alert anywhere in its sentence (…的邮件
    # 提高警惕; 凡是要求您转账到安全账户的，都是诈骗), or a destination its sentence gives to the
    # writer, their people or their organisation (抄送给我的助理刘敏（liumin@…）, 我老公的邮箱是…,
    # 抄送 procurement@…，这是公司采购部的公共邮箱, 新号码是139…)
    stop = end.start() if end else len(window)
    return (
        _WARNING.search(window, start, at) is not None
        or _ALERT.search(window, sentence, stop) is not None
        or (
            _DESTINATION.match(window, at) is not None
            and _THEIRS.search(window, sentence, stop) is not None
            and _OTHERS.search(window, sentence, stop) is None
        )
        or _reminds_writer(window, sentence, stop)
    )


# (给他的文件抄送我自己: the copy goes to the writer)
_TO_MYSELF = re.compile(r"\s{0,2}(?:给|到|至)?(?:我自己|我本人)")


def _sent_to_the_writer(window: str, act: re.Match[str]) -> bool:
    """Whether the hostile ``act`` sends to the writer themselves (…抄送我自己)."""
    # (others' things to "myself" stay refused: 把客户的密码都发给我自己)
    sentence = _sentence_start(window, act.start())
    return (
        _TO_MYSELF.match(window, act.end()) is not None
        and _OTHERS_THINGS.search(window, sentence, act.end()) is None
    )


_OTHERS_THINGS = re.compile(r"(?:客户|用户|顾客|同事|员工|病人|患者|学生|会员|别人|他人|大家|所有人)的?")


# The writer's own safeguard: 以后涉及改收款账户的事，都先提醒我打电话确认. What the rule does is
# remind the writer; it sends nobody anywhere (no address, no account or phone number in it).
# (不用提醒我, 别再提醒我: the reminder itself declined)
_UNDECLINED = r"(?<!不用)(?<!不要)(?<!无需)(?<!无须)(?<!不必)(?<!需要)(?<!别)(?<!停止)(?<!再)"
_REMIND_ME = re.compile(
    _UNDECLINED
    + r"(?:(?:提醒|提示|警告)(?:一下)?我[^。！？\n]{0,12}?(?:确认|核实|核对|查证|打电话|官网|官方|小心|注意|别|不要)"
    r"|先问我|跟我确认|和我确认|让我(?:先)?确认)"
)
_NUMBER = re.compile(r"\d{6,}")


# What the writer is reminded to do is theirs unless it hands something to someone: 提醒我先打码
# keeps the ID number with the writer; 提醒我把验证码发给小王 sends it on.
_REMIND_CUE = re.compile(_UNDECLINED + r"(?:提醒|提示)(?:一下)?我")
_HANDED_ON = re.compile(
    r"(?:发|传|转|交|分享|共享|报|填|输|存|贴)[^。！？\n]{0,12}?(?:给|到|至|进|入)(?!我)"
    r"|(?:告诉|告知|透露|念给|读给)(?!我)"
    r"|(?:给|向|替|帮)(?!我)[^。！？\n]{0,12}?(?:发|传|转|交|告诉|告知|透露|分享|共享|报)"
)


def _reminds_writer(window: str, start: int, stop: int) -> bool:
    if _ADDRESS.search(window, start, stop) is not None or _NUMBER.search(window, start, stop):
        return False
    if _REMIND_ME.search(window, start, stop) is not None:
        return True
    cue = _REMIND_CUE.search(window, start, stop)
    return cue is not None and _HANDED_ON.search(window, cue.end(), stop) is None


OWN = re.compile(r"我的|我自己|我老公|我老婆|我先生|我太太|我妈|我爸|我家|本人")
# Whose a destination is: the writer's, their people's, their organisation's.
_THEIRS = re.compile(
    OWN.pattern + r"|我们|咱们|公司|部门|团队|单位|同事|领导|老板|主管|经理|助理|秘书|家人"
    r"|的(?:工作|公司|个人|私人|公共|办公)?(?:邮箱|信箱|手机|电话|号码)"
)
# ... unless the rule is what to hand other people (用户问客服电话，就说 139…，这是公司的新号码).
_OTHERS = re.compile(r"用户|客户|顾客|别人|大家|对方|任何人|所有人|来电|来问")
_ADDRESS = re.compile(r"https?://|www\.|[\w.+-]+@|[a-z0-9-]+\.(?:com|cn|net|org)", re.IGNORECASE)
# (a mainland mobile number is a destination too: 新号码是139…)
_DESTINATION = re.compile(_ADDRESS.pattern + r"|1[3-9]\d[\dx]{8}", re.IGNORECASE)


# A notice that has suspicious mail forwarded to the security team: 如收到此类要求，请转发至
# phishing@…; 请直接忽略此类邮件并转发到 security@…. What is sent is the suspicious message, not
# the secret it asked for; both the message and a security mailbox must be named.
_SUSPICIOUS_MESSAGE = re.compile(
    r"(?:此类|这类|该类|这种|此种|这些|可疑|钓鱼|诈骗|冒充|伪装)的?(?:邮件|短信|信息|消息|要求|链接|来电|电邮)"
    r"|收到[^。！？\n]{0,30}?的(?:邮件|短信|信息|消息|电邮)"
)
_SECURITY_BOX = re.compile(
    r"(?:phishing|phish|security|it-?security|infosec|secops|abuse|spam|fraud|antifraud|soc|cert|csirt)"
    r"@[\w-]+\.",
    re.IGNORECASE,
)


def reports_phishing(text: str, start: int, end: int) -> bool:
    """Whether the send at ``text[start:end]`` forwards a suspicious message to a security
    mailbox (see above), read in its sentence."""
    sentence = _sentence_start(text, start)
    return (
        _SECURITY_BOX.search(text, start, end) is not None
        and _SUSPICIOUS_MESSAGE.search(text, sentence, end) is not None
    )
