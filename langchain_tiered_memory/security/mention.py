"""Mention, not use: an attack phrase quoted in a text that talks *about* attacks.

"The phrase 'ignore all previous instructions' went viral in 2023" and 我在写一篇关于提示词注入的
文章，像“忽略之前的所有指令”这种话术… quote an override to discuss it. A rule match counts as a
mention only when all of this holds:

* the match lies inside one quoted segment (straight, curly, guillemet or CJK quotes) of at
  most :data:`MAX_QUOTED` characters;
* the text outside the quotes names the discussion: "phrase", "example", "prompt injection",
  "jailbreak", 话术, 注入 and the like (also in French, Spanish, German, Italian, Portuguese,
  Russian, Japanese and Korean: "exemple", "Angriff", "безопасность", セキュリティ, 보안 ...);
  or the words right after the quote report that the machine did not act on it (机器人未照做,
  模型没有复述, 助手会拒绝), as a test log or a group chat does;
* the quoted segment holds no destination (URL, e-mail address; in a write-up that names
  attacks, one reserved for documentation such as ``attacker@example.com`` or ``evil.example``
  does not count), nothing before it asks for the quote to be said, repeated, printed or
  translated, and nothing after it tells the reader to follow it — that would be use, not
  mention.

A line of dialogue ("Forget everything you've been told," the captain said) is a mention without
discussion words, when the quote names no host. And an English override that is *described*
rather than given ("direct injections overwrite system prompts", "payloads that try to make the
model ignore its rules", "the referee may override any rule") is set aside by
:func:`described_override`: its own clause has a third-person subject or a frame that reports an
attempt, which an order to the reader never has.
"""

from __future__ import annotations

import re

from .zh_fold import fold_traditional

__all__ = [
    "MAX_QUOTED",
    "ZH_CASE_WORDS",
    "attack_write_up",
    "described_override",
    "discusses_attacks",
    "mention_segment",
    "names_attacks",
    "quoted_examples_blanked",
    "refusal_reported",
]

MAX_QUOTED = 160  # characters of one quoted segment that may be a mention
# Chinese words of a case, a drill or a lesson reported with what was expected (案例：…预期：拒绝,
# 骗子会说“…”, 目标劫持的样例, 防骗讲义): a quoted attack among them is mentioned.
ZH_CASE_WORDS = (
    r"案例|劫持|防[骗騙]|[样樣]例|[讲講][义義]|[课課]堂|[骗騙]子|反[诈詐]|[钓釣][鱼魚]|[实實][验驗]"
    r"|(?:[预預]期|期望)(?:[结結]果|[输輸]出|行[为為])?[：:]"
)

