"""Write-path security (minimal bootstrap; the full scanner replaces this)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..types import ScanResult

__all__ = ["PiiMatch", "detect_pii", "redact_pii", "scan_memory_content"]

_INVISIBLE = re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\U000e0000-\U000e007f]")
_EN = re.compile(r"\b(?:ignore|disregard|forget)\s+(?:all\s+)?(?:previous|prior|above)\s+instructions", re.I)
_ZH = re.compile(r"(?:忽略|无视|忘记)(?:之前|上述|以上)")


@dataclass(frozen=True, slots=True)
class PiiMatch:
    """One piece of personal data found in a text."""

    kind: str
    start: int
    end: int
    text: str


def scan_memory_content(content: str, *, classifier: object = None) -> ScanResult:
    """Decide whether ``content`` may be written to memory (fails closed)."""
    try:
        for reason, rx in (("invisible_unicode", _INVISIBLE), ("en_injection", _EN), ("zh_injection", _ZH)):
            m = rx.search(content)
            if m:
                return ScanResult(True, reason, reason, (m.start(), m.end()))
        return ScanResult(False)
    except Exception as exc:  # fail closed
        return ScanResult(True, "scanner_error", detail=type(exc).__name__)


_scan_memory_content = scan_memory_content

_EMAIL = re.compile(r"[A-Za-z0-9._%+-]{1,64}@(?:[A-Za-z0-9-]{1,63}\.){1,8}[A-Za-z]{2,24}")


def detect_pii(text: str) -> list[PiiMatch]:
    """Find personal data in ``text``."""
    return [PiiMatch("EMAIL", m.start(), m.end(), m.group()) for m in _EMAIL.finditer(text)]


def redact_pii(text: str) -> tuple[str, list[PiiMatch]]:
    """Replace each match by ``[REDACTED:<KIND>]``."""
    found = detect_pii(text)
    out = text
    for m in reversed(found):
        out = out[: m.start] + f"[REDACTED:{m.kind}]" + out[m.end :]
    return out, found
