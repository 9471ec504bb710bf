"""The shape of one language's word classes for the multilingual detector, and shared parts.

Every pattern runs on *folded* text: NFKC, lower case, Latin accents stripped (``é`` → ``e``),
``ё`` → ``е``, curly apostrophes straight. The classes are what :mod:`.addressed` has for English:
an addressee cue naming a machine reader, a directive, a vocative, a standing-rule cue, hostile
acts, plus the override structure (override verb × the reader's own rules) and the persona,
reveal and verbatim-repeat requests that phrase lists miss in other languages. They are written
from the grammar of each language (imperative and modal forms, clitics, verb-final order in
German, object-before-verb in Japanese and Korean), not from any corpus.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DESTINATION", "LABEL", "Lexicon", "S", "alt", "own_rules", "sendout"]

# Where data or people are sent: a URL, a domain, an e-mail address, an IBAN or a card number.
DESTINATION = (
    r"(?:https?://|www\.|\b[a-z0-9][a-z0-9-]{0,40}\.(?:com|net|org|io|ru|su|xyz|site|top|example"
    r"|info|biz|co|app|me|de|fr|es|it|pt|br|jp|kr|online|shop|link|click|cc|test|ai|eu)\b"
    r"|[\w.+-]{1,40}@[\w-]{1,40}\.[a-z]{2,10}|\b[a-z]{2}\d{2}(?: ?[0-9a-z]{4}){3,7}\b"
    r"|\b\d{4}[ -]\d{4}[ -]\d{4}[ -]\d{4}\b)"
)
# One sentence: a hostile act and its object stay inside it.
S = r"[^.!?。！？\n]"


@dataclass(frozen=True, slots=True)
class Lexicon:
    """One language's word classes (regex sources over folded text).

    Attributes:
        lang: ISO 639-1 code.
        gate: Literal strings (folded) one of which a text in this language almost surely holds.
        override: Whole patterns: override verb × the reader's own rules, persona switches,
            hidden instructions asked for, restrictions declared lifted. A hit on their own.
        strong: Addressee cues naming a machine reader from outside the conversation.
        directive: What follows a strong cue to make it an order.
        vocative: An assistant addressed the way users address their own (needs a hostile act).
        standing: Standing-rule cues ("from now on", "whenever") (need a hostile act).
        hostile: Hostile acts: data out, the user kept in the dark, checks skipped, the user sent
            to an address.
        payment: Money paid to an account: hostile after a vocative, not in a standing rule
            ("always pay the rent to FR76 ..." is the user's own).
        exfil: Secrets sent to a destination: a hit without any cue.
    """

    lang: str
    gate: tuple[str, ...]
    override: tuple[str, ...]
    strong: tuple[str, ...]
    directive: str
    vocative: str
    standing: str
    hostile: tuple[str, ...]
    payment: tuple[str, ...]
    exfil: tuple[str, ...]


def alt(*parts: str) -> str:
    return "(?:" + "|".join(parts) + ")"


LABEL = r"(?:^|[\n.!?;:,\[\](<>|*#/\-\"'«“„]\s{0,3})"


def sendout(share: str, secret: str) -> tuple[str, ...]:
    """Secrets sent to a destination, in either order, inside one sentence."""
    return (
        share + S + r"{0,80}?" + secret + S + r"{0,80}?" + DESTINATION,
        secret + S + r"{0,80}?" + share + S + r"{0,60}?" + DESTINATION,
    )


def own_rules(verbs: str, own: str, article: str, rules: str, post: str) -> tuple[str, ...]:
    """Override verb × the reader's own rules, in the two orders Romance languages use.

    "ignore tes consignes" (a possessive or "all" before the noun) and "ignore les consignes
    précédentes" (an article, then a qualifier after the noun). The gaps stay inside one clause:
    they cross spaces, apostrophes and hyphens, not punctuation.
    """
    gap = r"(?:[\s'-]{1,3}[^\W\d_]{1,20}){0,5}?[\s'-]{1,3}"
    return (
        verbs + r"\b" + gap + own + r"[\s'-]{1,3}(?:\w+[\s'-]{1,3}){0,2}?" + rules + r"\b",
        verbs + r"\b" + gap + article + r"[\s'-]{1,3}(?:\w+[\s'-]{1,3})?" + rules + r"\s{1,3}"
        + post,
    )
