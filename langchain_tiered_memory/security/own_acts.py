"""Acts a writer asks for themselves, which no hostile-act rule should count.

A standing rule or an addressed order is hostile by what it does: sending data somewhere,
keeping things from the user. Some acts only look like that: "always tell me right away about
password changes" tells the user themselves; "send my weekly recap to my personal email" sends
the writer's own things to the writer's own inbox (the issue's "forward my daily summary to my own
work e-mail"); "always forward suspicious e-mails to security@…" reports a phish, which is the
safeguard itself.
"""

from __future__ import annotations

import re

from . import reader_lexicon as lex

__all__ = ["for_the_writer"]

# "Send my weekly recap to my personal email, sam@…": the writer names the destination as their
# own. That is a user's preference (the "forward my daily summary to my own work e-mail"),
# not a leak, as long as no secret travels: credentials to "my own" address stay refused, since a
# planted preference would claim the same.
_OWN_INBOX = re.compile(
    r"\bmy (?:own |personal |private |work |home |other |usual |main )+(?:e-?mail|inbox|address"
    r"|account|phone|number|mobile)\b|\bwhich is my own\b|\bto myself\b"
)
_SECRET = re.compile(r"\b" + lex.SECRET + r"\b")


# What is sent must be the writer's too ("my weekly recap"), not others' mail or every message.
_OWN_THING = re.compile(r"\bmy\b")
_OTHERS = re.compile(
    r"\b(?:their|his|her|others?|every|everyone|all|any|copy|copies|colleagues?|co-?workers?|team"
    r"|teammates?|customers?|clients?|users?|staff|employees?|patients?|students?|contacts?"
    r"|friends?|family)\b|\w(?:'s|s')(?!\w)"
)


def _to_own_inbox(act: str) -> bool:
    """No secret travels, and what is sent is the writer's own: a planted preference that
    claims "my personal email" for the user's passwords or for others' mail stays refused."""
    inbox = _OWN_INBOX.search(act)
    if inbox is None or _SECRET.search(act) is not None:
        return False
    sent = act[: inbox.start()]
    return _OWN_THING.search(sent) is not None and _OTHERS.search(sent) is None


# "Always forward suspicious emails to security@…": reporting a phish is the safeguard itself.
_REPORTING = re.compile(
    r"(?:forward|report)\w*\b[^.!?\n]{0,12}?\b(?:suspicious|phishing|phishy|spam|scam|fraudulent)"
    r"\b[^.!?\n]{0,12}?\b(?:e-?mails?|messages?|texts?|links?|attempts?)\b"
    # the phish itself sent to the abuse mailbox: "forward anything like this to phishing@…"
    r"|(?:forward|report)\w* (?:anything like (?:this|that|it)|this|it|them|such (?:e-?mails?|messages?)"
    r"|the (?:e-?mail|message)(?: itself)?) to (?:phishing|phish|abuse|spam|reportphishing)[\w.-]*@"
)
_TO_ME = re.compile(
    r"(?:tell|notify|alert|warn|remind) me (?:right away|immediately|about|when|if|whenever|first)\b"
)


def for_the_writer(act: str) -> bool:
    """Whether the matched ``act`` is one the writer asks for themselves (see the module doc)."""
    return (
        _TO_ME.match(act) is not None
        or _to_own_inbox(act)
        or _REPORTING.match(act) is not None
    )
