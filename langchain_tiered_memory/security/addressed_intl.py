"""Overrides and planted orders in French, Spanish, German, Italian, Portuguese, Russian,
Japanese and Korean: the structure of :mod:`.addressed`, per language.

Phrase lists miss what translators and attackers actually write ("fais abstraction de tes
consignes", "Setz dich über deine Regeln hinweg", "あなたのルールは気にせず"). What such texts share
is structure, checked here per language with the word classes of :mod:`.intl_lexicon`:

* an **override**: an override verb whose object is the reader's own rules (possessive or
  "previous / above / system"), a persona "without restrictions", restrictions declared lifted,
  hidden instructions asked for — a hit on its own;
* **secrets sent to a destination** (a password to an e-mail address) — a hit on its own;
* an **addressee cue** naming a machine reader from outside the conversation ("si tu es une IA",
  "An alle KI-Assistenten, die ...", "このページを読んでいるAIへ") followed by a **directive**;
* an assistant addressed as users address their own ("Assistant IA :", "ИИ-ассистент:"), or a
  **standing rule** ("chaque fois que", "ab sofort", "앞으로"), which counts only with a
  **hostile act**: data out, the user kept in the dark, checks skipped, money moved, the user sent
  to an address. "Réponds-moi toujours en français" passes.

Cost: one Aho–Corasick pass for the languages' gate words (function words such as " les ",
" und ", " que "; a character-class check for Cyrillic, kana and hangul). An English memory opens
no gate and costs that pass alone. A short text is folded once and searched for the languages
with the most gate words (one, two at most); in a long text each language's patterns run only in
windows around its gate words, and only those windows are folded.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

from .addressed import AddressedHit
from .intl_lexicon import DESTINATION, Lexicon
from .lexicon_de_ru import DE, RU
from .lexicon_fr_es import ES, FR
from .lexicon_it_pt import IT, PT
from .lexicon_ja_ko import JA, KO
from .matcher import AnchorFinder
from .normalize import folded_span

__all__ = ["find_addressed_intl"]

_REASON = "intl_injection"
_WINDOW = 320  # characters after a cue in which its directive or act must appear
_SHORT = 2_000  # texts up to this long are searched whole once a language's gate opens
_REACH = 400  # in longer texts, characters around a gate word that are searched

# Latin letters with accents → base letter, and ё → е: same length, so offsets still hold.
_FOLD = {
    c: d[0]
    for c in range(0xC0, 0x250)
    if len(d := unicodedata.normalize("NFD", chr(c))) > 1
    and all(unicodedata.combining(x) for x in d[1:])
}
_FOLD.update({ord("ё"): "е", ord("’"): "'", ord("ʼ"): "'", ord("`"): "'"})


@dataclass(frozen=True, slots=True)
class _Compiled:
    """One language's patterns; those naming a destination apart, run only when one may be."""

    lang: str
    override: re.Pattern[str]
    override_dest: re.Pattern[str]
    exfil: re.Pattern[str]
    strong: re.Pattern[str]
    directive: re.Pattern[str]
    vocative: re.Pattern[str]
    standing: re.Pattern[str]
    hostile: re.Pattern[str]
    hostile_dest: re.Pattern[str]
    payment: re.Pattern[str]


_NEVER = re.compile(r"(?!)")
# Every destination (URL, domain, e-mail, IBAN, card number) holds one of these.
_DEST_HINT = re.compile(r"@|://|www\.|\w\.[a-z]{2}|\d{4}")


def _compile(lex: Lexicon) -> _Compiled:
    def one(parts: tuple[str, ...] | list[str]) -> re.Pattern[str]:
        return re.compile("|".join(f"(?:{p})" for p in parts)) if parts else _NEVER

    def split(parts: tuple[str, ...]) -> tuple[re.Pattern[str], re.Pattern[str]]:
        dest = [p for p in parts if DESTINATION in p]
        return one([p for p in parts if DESTINATION not in p]), one(dest)

    override, override_dest = split(lex.override)
    hostile, hostile_dest = split(lex.hostile)
    return _Compiled(
        lex.lang,
        override,
        override_dest,
        one(lex.exfil),
        one(lex.strong),
        re.compile(lex.directive),
        re.compile(lex.vocative),
        re.compile(lex.standing),
        hostile,
        hostile_dest,
        one(lex.payment),
    )


LEXICONS = (FR, ES, DE, IT, PT, RU, JA, KO)
_LANGS = tuple(_compile(lex) for lex in LEXICONS)


def _variants(word: str) -> set[str]:
    """The word as written in lower case, capitalised and upper case (a long text is gated
    before it is folded, to keep folding to the windows that need it)."""
    head = len(word) - len(word.lstrip(" -"))
    return {word, word[:head] + word[head:].capitalize(), word.upper()}


_GATE = AnchorFinder(
    {v: [i for i, lex in enumerate(LEXICONS) if w in lex.gate]
     for lex in LEXICONS for w in lex.gate for v in _variants(w)}
)
# Scripts that gate their languages by a character class rather than by words.
_SCRIPT = {
    "ru": re.compile("[а-яА-ЯёЁ]"),
    "ja": re.compile("[\u3040-\u30ff]"),  # kana: Chinese text has none
    "ko": re.compile("[\uac00-\ud7a3]"),
}
_SCRIPTS = re.compile("[а-яА-ЯёЁ\u3040-\u30ff\uac00-\ud7a3]")
_SCRIPT_IDS = {i: _SCRIPT[lex.lang] for i, lex in enumerate(LEXICONS) if lex.lang in _SCRIPT}


