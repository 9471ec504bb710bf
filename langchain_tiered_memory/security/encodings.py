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
import zlib
from dataclasses import dataclass

from .markup import unsplit_words

__all__ = ["DecodedDocument", "decode_candidates"]

_B64 = re.compile(r"(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{16,}={0,2}")
_HEX = re.compile(r"(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}[ :]?){8,}(?![0-9A-Fa-f])")
_HEX_ESC = re.compile(r"(?:(?:\\x|0x)[0-9A-Fa-f]{2}[ ,]*){6,}")
_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}|&#[xX]?[0-9A-Fa-f]{1,6};|&[a-zA-Z]{2,8};|\\u[0-9A-Fa-f]{4}")
_UESC = re.compile(r"\\u([0-9A-Fa-f]{4})")
_ESCAPE_GAP = 64  # escapes closer than this belong to one encoded run
_ESCAPE_WIDEN = 40  # a run is widened to the whole words it sits in, at most this far
_SPACE = re.compile(r"\s")
# A compressed payload may not decompress past this: a "zip bomb" costs at most this much.
MAX_INFLATED = 256 * 1024


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
    return _as_text(_inflate(raw))


def _inflate(raw: bytes) -> bytes:
    """Decompress a gzip or zlib payload (bounded by :data:`MAX_INFLATED`); else ``raw``."""
    if raw[:2] == b"\x1f\x8b":
        wbits = 16 + zlib.MAX_WBITS
    elif len(raw) > 2 and raw[0] == 0x78 and (raw[0] * 256 + raw[1]) % 31 == 0:
        wbits = zlib.MAX_WBITS
    else:
        return raw
    try:
        return zlib.decompressobj(wbits).decompress(raw, MAX_INFLATED)
    except zlib.error:
        return raw


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


def _mask(symbols: dict[str, bytes]) -> bytes:
    """A ``bytes.translate`` table: listed ASCII characters map to a symbol, the rest to a space."""
    return b"".join(symbols.get(chr(i), b" ") for i in range(256))


_B64_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-"
_B64_MASK = _mask({**dict.fromkeys(_B64_CHARS, b"b"), "=": b"="})
_HEX_MASK = _mask(dict.fromkeys("0123456789abcdefABCDEF :", b"h"))
_B64_SEED = b"b" * 16
_HEX_SEED = b"h" * 16
_B64_RUN = re.compile(b"b+={0,2}")
_HEX_RUN = re.compile(b"h+")
_HEX_ESC_START = re.compile(r"\\x|0x")


def _runs(mask: bytes, seed: bytes, run: re.Pattern[bytes]) -> list[tuple[int, int]]:
    """Spans of the runs of ``mask`` that contain ``seed`` (C-speed ``find``, no regex scan)."""
    spans: list[tuple[int, int]] = []
    pos = mask.find(seed)
    while pos >= 0:
        m = run.match(mask, pos)
        end = m.end() if m is not None else pos + len(seed)
        spans.append((pos, end))
        pos = mask.find(seed, end)
    return spans


def _escape_starts(text: str) -> list[int]:
    """Offsets of every ``%``, ``&`` and ``\\u`` (C-speed ``find``; a regex scan costs more)."""
    starts: list[int] = []
    for opener in ("%", "&", "\\u"):
        pos = text.find(opener)
        while pos >= 0:
            starts.append(pos)
            pos = text.find(opener, pos + 1)
    starts.sort()
    return starts


def _escape_runs(text: str) -> list[tuple[int, int]]:
    """Spans of nearby escapes, each widened to the words it sits in.

    One escaped letter is enough to hide a word from the rules (``ign&#111;re``), so a single
    escape counts; widening takes in the plain letters of the same words.
    """
    runs: list[tuple[int, int]] = []
    for pos in _escape_starts(text):
        m = _ESCAPE.match(text, pos)
        if m is None:
            continue
        if runs and m.start() - runs[-1][1] <= _ESCAPE_GAP:
            runs[-1] = (runs[-1][0], max(m.end(), runs[-1][1]))
        else:
            runs.append(m.span())
    widened = []
    for a, b in runs:
        left = text.rfind(" ", max(0, a - _ESCAPE_WIDEN), a)
        right = _SPACE.search(text, b, min(len(text), b + _ESCAPE_WIDEN))
        widened.append((left + 1 if left >= 0 else max(0, a - _ESCAPE_WIDEN),
                        right.start() if right else min(len(text), b + _ESCAPE_WIDEN)))
    return widened


def decode_candidates(text: str) -> DecodedDocument | None:
    """Collect and decode every encoded-looking run in ``text``.

    Args:
        text: Original text.

    Returns:
        The decoded document, or ``None`` when nothing decoded to readable text.
    """
    # Candidate runs are located on one-symbol byte masks with ``bytes.find``: a character-class
    # regex over a megabyte of prose costs tens of milliseconds, the masks about one. Encoding
    # with "replace" keeps one byte per character, so offsets are the text's own.
    raw = text.encode("ascii", "replace")
    found: list[tuple[int, int, str, str]] = []
    for start, end in _runs(raw.translate(_B64_MASK), _B64_SEED, _B64_RUN):
        token = text[start:end]
        # Plain words and identifiers are not base64 payloads: demand some mixing.
        if token.isalpha() and (token.islower() or token.isupper()):
            continue
        decoded = _b64(token)
        if decoded is not None:
            found.append((start, end, decoded, "base64"))
    for start, end in _runs(raw.translate(_HEX_MASK), _HEX_SEED, _HEX_RUN):
        for m in _HEX.finditer(text, start, end):
            decoded = _hex(m.group())
            if decoded is not None:
                found.append((m.start(), m.end(), decoded, "hex"))
    pos = 0
    while (seed := _HEX_ESC_START.search(text, pos)) is not None:
        esc = _HEX_ESC.match(text, seed.start())
        pos = seed.end() if esc is None else esc.end()
        if esc is not None and (decoded := _hex(esc.group())) is not None:
            found.append((esc.start(), esc.end(), decoded, "hex"))
    for start, end in _escape_runs(text):
        decoded = _unescape(text[start:end])
        if decoded != text[start:end]:
            found.append((start, end, decoded, "escapes"))
    found.extend((a, b, rejoined, "markup") for a, b, rejoined in unsplit_words(text))
    found.sort()
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
