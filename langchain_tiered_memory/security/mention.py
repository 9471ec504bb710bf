"""Mention, not use: an attack phrase quoted in a text that talks *about* attacks.

"The phrase 'ignore all previous instructions' went viral in 2023" and 我在写一篇关于提示词注入的
文章，像“忽略之前的所有指令”这种话术… quote an override to discuss it. A rule match counts as a
mention only when all of this holds:

* the match lies inside one quoted segment (straight, curly, guillemet or CJK quotes) of at
  most :data:`MAX_QUOTED` characters;
* the text outside the quotes names the discussion: "phrase", "example", "prompt injection",
  "jailbreak", 话术, 注入 and the like (also in French, Spanish, German, Italian, Portuguese,
  Russian, Japanese and Korean: "exemple", "Angriff", "безопасность", セキュリティ, 보안 ...);
* the quoted segment holds no destination (URL, e-mail address) and nothing outside it asks for
  the quote to be said, repeated, printed or translated — that would be use, not mention.
"""

from __future__ import annotations

import re

__all__ = ["MAX_QUOTED", "discusses_attacks", "mention_segment"]

MAX_QUOTED = 160  # characters of one quoted segment that may be a mention

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
    r"|moderation|even if (?:it|they|the \w+) (?:says?|claims?|contains?))\b"
    # (no \b after "e.g.": a word boundary never follows its last dot)
    r"|\be\.g\.|\bi\.e\."
    r"|样本|样例|示例|句式|测试用例|论文|笔记|翻译成|怎么翻译"
    r"|话术|注入|攻击|越狱|例如|比如|例子|这种|防御|检测|防范|教案|面试题|写着"
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
_OTHER_QUOTES = re.compile(r"“[^”\n]{0,160}”|「[^」\n]{0,160}」|『[^』\n]{0,160}』")
_HOST = re.compile(r"\b[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}\b")
_DESTINATION = re.compile(r"https?://|www\.|[\w.+-]+@[\w-]+\.[a-z]{2,}", re.IGNORECASE)


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
        close = text.find(closing, end, min(len(text), i + MAX_QUOTED + 1))
        if close >= 0:
            return i, close
    return None


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
    if _DESTINATION.search(inside) or _USE.search(before):
        return None
    return segment if _META.search(outside) is not None else None


def discusses_attacks(text: str) -> bool:
    """Whether ``text`` talks about attacks or examples (a discussion word anywhere in it)."""
    return _META.search(_HOST.sub(" ", text.casefold())) is not None
