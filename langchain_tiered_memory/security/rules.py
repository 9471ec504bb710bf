"""The rule set: loaded once, lazily, from the bundled versioned ``patterns.json``."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from .normalize import VIEWS, fold_pattern

__all__ = ["Rule", "RuleSet", "load_rules"]

_REASONS = frozenset({"en_injection", "zh_injection", "auto"})
_CJK = re.compile("[\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]")


@dataclass(frozen=True, slots=True)
class Rule:
    """One injection pattern, compiled for each view it applies to.

    Attributes:
        id: Stable identifier reported in ``ScanResult.rule`` (``en.override``...).
        reason: ``en_injection``, ``zh_injection`` or ``auto`` (decided by the matched text).
        intent: The attack family (``instruction_override``, ``exfiltration``...).
        compiled: ``(view, regex)`` pairs.
    """

    id: str
    reason: str
    intent: str
    compiled: tuple[tuple[str, re.Pattern[str]], ...]

    def reason_for(self, matched: str) -> str:
        """The scan reason for a match of this rule on ``matched`` (original text)."""
        if self.reason != "auto":
            return self.reason
        return "zh_injection" if _CJK.search(matched) else "en_injection"


@dataclass(frozen=True, slots=True)
class RuleSet:
    """All rules plus the data the invisible-character check needs."""

    version: str
    rules: tuple[Rule, ...]
    allowed_tag_flags: tuple[str, ...]

    def views(self) -> tuple[str, ...]:
        """The views some rule needs, in canonical order."""
        used = {view for rule in self.rules for view, _ in rule.compiled}
        return tuple(v for v in VIEWS if v in used)


def _compile(raw: dict[str, Any]) -> Rule:
    rid = str(raw["id"])
    reason = str(raw["reason"])
    if reason not in _REASONS:
        raise ValueError(f"rule {rid}: unknown reason {reason!r}")
    views = raw["views"]
    if not views or any(v not in VIEWS for v in views):
        raise ValueError(f"rule {rid}: bad views {views!r}")
    flags = re.DOTALL | re.MULTILINE
    compiled = tuple((v, re.compile(fold_pattern(raw["pattern"], v), flags)) for v in views)
    return Rule(rid, reason, str(raw.get("intent", "")), compiled)


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
    return RuleSet(version, rules, flags)


@lru_cache(maxsize=1)
def load_rules() -> RuleSet:
    """Read and compile the bundled ``patterns.json`` (once per process)."""
    text = resources.files(__package__).joinpath("patterns.json").read_text(encoding="utf-8")
    return parse_rules(json.loads(text))