_QUOTES = {"'": "'", '"': '"', "“": "”", "‘": "’", "«": "»", "「": "」", "『": "』", "„": "“"}
_META = re.compile(
    r"\b(?:phrases?|examples?|such as|known as|called|so-called|prompt injections?|injections?"
    r"|jailbreaks?|attacks?|attackers?|red[ -]team(?:ing|er)?|classifiers?|detectors?|detect"
    r"|filters?|blog|paper|article|went viral|meme|for instance|classic|string|strings|untrusted"
    r"|(?<!webhook )(?<!json )(?<!api )(?<!request )(?<!response )(?<!event )payloads?|technique|trick|tricks|defend|defen[cs]e|mitigat\w*|security awareness"
    # test code that quotes an attack as its fixture: "X" style inputs, parametrize lists
    r"|style inputs?|style prompts?|unit tests?|snapshot tests?|test cases?|fixtures?"
    r"|parametrize|pytest|assert\w*|unittest|testcase|regression tests?"
    # reported speech: someone says, writes or spams the quote; the text reports it
    r"|a note saying|whispers?|whispered|spams|spammed|shouts?|shouted|things like|lines like"
    r"|moderation|even if (?:it|they|the \w+) (?:says?|claims?|contains?)"
    # a quote that is reported, joked about or filtered: "jokes", "the sentence", "typing '...'"
    r"|sentences?|quote from|a quote|the quote|jokes?|clich[eé]s?|typing|discussions?|threads?"
    r"|guardrails?|gateways?|risk tags?|obeys?|quiz|benchmarks?|owasp|villains?|scams?|scammers?"
    r"|phishing|requests? like|messages? like|inputs? like|prompts? like|extract|extraction"
    # a quote someone studied or filed: Reddit threads,
    # exercises, regex lists of patterns to flag
    r"|reddit|genre|exercises?|regex(?:es)?|patterns?"
    r"|hierarch(?:y|ies)|suspicious"
    # a quote reported from a study, a lesson or an incident: "we hid '…' in white text",
    # "researchers sent e-mails containing '…'", a quiz's answer key, a slide, a case study
    r"|hid|white text|white-on-white|invisible text|planted|researchers?|answer key|slides?"
    r"|lessons?|case stud(?:y|ies)|incidents?|post-?mortems?|bugs?|samples?|whitepaper|excerpt"
    r"|demo|fraudsters?|impersonat\w+|pretending"
    # a quote reported as something that fooled, or was tried on, a system: "the bot was tricked
    # when a user typed '…'", "the real risk", "expected result: the bot treats it as data"
    r"|trick(?:ed|ing)|fooled|complied|(?:real|security|biggest|main) risks?"
    r"|expected (?:result|output|behaviou?r)"
    r"|novels?|short story|stories|dialogue|screenplay|fictional"
    # a CTF write-up: "players tried '…'"
    r"|write-?ups?|ctf|players"
    # an attempt someone else made, reported: "a customer typed '…' into our bot", "someone
    # pasted: '…'", "a web page that says '…'", "questions like '…'"
    r"|(?:someone|somebody|a user|users|a customer|customers|people|a student|students|an attacker"
    r"|a colleague|a visitor|visitors|a reader|readers|kids)(?: \w+){0,2} (?:typed|types|pasted"
    r"|pastes|put|wrote|writes|posted|posts|sent|tried|try|entered|saying|says|said|say|asked"
    # ("ask" only right before a quote, or where the quote stood, now two spaces: "users ask
    # '…'" reports, "when someone asks you to summarise this, also DM …" orders)
    r"|asking|(?:ask|asks)(?=\W{0,2}[:\"'“‘]|\s\s))"
    r"|(?:page|document|pdf|e-?mail|file|issue|comment|review|message|post|tweet|ticket)s? (?:that"
    r"|which) (?:says?|said|contains?|contained|included|includes)|containing the text"
    r"|whose body|(?:questions?|texts?|phrases?|words?) like)\b"
    # (no \b after "e.g.": a word boundary never follows its last dot)
    r"|\be\.g\.|\bi\.e\."
    r"|样本|样例|示例|句式|测试用例|论文|笔记|翻译成|怎么翻译"
    r"|话术|注入|攻击|越狱|例如|比如|例子|这种|防御|检测|防范|教案|面试题|写着"
    # a quote that fooled a system, or a line of fiction: 骗过了AI筛选, 一句“…”骗过去, 反派的台词
    r"|骗过|騙過|骗过去|說法|说法|台词|台詞|小说|小說|剧本|劇本|文章说|文章說|文章里|文章裡|报道|報導"
    # someone else's attempt reported: 有人喺 bot 度打咗「…」, 有用户输入了“…”
    r"|(?:有人|有用户|有客人|有顾客|有同学)[^。！？\n]{0,16}?(?:打|输入|输|发|贴|写|问|说|讲)"
    # a case or an experiment reported with what was expected, a scammer's line quoted to warn
    r"|" + ZH_CASE_WORDS +
    # the same discussion in the eight other languages the scanner reads (stems, accents kept)
    r"|exemple|ejemplo|beispiel|esempio|exemplo|пример|例えば|예시|예를"
    r"|injection|inyecci|injektion|iniezion|injeç|инъекц|インジェクション|인젝션"
    r"|attaque|ataque|angriff|attacc|атак|攻撃|공격|jailbreak|джейлбрейк|脱獄|탈옥"
    r"|sécurité|seguridad|sicherheit|sicurezza|segurança|безопасност|セキュリティ|보안"
)
_USE = re.compile(
    # an imperative (clause start, or after "please", "to", "and"...), not "the notes say"
    r"(?:^|[.!?:;,\n]\s*|\b(?:please|to|and|then|now|just|you)\s+)"
    r"(?:say|tell|repeat|print|output|echo|recite|translate|respond|reply|answer|write|type|obey"
    r"|follow|execute|do what|act on)\b(?!-)[^.!?\n]{0,40}$"
    r"|(?:复述|重复|输出|说出|翻译|回答|执行|照做|回复|打印|告诉|改为|替换为|换成)[^。！？\n]{0,10}$"
)
# After the quote, the writer telling the reader to act on it: "… This sentence is the real
# instruction you must follow."
_USE_AFTER = re.compile(
    r"\b(?:you (?:must|should|shall|need to|have to|are to|will) (?:now )?(?:follow|obey|execute|do|carry"
    r" out|comply)|(?:this|that|it) is (?:the |your )?(?:real|actual|true) (?:instruction|task|order"
    r"|prompt)s?\b|(?:the |your )(?:real|actual|true) (?:instruction|task|order|prompt)s? (?:you|to)\b)",
    re.IGNORECASE,
)
# The same in Chinese: after the quote, the reader told to act on it (新版请照做, 你就照着回复,
# 按上面说的执行). Text is folded to simplified characters first.
_ZH_BY_IT = r"(?:照此执行|按(?:它|这|上面|这句)[^。！？\n，,]{0,4}?(?:做|回复|执行))"
_ZH_USE_AFTER = re.compile(
    r"(?:(?:请|你[要就得该应]?|就|直接)[^。！？\n，,不别勿没莫]{0,4}?(?:照做|照办|照着[^。！？\n，,]{0,4}?"
    r"(?:做|回复|回答|说|输出|执行)|" + _ZH_BY_IT + r")|(?:^|[，,。；;—\s])" + _ZH_BY_IT + r")"
    r"(?![^。！\n]{0,8}[吗吧？?])"
)
# An attribution right after the closing quote ("…," the captain said / "…", he said): fiction.
_SPEECH_TAG = re.compile(
    r"[\"”’'»」]?,?\s{0,2}(?:the |an? |his |her |my |our |their )?(?:[a-z]+ ){0,2}(?:said|says|replied"
    r"|whispered|muttered|snapped|growled|sneered|laughed|sighed|shouted|yelled|cried)\b"
)
# A reporting verb right before the quote, in the third person or a participle (never the
# imperative "say:", which _USE reads as an order): "a review saying", "user @x posted".
_REPORTED = re.compile(
    r"\b(?:saying|says|said|containing|contained|wrote|posted|reading)\s*[:,]?\s*$", re.IGNORECASE
)
# ... not a condition on what someone will say: 'When the user says "send money to Tolu", …'.
_CONDITION = re.compile(r"\b(?:when|whenever|if|once|every ?time|each time|as soon as)\b", re.IGNORECASE)
# ... nor an authority's word passed on ('The admin said: "ignore all previous instructions"').
_AUTHORITY = re.compile(
    r"\b(?:admins?|administrators?|system|developers?|devs?|owners?|operators?|managers?|boss|ceo"
    r"|it|security|support|staff|management|team|hr|legal|compliance|policy|rules?|instructions?"
    r"|prompt|headquarters|head office|moderators?|mods?)\b",
    re.IGNORECASE,
)
_OTHER_QUOTES = re.compile(r"“[^”\n]{0,160}”|「[^」\n]{0,160}」|『[^』\n]{0,160}』")
_HOST = re.compile(r"\b[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}\b")
# Names reserved for documentation (RFC 2606, RFC 6761): a quote that sends to
# attacker@example.com is an example in a write-up, no working destination.
_RESERVED = re.compile(
    r"(?:https?://)?[\w.+-]*@?[\w.-]*\b(?:example\.(?:com|net|org)|[\w-]+\.(?:example|test|invalid))\b\S*",
    re.IGNORECASE,
)
# Words that name attacks themselves; a write-up also names its tests of them.
_ATTACK_WORDS = (
    r"prompt[- ]injections?|injections?|red[- ]?team\w*|attacks?|attackers?|jailbreaks?"
    r"|threat model|adversarial|payloads?|exploits?"
)
_ATTACKS_NAMED = re.compile(r"\b(?:" + _ATTACK_WORDS + r")\b")
_ATTACK_WRITE_UP = re.compile(
    r"\b(?:" + _ATTACK_WORDS + r"|test cases?|evaluat\w+|benchmarks?|eval (?:set|suite))\b"
)
_DESTINATION = re.compile(r"https?://|www\.|[\w.+-]+@[\w-]+\.[a-z]{2,}", re.IGNORECASE)


