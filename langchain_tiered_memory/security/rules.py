"""The rule set: loaded once, lazily, from the bundled versioned ``patterns.json``."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from .matcher import anchor_regex, anchors_of, max_width
from .normalize import VIEWS, fold_pattern

__all__ = ["CompiledView", "Rule", "RuleSet", "load_rules", "parse_rules"]

_REASONS = frozenset({"en_injection", "zh_injection", "auto"})
_CJK = re.compile("[\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]")


@dataclass(frozen=True, slots=True)
class CompiledView:
    """A rule's regex for one view, with its literal anchors and maximum match width."""

    view: str
    regex: re.Pattern[str]
    anchors: tuple[str, ...] | None
    width: int | None


@dataclass(frozen=True, slots=True)
class Rule:
    """One injection pattern, compiled for each view it applies to.

    Attributes:
        id: Stable identifier reported in ``ScanResult.rule`` (``en.override``...).
        reason: ``en_injection``, ``zh_injection`` or ``auto`` (decided by the matched text).
        intent: The attack family (``instruction_override``, ``exfiltration``...).
        compiled: The regex per view it runs on.
    """

    id: str
    reason: str
    intent: str
    compiled: tuple[CompiledView, ...]

    def reason_for(self, matched: str) -> str:
        """The scan reason for a match of this rule on ``matched`` (original text)."""
        if self.reason != "auto":
            return self.reason
        return "zh_injection" if _CJK.search(matched) else "en_injection"


@dataclass(frozen=True, slots=True)
class RuleSet:
    """All rules, the per-view anchor finders and the invisible-character allow-list."""

    version: str
    rules: tuple[Rule, ...]
    allowed_tag_flags: tuple[str, ...]
    anchor_finders: dict[str, tuple[re.Pattern[str] | None, re.Pattern[str] | None]]


def _compile(raw: dict[str, Any]) -> Rule:
    rid = str(raw["id"])
    reason = str(raw["reason"])
    if reason not in _REASONS:
        raise ValueError(f"rule {rid}: unknown reason {reason!r}")
    views = raw["views"]
    if not views or any(v not in VIEWS for v in views):
        raise ValueError(f"rule {rid}: bad views {views!r}")
    if "compact" in views:  # a spaced match is always a compact match too
        views = [v for v in views if v != "spaced"]
    flags = re.DOTALL | re.MULTILINE
    compiled = []
    for view in views:
        regex = re.compile(fold_pattern(raw["pattern"], view), flags)
        compiled.append(CompiledView(view, regex, anchors_of(regex), max_width(regex)))
    return Rule(rid, reason, str(raw.get("intent", "")), tuple(compiled))


def parse_rules(doc: dict[str, Any]) -> RuleSet:
    """Validate and compile a pattern document (the parsed ``patterns.json``).

    Raises:
        ValueError: The document is malformed (missing version, unknown view or reason...).
    """
    version = doc.get("version")
    if not isinstance(version, str) or not version:
        raise ValueError("patterns.json: missing 'version'")
    rules = tuple(_compile(raw) for raw in doc["rules"])
    ids = [r.id for r in rules]
    if len(ids) != len(set(ids)):
        raise ValueError("patterns.json: duplicate rule ids")
    flags = tuple(str(f) for f in doc.get("allowed_tag_flags", ()))
    # Per view: one finder for ASCII anchors and one for the rest, so that an ASCII text never
    # pays for the (large) Chinese trie.
    finders: dict[str, tuple[re.Pattern[str] | None, re.Pattern[str] | None]] = {}
    for view in VIEWS:
        words = {a for r in rules for c in r.compiled if c.view == view for a in c.anchors or ()}
        ascii_words = {w for w in words if w.isascii()}
        other = words - ascii_words
        finders[view] = (
            anchor_regex(ascii_words) if ascii_words else None,
            anchor_regex(other) if other else None,
        )
    return RuleSet(version, rules, flags, finders)


@lru_cache(maxsize=1)
def load_rules() -> RuleSet:
    """Read and compile the bundled ``patterns.json`` (once per process)."""
    text = resources.files(__package__).joinpath("patterns.json").read_text(encoding="utf-8")
    return parse_rules(json.loads(text))
