"""Encoded payloads: find base64 / hex / escape-encoded runs and decode them for a rescan.

ROT13 needs no decoding step: it is a letter-wise bijection, so the scanner matches it on its own
view (see :mod:`.normalize`). Everything else is decoded here into one *decoded document*: the
decoded candidates joined by newlines, each remembering the span of the original text it came
from. The whole document is then scanned once, so the cost stays linear in the input however
many candidates there are.
"""

from __future__ import annotations

import base64
import binascii
import html
import re
import urllib.parse
from dataclasses import dataclass

__all__ = ["DecodedDocument", "decode_candidates"]

_B64 = re.compile(r"(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{16,}={0,2}")
_HEX = re.compile(r"(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}[ :]?){8,}(?![0-9A-Fa-f])")
_HEX_ESC = re.compile(r"(?:(?:\\x|0x)[0-9A-Fa-f]{2}[ ,]*){6,}")
_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}|&#[xX]?[0-9A-Fa-f]{1,6};|&[a-zA-Z]{2,8};|\\u[0-9A-Fa-f]{4}")
_UESC = re.compile(r"\\u([0-9A-Fa-f]{4})")
_MIN_ESCAPES = 3


@dataclass(frozen=True, slots=True)
class DecodedDocument:
    """Decoded candidates joined by newlines, with the way back to the original text.

    Attributes:
        text: The joined decoded text.
        pieces: ``(doc_start, doc_end, orig_start, orig_end, encoding)`` per candidate.
    """

    text: str
    pieces: tuple[tuple[int, int, int, int, str], ...]

    def origin(self, doc_offset: int) -> tuple[int, int, str]:
        """The original span and encoding of the candidate holding ``doc_offset``."""
        for d0, d1, o0, o1, enc in self.pieces:
            if d0 <= doc_offset <= d1:
                return o0, o1, enc
        d0, d1, o0, o1, enc = self.pieces[-1]
        return o0, o1, enc


def _printable(text: str) -> bool:
    if not text:
        return False
    good = sum(1 for c in text if c.isprintable() or c in "\n\r\t")
    return good >= 0.85 * len(text)


def _as_text(raw: bytes) -> str | None:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return text if _printable(text) else None


def _b64(token: str) -> str | None:
    body = token.rstrip("=")
    if len(body) % 4 == 1:
        return None
    padded = body + "=" * (-len(body) % 4)
    try:
        if "-" in body or "_" in body:
            raw = base64.urlsafe_b64decode(padded)
        else:
            raw = base64.b64decode(padded, validate=True)
    except (binascii.Error, ValueError):
        return None
    return _as_text(raw)


def _hex(token: str) -> str | None:
    digits = re.sub(r"\\x|0x|[ :,]", "", token)
    if len(digits) % 2:
        digits = digits[:-1]
    try:
        return _as_text(bytes.fromhex(digits))
    except ValueError:
        return None


def _unescape(text: str) -> str:
    out = _UESC.sub(lambda m: chr(int(m.group(1), 16)), text)
    return html.unescape(urllib.parse.unquote(out))


def decode_candidates(text: str) -> DecodedDocument | None:
    """Collect and decode every encoded-looking run in ``text``.

    Args:
        text: Original text.

    Returns:
        The decoded document, or ``None`` when nothing decoded to readable text.
    """
    found: list[tuple[int, int, str, str]] = []
    for m in _B64.finditer(text):
        token = m.group()
        # Plain words and identifiers are not base64 payloads: demand some mixing.
        if token.isalpha() and (token.islower() or token.isupper()):
            continue
        decoded = _b64(token)
        if decoded is not None:
            found.append((m.start(), m.end(), decoded, "base64"))
    for rx in (_HEX, _HEX_ESC):
        for m in rx.finditer(text):
            decoded = _hex(m.group())
            if decoded is not None:
                found.append((m.start(), m.end(), decoded, "hex"))
    escapes = list(_ESCAPE.finditer(text))
    if len(escapes) >= _MIN_ESCAPES:
        start, end = escapes[0].start(), escapes[-1].end()
        decoded = _unescape(text[start:end])
        if decoded != text[start:end]:
            found.append((start, end, decoded, "escapes"))
    if not found:
        return None
    parts: list[str] = []
    pieces: list[tuple[int, int, int, int, str]] = []
    pos = 0
    for o0, o1, decoded, enc in found:
        pieces.append((pos, pos + len(decoded), o0, o1, enc))
        parts.append(decoded)
        pos += len(decoded) + 1
    return DecodedDocument("\n".join(parts), tuple(pieces))