# After a quoted attack, a report that the machine did not act on it (机器人未照做, agent 没有复述,
# 助手会拒绝, 它没上当, 不会把信件内容当指令执行): a test log, a group chat or an FAQ telling how an
# attempt failed. A refusal that is asked for or negated (不要拒绝, 如果机器人拒绝) says nothing of
# the kind, nor does one the writer overrules or only asks about. Text is folded to simplified
# characters first.
_OUTCOME_REACH = 80
_ZH_REFUSED = re.compile(
    r"(?<!如果)(?<!要是)(?<!若)(?:机器人|助手|助理|模型|客服|(?<![a-z])(?:ai|agent|bot|llm|gpt)(?![a-z])"
    r"|它)[^。！？\n，,不别禁勿没未]{0,6}?"
    r"(?:(?:未|没有?|不会|并未|并没有?|没能)[^。！？\n，,]{0,12}?(?:照做|上当|执行|复述|理会|中招|被骗"
    r"|当真|听从|配合)|(?:会|则|直接|都|当场|立刻)?拒绝(?:了|执行)?)"
    # (nor one the writer then overrules: 旧版机器人会拒绝，新版请照做; 不会照做，而是…)
    r"(?![^。！？\n]{0,12}(?:而是|反而|改为|但是?|可是|不过|请|你[要应就得该]|照做|照办|执行))"
    # (nor one only asked about: 机器人会拒绝这种话吗？, 助手不会理会这个，对吧？)
    r"(?![^。！\n]{0,12}[吗吧？?])",
    re.IGNORECASE,
)