def fold(text: str) -> str:
    """Lower case, NFKC, Latin accents stripped: the form every pattern is written for."""
    if text.isascii():
        return text.lower()
    return unicodedata.normalize("NFKC", text).lower().translate(_FOLD)


def _starts(text: str) -> dict[int, list[int]]:
    """Language id -> where its gate opens in ``text`` (no entry: not that language)."""
    found: dict[int, list[int]] = {}
    for start, ids in _GATE.hits(text):
        for i in ids:
            found.setdefault(i, []).append(start)
    if text.isascii() or _SCRIPTS.search(text) is None:
        return found
    for i, script in _SCRIPT_IDS.items():
        # one position per block of text in that script: a region is searched whole anyway
        at = [lo for lo in range(0, len(text), _REACH) if script.search(text, lo, lo + _REACH)]
        if at:
            found[i] = at
    return found


def _regions(text: str) -> dict[int, list[tuple[int, int]]]:
    """Language id -> the spans of a long ``text`` its patterns search (around its gates)."""
    size = len(text)
    regions: dict[int, list[tuple[int, int]]] = {}
    for i, starts in _starts(text).items():
        spans: list[tuple[int, int]] = []
        for at in sorted(starts):
            lo, hi = max(0, at - _REACH), min(size, at + _REACH)
            if spans and lo <= spans[-1][1]:
                spans[-1] = (spans[-1][0], hi)
            else:
                spans.append((lo, hi))
        regions[i] = spans
    return regions


def _following(folded: str, end: int, hi: int) -> str:
    """``_WINDOW`` characters from ``end``, inside the region and the paragraph."""
    hi = min(hi, end + _WINDOW)
    gap = folded.find("\n\n", end, hi)
    return folded[end : gap if gap >= 0 else hi]


def _search(lang: _Compiled, folded: str, lo: int, hi: int) -> AddressedHit | None:
    """The first hit of one language's patterns in ``folded[lo:hi]``."""

    def hit(kind: str, start: int, end: int) -> AddressedHit:
        return AddressedHit(f"addressed_intl.{lang.lang}.{kind}", start, end, _REASON)

    dest = _DEST_HINT.search(folded, lo, hi) is not None
    checks = [("override", lang.override)]
    if dest:
        checks += [("override", lang.override_dest), ("exfiltration", lang.exfil)]
    for kind, pattern in checks:
        m = pattern.search(folded, lo, hi)
        if m is not None:
            return hit(kind, m.start(), m.end())
    for cue in lang.strong.finditer(folded, lo, hi):
        directive = lang.directive.search(_following(folded, cue.end(), hi))
        if directive is not None:
            return hit("machine_reader", cue.start(), cue.end() + directive.end())
    acts = (lang.hostile, lang.hostile_dest) if dest else (lang.hostile,)
    for kind, cues, back, kinds in (
        ("assistant_hostile", lang.vocative, 0, (*acts, lang.payment)),
        # the act may come before a standing cue ("envoie-les à x@y.fr, toujours")
        ("standing_hostile", lang.standing, _WINDOW // 2, acts),
    ):
        for cue in cues.finditer(folded, lo, hi):
            start, end = max(lo, cue.start() - back), min(hi, cue.end() + _WINDOW)
            for pattern in kinds:
                act = pattern.search(folded, start, end)
                if act is not None:
                    return hit(kind, min(cue.start(), act.start()), max(cue.end(), act.end()))
    return None


def _fold_char(char: str) -> str:
    return unicodedata.normalize("NFKC", char).lower().translate(_FOLD)


def _located(hit: AddressedHit, lo: int, region: str, folded: str) -> AddressedHit:
    """``hit`` (offsets into ``folded``, the fold of ``region``, which starts at ``lo`` in the
    text) as offsets into the text."""
    start, end = folded_span(region, folded, hit.start, hit.end, fold=_fold_char)
    return AddressedHit(hit.rule, lo + start, lo + end, hit.reason)


def _hits(text: str) -> Iterator[AddressedHit]:
    if len(text) <= _SHORT:
        folded = fold(text)
        found = _starts(folded)
        most = max(map(len, found.values()), default=0)
        # a short text is in one language (two at most): the others share a few words with it
        for i in sorted(i for i, at in found.items() if 2 * len(at) >= most or i in _SCRIPT_IDS):
            hit = _search(_LANGS[i], folded, 0, len(folded))
            if hit is not None:
                yield _located(hit, 0, text, folded)
                return
        return
    folds: dict[tuple[int, int], str] = {}
    for i, spans in _regions(text).items():
        for lo, hi in spans:
            part = folds.get((lo, hi))
            if part is None:
                part = folds[lo, hi] = fold(text[lo:hi])
            hit = _search(_LANGS[i], part, 0, len(part))
            if hit is not None:
                yield _located(hit, lo, text[lo:hi], part)
                break


def find_addressed_intl(text: str) -> AddressedHit | None:
    """The first override, planted order or hostile standing rule in one of the eight languages.

    Args:
        text: The text about to be stored.

    Returns:
        The hit (rule ``addressed_intl.<lang>.<kind>``, reason ``intl_injection``, offsets into
        ``text``; the whole text when folding changed its length), or ``None``.
    """
    return next(_hits(text), None)
