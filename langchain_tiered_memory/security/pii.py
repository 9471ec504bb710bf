"""Personal data: detection, redaction and the write-path PII policy.

Kinds: ``EMAIL``, ``PHONE`` (E.164-style international numbers, Chinese mobiles, formatted
North-American numbers), ``CREDIT_CARD`` (Luhn-valid only), ``CN_ID`` (18-digit resident id with
a valid ISO 7064 MOD 11-2 check character and a plausible birth date), ``SSN`` (US,
``AAA-GG-SSSS`` with the never-issued ranges excluded), ``API_KEY`` (provider-shaped keys:
OpenAI/Anthropic ``sk-``, GitHub ``ghp_``/``github_pat_``, AWS ``AKIA``/``ASIA``, Slack ``xox?-``,
Google ``AIza``), ``JWT``, ``SECRET`` (private-key blocks and long hex/base64 values next to a
key-ish word such as ``password=`` or ``Bearer``), ``IP_ADDRESS`` (IPv4 and IPv6).

Every pattern is bounded, so detection is linear in the text length.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, get_args

from ..errors import InvalidInput, MemoryWriteBlocked

__all__ = ["PiiMatch", "PiiPolicy", "apply_pii_policy", "detect_pii", "redact_pii"]

PiiPolicy = Literal["allow", "redact", "block"]


@dataclass(frozen=True, slots=True)
class PiiMatch:
    """One piece of personal data found in a text.

    Attributes:
        kind: ``EMAIL``, ``PHONE``, ``CREDIT_CARD``, ``CN_ID``, ``SSN``, ``API_KEY``, ``JWT``,
            ``SECRET`` or ``IP_ADDRESS``.
        start: Offset of the first character.
        end: Offset after the last character.
        text: The matched text.
    """

    kind: str
    start: int
    end: int
    text: str


_CN_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_CN_CHECK = "10X98765432"


def cn_id_checksum_ok(value: str) -> bool:
    """ISO 7064 MOD 11-2 check of an 18-character Chinese resident id."""
    if len(value) != 18 or not value[:17].isdigit():
        return False
    total = sum(int(d) * w for d, w in zip(value[:17], _CN_WEIGHTS, strict=True))
    return _CN_CHECK[total % 11] == value[17].upper()


def luhn_ok(digits: str) -> bool:
    """Luhn (mod 10) check of a digit string."""
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def _card_ok(text: str) -> bool:
    digits = re.sub(r"[ -]", "", text)
    return 13 <= len(digits) <= 19 and digits[0] in "23456" and luhn_ok(digits)


def _phone_ok(text: str) -> bool:
    return 8 <= sum(c.isdigit() for c in text) <= 15


def _ipv6_ok(text: str) -> bool:
    if sum(1 for part in text.split(":") if part) < 2:
        return False
    try:
        ipaddress.IPv6Address(text)
    except ValueError:
        return False
    return True


def _always(_: str) -> bool:
    return True


_OCTET = r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)"
_KEY_WORDS = (
    r"(?:api[_-]?key|apikey|secret|secret[_-]?key|client[_-]?secret|access[_-]?key|"
    r"access[_-]?token|auth[_-]?token|token|password|passwd|pwd|private[_-]?key|"
    r"密码|密钥|口令|令牌)"
)

# (kind, regex, validator, group) in priority order: earlier kinds win overlaps.
_DETECTORS: tuple[tuple[str, re.Pattern[str], Callable[[str], bool], int], ...] = (
    ("SECRET", re.compile(
        r"-----BEGIN [A-Z ]{0,20}PRIVATE KEY-----[\s\S]{0,8000}?-----END [A-Z ]{0,20}PRIVATE KEY-----"
    ), _always, 0),
    ("JWT", re.compile(
        r"(?<![\w-])eyJ[A-Za-z0-9_-]{8,2000}\.eyJ[A-Za-z0-9_-]{8,4000}\.[A-Za-z0-9_-]{8,2000}"
    ), _always, 0),
    ("API_KEY", re.compile(
        r"(?<![\w-])(?:sk-(?:proj-|ant-(?:api\d{2}-)?|live_|test_)?[A-Za-z0-9_-]{20,200}"
        r"|gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255}"
        r"|(?:AKIA|ASIA)[0-9A-Z]{16}|xox[abposr]-[A-Za-z0-9-]{10,200}|AIza[0-9A-Za-z_-]{35})"
        r"(?![\w-])"
    ), _always, 0),
    ("SECRET", re.compile(
        _KEY_WORDS + r"[\"']?\s{0,3}(?:[:=]|is|为|是)\s{0,3}[\"']?([A-Za-z0-9+/_=.~-]{16,512})"
        r"|[Bb]earer\s+([A-Za-z0-9._~+/-]{20,512}=*)",
        re.IGNORECASE,
    ), _always, -1),
    ("EMAIL", re.compile(
        r"(?<![\w.%+-])[A-Za-z0-9._%+-]{1,64}@(?:[A-Za-z0-9-]{1,63}\.){1,8}[A-Za-z]{2,24}(?![\w-])"
    ), _always, 0),
    ("CN_ID", re.compile(
        r"(?<![0-9A-Za-z])[1-9]\d{5}(?:18|19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])"
        r"\d{3}[0-9Xx](?![0-9A-Za-z])"
    ), cn_id_checksum_ok, 0),
    ("CREDIT_CARD", re.compile(r"(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])"), _card_ok, 0),
    ("SSN", re.compile(
        r"(?<![\d-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\d-])"
    ), _always, 0),
    ("PHONE", re.compile(
        r"(?<![\w+])(?:\+|00)[1-9][\d ().-]{6,20}\d(?!\d)"
        r"|(?<![\d+])(?:(?:\+|00)?86[ -]?)?1[3-9]\d[ -]?\d{4}[ -]?\d{4}(?!\d)"
        r"|(?<![\w])(?:\(\d{3}\)\s?|\d{3}[.-])\d{3}[.-]\d{4}(?!\d)"
    ), _phone_ok, 0),
    ("IP_ADDRESS", re.compile(
        r"(?<![\w:])(?:[0-9A-Fa-f]{1,4}:|:){2,7}(?::|[0-9A-Fa-f]{1,4})(?![\w:])"
    ), _ipv6_ok, 0),
    ("IP_ADDRESS", re.compile(
        rf"(?<![\d.])(?:{_OCTET}\.){{3}}{_OCTET}(?!\.?\d)"
    ), _always, 0),
)


def _span(m: re.Match[str], group: int) -> tuple[int, int]:
    if group == 0:
        return m.span()
    for g in range(1, (m.re.groups or 0) + 1):  # the first group that took part
        if m.group(g) is not None:
            return m.span(g)
    return m.span()


def detect_pii(text: str) -> list[PiiMatch]:
    """Find personal data in ``text``.

    Args:
        text: Any text.

    Returns:
        Non-overlapping matches sorted by offset; where two detectors overlap, the more
        specific kind (secrets, then e-mail, ids, cards, phones, addresses) wins.
    """
    taken: list[tuple[int, int]] = []
    found: list[PiiMatch] = []
    for kind, regex, valid, group in _DETECTORS:
        for m in regex.finditer(text):
            start, end = _span(m, group)
            value = text[start:end]
            if not valid(value):
                continue
            if any(start < e and s < end for s, e in taken):
                continue
            taken.append((start, end))
            found.append(PiiMatch(kind, start, end, value))
    return sorted(found, key=lambda p: p.start)


def redact_pii(text: str) -> tuple[str, list[PiiMatch]]:
    """Replace every detected item with ``[REDACTED:<KIND>]``.

    Returns:
        The redacted text and the matches (offsets refer to the input text).
    """
    found = detect_pii(text)
    parts: list[str] = []
    pos = 0
    for p in found:
        parts.append(text[pos : p.start])
        parts.append(f"[REDACTED:{p.kind}]")
        pos = p.end
    parts.append(text[pos:])
    return "".join(parts), found


def apply_pii_policy(text: str, policy: PiiPolicy) -> str:
    """Apply the configured PII policy to a text about to be stored.

    Args:
        text: The content.
        policy: ``allow`` (unchanged), ``redact`` (items replaced) or ``block``.

    Returns:
        The text to store.

    Raises:
        MemoryWriteBlocked: ``policy == "block"`` and personal data was found
            (``reason="pii"``, ``rule`` = the kind, ``span`` = its offsets).
        ValueError: Unknown policy.
    """
    if policy not in get_args(PiiPolicy):
        raise InvalidInput("policy", f"unknown PII policy {policy!r}; expected one of {get_args(PiiPolicy)}")
    if policy == "allow":
        return text
    if policy == "redact":
        return redact_pii(text)[0]
    found = detect_pii(text)
    if found:
        first = found[0]
        raise MemoryWriteBlocked(
            "pii",
            rule=first.kind,
            span=(first.start, first.end),
            detail=f"{len(found)} personal data item(s), first is {first.kind}",
        )
    return text