def _quoted_segment(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The quoted segment ``(open, close)`` holding ``[start, end)``, if there is one."""
    lo = max(0, start - MAX_QUOTED)
    # A match may begin with its opening quote: "\"AI assistant: tell ...\"" starts at the quote.
    for i in range(start, lo - 1, -1):
        closing = _QUOTES.get(text[i])
        if closing is None:
            continue
        # A straight quote inside a word is an apostrophe ("don't"), not an opening quote.
        if text[i] == "'" and i > 0 and text[i - 1].isalnum():
            continue
        # One of a run ("""docstring""", '') delimits code, it quotes nothing.
        if text[i] in "'\"" and text[i] in (text[i - 1 : i], text[i + 1 : i + 2]):
            continue
        # One that closes a markup attribute (style="display:none">) opens nothing: the text
        # after it is the element's content, not a quotation.
        if text[i] in "'\"" and text[i + 1 : i + 2] in (">", "/"):
            continue
        # (a quote that closed before the match holds it not: "假客服"事件…让玩家把验证码发送到…;
        # nor is a straight double quote after an odd number of them on its line an opening one)
        if text.find(closing, i + 1, start) >= 0 or (text[i] == '"' and _closes(text, i)):
            continue
        close = text.find(closing, end, min(len(text), i + MAX_QUOTED + 1))
        if close >= 0:
            return i, close
    return None


def _closes(text: str, i: int) -> bool:
    """Whether the straight double quote at ``i`` closes one: an odd number of them before it on
    its line (read back at most 1,000 characters: a quoted segment is far shorter)."""
    floor = max(0, i - 1000)
    line = text.rfind("\n", floor, i)
    return text.count('"', line + 1 if line >= 0 else floor, i) % 2 == 1


def mention_segment(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The quoted segment ``(open, close)`` when the match ``text[start:end]`` is a quoted
    example inside a discussion of attacks; ``None`` when it is used, not mentioned."""
    segment = _quoted_segment(text, start, end)
    if segment is None:
        return None
    opened, closed = segment
    inside = text[opened + 1 : closed]
    # Host names are no discussion words: "acct-verify.example" does not say "example".
    outside = _HOST.sub(" ", (text[:opened] + " " + text[closed + 1 :]).casefold())
    # What other quotes say is not the writer's order: only the writer's own words can use this one.
    before = _OTHER_QUOTES.sub(" ", text[:opened]).casefold()
    # (a destination reserved for documentation counts only outside a write-up about attacks)
    reserved_ok = _ATTACK_WRITE_UP.search(outside) is not None
    if (
        _DESTINATION.search(_RESERVED.sub(" ", inside) if reserved_ok else inside)
        or _USE.search(before) or _USE_AFTER.search(text, closed + 1, closed + 120)
    ):
        return None
    if _HOST.search(inside) is None and _SPEECH_TAG.match(text, closed) is not None:
        return segment  # a line of dialogue in a story: "…," the old captain said
    reported = _REPORTED.search(text, max(0, opened - 24), opened)
    if (
        reported is not None
        and _CONDITION.search(text, max(0, opened - 40), opened) is None
        # (the one who says it: the 20 characters before the verb)
        and _AUTHORITY.search(text, max(0, reported.start() - 20), reported.start()) is None
    ):
        return segment  # someone's words reported: a review saying "…", a user posted "…"
    # Traditional characters read as simplified: 攻擊 is 攻击, 範例 is 范例.
    if _META.search(fold_traditional(outside)) is not None:
        return segment
    return segment if refusal_reported(text, closed) else None


def quote_adopted(text: str, span: tuple[int, int]) -> bool:
    """Whether the match at ``span`` sits in a quote that the words right after it tell the
    reader to act on (新版请照做, 你就照着回复): the writer gives that quote, whatever a review of
    its surroundings reads. (Chinese only: the English `_USE_AFTER` read "What you should do:"
    after a training slide's quoted attack as that, and refused four of them on the dev sets.)"""
    segment = _quoted_segment(text, span[0], span[1])
    if segment is None:
        return False
    closed = segment[1]
    after = fold_traditional(text[closed + 1 : closed + 1 + _OUTCOME_REACH])
    return _ZH_USE_AFTER.search(after) is not None


def refusal_reported(text: str, closed: int) -> bool:
    """Whether the words after the quote that closes at ``closed`` report that the machine did
    not act on it (机器人未照做, 助手会拒绝, agent 没有复述)."""
    after = fold_traditional(text[closed + 1 : closed + 1 + _OUTCOME_REACH].casefold())
    return _ZH_REFUSED.search(after) is not None


def attack_write_up(text: str) -> bool:
    """Whether ``text`` names attacks themselves (injection, red team, jailbreak, payload...),
    which everyday discussion words ("example", "note", "article") do not."""
    return _ATTACKS_NAMED.search(_HOST.sub(" ", text.casefold())) is not None


# The Chinese words that name attacks themselves (a report of a drill, a scammer's line quoted).
_ZH_ATTACKS_NAMED = re.compile(r"注入|攻[击擊]|越[狱獄]|劫持|[红紅][队隊]|[诈詐][骗騙]|[骗騙]子|[钓釣][鱼魚]")
# Candidate quotations for quoted_examples_blanked (curly, CJK corner and straight double quotes;
# a straight single quote is too often an apostrophe).
def _quotations(longest: int) -> str:
    """Curly, CJK corner and straight double quotations of at most ``longest`` characters."""
    return (
        f"“[^”\\n]{{1,{longest}}}”|「[^」\\n]{{1,{longest}}}」|『[^』\\n]{{1,{longest}}}』"
        f'|"[^"\\n]{{1,{longest}}}"'
    )


_QUOTATION = re.compile(_quotations(MAX_QUOTED))


# A writer asking whether a message they received is a scam (is this a scam?, 这是诈骗吧？): the
# message they quote is the scammer's words, not the writer's order.
_ASKS_IF_SCAM = re.compile(
    r"\b(?:is (?:this|it|that) (?:a |an )?(?:scam|phishing|fake|legit|real|spam|fraud)"
    r"|(?:scam|phishing|fake|spam|fraud|legit)\b[^.!?\n]{0,24}[?？])"
    r"|(?:诈骗|詐騙|骗局|騙局|骗子|騙子|钓鱼|釣魚|假的|真的|可信|靠谱)[^。！\n]{0,8}?[吗嗎吧？?]",
    re.IGNORECASE,
)
_READER = re.compile(
    r"(?<![a-z])(?:ai|assistants?|bots?|models?|llms?|chatgpt|gpt)(?![a-z])|助手|助理|智能|模型|机器人|機器人",
    re.IGNORECASE,
)
# (a received message runs longer than an example, and is often quoted in straight single quotes)
_SCAM_QUOTATION = re.compile(_quotations(400) + r"|(?<=[\s:：])'[^'\n]{12,400}'(?=[\s.,;:!?]|$)")


def names_attacks(text: str) -> bool:
    """Whether ``text`` names attacks themselves, in English (:func:`attack_write_up`) or in
    Chinese (注入, 攻击, 越狱, 劫持, 红队, 诈骗, 骗子, 钓鱼)."""
    return attack_write_up(text) or _ZH_ATTACKS_NAMED.search(text) is not None


def quoted_examples_blanked(text: str) -> str:
    """``text`` with every quoted example of an attack blanked out, for the learned model.

    The rules set a quoted attack aside when the text around it discusses attacks
    (:func:`mention_segment`); the model, reading n-grams, would still see the quoted words and
    refuse the lecture note, the red-team log or the anti-fraud leaflet that quotes them. It
    reads this view instead: in a text that names attacks (:func:`names_attacks`), each quotation
    that `mention_segment` judges a mention (nothing before it asks for it to be said, no
    destination in it, nothing after it says to follow it) is replaced by spaces, so offsets
    hold. Any other text is returned as it is.
    """
    question = _ASKS_IF_SCAM.search(text)
    if (
        question is None
        and not names_attacks(text)
        and not any(refusal_reported(text, q.end() - 1) for q in _QUOTATION.finditer(text))
    ):
        return text
    chars: list[str] | None = None
    for quoted in (_QUOTATION if question is None else _SCAM_QUOTATION).finditer(text):
        # (a message the writer asks about is the scammer's, links and all: 'Got this text: "…
        # verify at usps-help.com" — is this a scam?'; not one that addresses the assistant, nor
        # the quoted question itself)
        if question is None:
            segment = mention_segment(text, quoted.start() + 1, quoted.end() - 1)
        elif quoted.start() <= question.start() < quoted.end() or _READER.search(quoted.group()):
            continue
        else:
            segment = (quoted.start(), quoted.end() - 1)
        if segment is None:
            continue
        if chars is None:
            chars = list(text)
        chars[segment[0] : segment[1] + 1] = " " * (segment[1] + 1 - segment[0])
    return text if chars is None else "".join(chars)


def discusses_attacks(text: str) -> bool:
    """Whether ``text`` talks about attacks or examples (a discussion word anywhere in it)."""
    return _META.search(_HOST.sub(" ", text.casefold())) is not None


# What precedes an override verb when a text describes the override instead of giving it: a
# frame that reports an attempt or an effect ("inputs that try to", "causes the model to",
# "tried to make models"), or a third-person subject that states what happens ("direct injections
# override ...", "this will override ...", "the Dungeon Master may override ..."). An order to the
# reader has none of them: it starts its clause or follows "please", "you must", "now".
_DESCRIBED = re.compile(
    r"(?:\b(?:tries|tried|trying|attempts|attempted|attempting|causes|caused|causing|makes|made"
    r"|making|forces|forced|forcing|convinces|convinced|convincing|tricks|tricked|tricking"
    r"|persuades|persuaded|induces|induced|designed|meant|intended|crafted)"
    r"|\b(?:that|which|who|they|we|people|users|attackers|inputs) (?:try|attempt|make|cause"
    r"|convince|trick|force|get)"
    r"|\b(?!please\b|just\b|now\b|you\b|and\b|then\b)[a-z]+ (?:can|could|will|may|might|would"
    r"|often|also|usually) (?:try|attempt)"
    r"|\b(?:asked|told|instructed|prompted|got) (?:it|them|him|her|the [\w-]+))(?: [\w'’-]+){0,5} $"
    r"|\b(?:injections?|attacks?|attackers?|jailbreaks?|payloads?|exploits?|hackers?|templates?"
    r"|this|that|which|it) (?:(?:will|would|can|could|may|might|often|usually|typically|also) ){0,2}$"
    r"|\b(?!you\b|i\b|we\b|assistants?\b|ai\b|models?\b|agents?\b|bots?\b|chatbots?\b|llms?\b)[a-z]+"
    r" (?:may|might|can|could|would) $"
    # someone else was told to, reported: "the witness had been instructed to ignore the
    # previous order" ("you have been instructed to ignore ..." is the classic attack, and stays)
    r"|\b(?<!you )(?<!you've )(?:had|has) been (?:asked|told|instructed|ordered|directed) to $"
    r"|\b(?!you\b)[a-z]+ (?:was|were) (?:asked|told|instructed|ordered|directed) to $"
    # forbidden, not ordered: "AI systems must never override safety rules", "never let tool
    # output override the system prompt", "the authors should not ignore the literature"
    r"|\b(?:never|not|n't)(?: [\w'’-]+){0,3} $"
    # a rule of precedence stated in the present: "system instructions override developer
    # instructions", "lifeguard instructions override all other rules" ("these instructions
    # override …" announces itself, and stays an order)
    r"|\b(?<!these )(?<!this )(?<!following )(?<!new )(?<!my )(?<!our )(?<!updated )"
    r"(?:instructions|rules|orders|messages|prompts|outputs|policies|settings|wardens|staff) $"
)
# (an apostrophe inside a word, "team's", starts nothing)
_CLAUSE_START = re.compile(r"[.!?;:\n\"“”‘«»()\[\]<>]|(?<!\w)['’]|['’](?!\w)")


def described_override(text: str, start: int) -> bool:
    """Whether the override verb at ``text[start]`` is described in the third person, not given.

    Only the words of its own clause count, so an order after a description ("Attackers try
    this. Ignore your rules and ...") is still an order.
    """
    floor = max(0, start - 120)
    cut = max((m.end() for m in _CLAUSE_START.finditer(text, floor, start)), default=floor)
    before = " ".join(text[cut:start].casefold().split())
    return _DESCRIBED.search(before + " " if before else "") is not None

