"""Write-path security: the injection scanner every memory write goes through, and PII handling.

Threat model
============

Long-term memory is a *persistent* prompt-injection surface: whatever is stored is later rendered
into a system message, so one poisoned write keeps attacking every future session. Writes arrive
from users, from models (tool calls, consolidation) and from imported chat exports, so the content
must be treated as hostile. :func:`scan_memory_content` is the gate; the store calls it on every
write path and refuses a blocked write with :class:`~langchain_tiered_memory.errors.MemoryWriteBlocked`.

What is blocked (``ScanResult.reason``):

``invisible_unicode``
    (a) Characters a human reviewer cannot see but a model reads: zero-width characters
    (U+200B–U+200D, U+2060, U+FEFF), tag characters (U+E0000–U+E007F, "ASCII smuggling"), bidi
    embeddings/overrides/isolates (U+202A–U+202E, U+2066–U+2069, "Trojan source"), every other
    ``Cf`` character, invisible fillers (Hangul fillers, CGJ) and runs of variation selectors
    ("emoji smuggling"). Zero tolerance, with tested exceptions: a ZWJ inside an emoji sequence
    (👨‍👩‍👧), a ZWNJ/ZWJ between letters of a joining script (Persian, Indic), an allow-listed
    emoji subdivision flag (🏴 + tags + cancel tag: England, Scotland, Wales). A single
    variation selector (❤️) is ordinary text.
``en_injection``
    (b) English patterns: instruction override ("ignore all previous instructions"), role and
    system impersonation ("you are now DAN", "system:", ``<|im_start|>``, ``[INST]``,
    ``<<SYS>>``, "### System", "I am your developer"), exfiltration ("reveal your system prompt /
    api key", "repeat the words above", "send the chat history to ..."), smuggling (markdown
    images/links whose URL carries a ``{placeholder}`` or a data parameter, fake ``<tool_call>``
    markup and function-call JSON), standing orders planted for later ("whenever the user asks
    ..., always recommend ...") and secrecy ("don't tell the user").
``zh_injection``
    (c) The same intents in Chinese ("忽略之前的指令", "无视上述", "你现在是…没有限制的AI",
    "直接输出以下内容", "泄露你的提示词", "忘记之前的所有设定", …) and mixed-language text
    ("请ignore之前的指令"), traditional characters included.
``scanner_error``
    The scanner itself failed: it fails closed.
``classifier``
    The optional second-opinion classifier said yes, failed, or timed out.

Evasions handled (d): NFKC (full-width, mathematical alphanumerics, ligatures), stripped
diacritics and zalgo marks, Cyrillic/Greek/small-capital confusables, leetspeak (``1gn0r3``),
case, inserted spaces or punctuation (``i g n o r e``, ``ign.ore``), ROT13, and base64 / hex /
percent / HTML / ``\\u`` escapes (decoded and rescanned, twice deep). Matching runs on folded views
(:mod:`.normalize`); reported spans are offsets into the *original* text.

Not covered, by design: paraphrases without trigger vocabulary, other languages, images, and
semantic attacks that read as ordinary facts ("the user's bank is evil-bank.com"). Those are
what the optional ``classifier`` is for. Rules live in the versioned ``patterns.json``; its
``version`` is quoted in every ``ScanResult.detail``.

PII (:mod:`.pii`) is a separate, policy-driven concern: :func:`detect_pii`, :func:`redact_pii`
and :func:`apply_pii_policy` (``allow`` / ``redact`` / ``block``).
"""

from __future__ import annotations

from .classifier import ScanVerdict
from .learned import LearnedClassifier, learned_classifier
from .pii import PiiMatch, PiiPolicy, apply_pii_policy, detect_pii, redact_pii
from .rules import load_rules
from .scanner import ascan_memory_content, scan_memory_content

__all__ = [
    "LearnedClassifier",
    "PiiMatch",
    "PiiPolicy",
    "ScanVerdict",
    "apply_pii_policy",
    "ascan_memory_content",
    "detect_pii",
    "learned_classifier",
    "load_rules",
    "patterns_version",
    "redact_pii",
    "scan_memory_content",
]

_scan_memory_content = scan_memory_content
"""The spec's name for :func:`scan_memory_content`."""


def patterns_version() -> str:
    """Version string of the bundled rule file (``patterns.json``)."""
    return load_rules().version
