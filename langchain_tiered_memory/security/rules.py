"""The rule set: loaded once, lazily, from the bundled versioned ``patterns.json``."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from ..errors import ConfigError
from .matcher import AnchorFinder, Anchors, anchors_of, max_width
from .normalize import VIEWS, fold_pattern, make_view

__all__ = ["CompiledView", "Rule", "RuleSet", "Target", "ViewPlan", "load_rules", "parse_rules"]

_REASONS = frozenset({"en_injection", "zh_injection", "intl_injection", "auto"})
_CJK = re.compile("[\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]")
# Views whose text holds the rule's words as written (lower case, punctuation kept).
_GUARDED_VIEWS = frozenset({"literal", "joined"})
_CLASS_REF = re.compile(r"@@(\w+)@@")
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")


def _expand(pattern: str, classes: dict[str, str], rid: str) -> str:
    """Replace ``@@name@@`` by the word class ``name`` (one alternation, longest words first)."""

    def sub(m: re.Match[str]) -> str:
        if m.group(1) not in classes:
            raise ConfigError("patterns.json", f"rule {rid}: unknown class @@{m.group(1)}@@")
        return classes[m.group(1)]

    return _CLASS_REF.sub(sub, pattern)


def _fold_literals(pattern: str) -> str:
    """Fold a pattern's non-ASCII text the way the views fold the text.

    Rules are written in the script they target (``игнорируй``, ``無視``); the ``literal`` view
    maps Cyrillic look-alikes to Latin and traditional characters to simplified ones, so the
    pattern's letters must go through the same table to meet the text. ASCII (the regex syntax)
    is left alone.
    """
    return _NON_ASCII.sub(lambda m: make_view(m.group(), "literal"), pattern)


@dataclass(frozen=True, slots=True)
class CompiledView:
    """A rule's regex for one view, with its literal anchors and maximum match width."""

    view: str
    regex: re.Pattern[str]
    anchors: Anchors | None
    width: int | None


@dataclass(frozen=True, slots=True)
class Rule:
    """One injection pattern, compiled for each view it applies to.

    Attributes:
        id: Stable identifier reported in ``ScanResult.rule`` (``en.override``...).
        reason: ``en_injection``, ``zh_injection`` or ``auto`` (decided by the matched text).
        intent: The attack family (``instruction_override``, ``exfiltration``...).
        compiled: The regex per view it runs on.
        requires: Words one of which every match holds (on the punctuation-keeping views);
            when a view holds none, the rule is skipped there. Empty: no such guard.
    """

    id: str
    reason: str
    intent: str
    compiled: tuple[CompiledView, ...]
    requires: tuple[str, ...] = ()

    def reason_for(self, matched: str) -> str:
        """The scan reason for a match of this rule on ``matched`` (original text)."""
        if self.reason != "auto":
            return self.reason
        return "zh_injection" if _CJK.search(matched) else "en_injection"


@dataclass(frozen=True, slots=True)
class Target:
    """One (rule, view) pair to match; targets are numbered in rule priority order."""

    rule: Rule
    compiled: CompiledView


@dataclass(frozen=True, slots=True)
class ViewPlan:
    """What to run on one view: the anchor finder, the targets that have no anchors, and the
    targets whose ``requires`` guard applies on this view."""

    finder: AnchorFinder
    unanchored: tuple[int, ...]
    guarded: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class RuleSet:
    """All rules, their targets, the per-view plans and the invisible-character allow-list."""

    version: str
    rules: tuple[Rule, ...]
    allowed_tag_flags: tuple[str, ...]
    targets: tuple[Target, ...]
    plans: dict[str, ViewPlan]


def _compile(raw: dict[str, Any], classes: dict[str, str]) -> Rule:
    rid = str(raw["id"])
    reason = str(raw["reason"])
    if reason not in _REASONS:
        raise ConfigError("patterns.json", f"rule {rid}: unknown reason {reason!r}")
    views = raw["views"]
    if not views or any(v not in VIEWS for v in views):
        raise ConfigError("patterns.json", f"rule {rid}: bad views {views!r}")
    # A pattern reads punctuation if it runs on ``literal``, else it is written for ``spaced``.
    written_for = "literal" if "literal" in views else "spaced"
    if written_for == "spaced" and not {"spaced", "compact"} & set(views):
        # The scanner skips ``joined`` when it equals ``literal``: rules there need a twin.
        raise ConfigError("patterns.json", f"rule {rid}: needs 'literal', 'spaced' or 'compact'")
    if "compact" in views:  # a spaced match is always a compact match too
        views = [v for v in views if v != "spaced"]
    flags = re.DOTALL | re.MULTILINE
    pattern = _fold_literals(_expand(str(raw["pattern"]), classes, rid))
    compiled = []
    for view in views:
        regex = re.compile(fold_pattern(pattern, view, written_for), flags)
        compiled.append(CompiledView(view, regex, anchors_of(regex), max_width(regex)))
    requires = tuple(_fold_literals(str(w)) for w in raw.get("requires", ()))
    return Rule(rid, reason, str(raw.get("intent", "")), tuple(compiled), requires)


def parse_rules(doc: dict[str, Any], *, use_automaton: bool = True) -> RuleSet:
    """Validate and compile a pattern document (the parsed ``patterns.json``).

    Args:
        doc: The parsed pattern document.
        use_automaton: Find anchors with ``pyahocorasick`` when installed (``False`` forces the
            pure-``re`` finder; same answers, slower).

    Raises:
        ValueError: The document is malformed (missing version, unknown view or reason...).
    """
    version = doc.get("version")
    if not isinstance(version, str) or not version:
        raise ConfigError("patterns.json", "missing 'version'")
    classes = {
        name: "(?:" + "|".join(sorted(words, key=len, reverse=True)) + ")"
        for name, words in doc.get("classes", {}).items()
    }
    rules = tuple(_compile(raw, classes) for raw in doc["rules"])
    ids = [r.id for r in rules]
    if len(ids) != len(set(ids)):
        raise ConfigError("patterns.json", "duplicate rule ids")
    flags = tuple(str(f) for f in doc.get("allowed_tag_flags", ()))
    targets = tuple(Target(r, c) for r in rules for c in r.compiled)
    plans: dict[str, ViewPlan] = {}
    for view in VIEWS:
        words: dict[str, list[int]] = {}
        unanchored: list[int] = []
        guarded: list[int] = []
        for tid, target in enumerate(targets):
            compiled = target.compiled
            if compiled.view != view:
                continue
            if target.rule.requires and view in _GUARDED_VIEWS:
                guarded.append(tid)
            if compiled.anchors is None or compiled.width is None:
                unanchored.append(tid)
                continue
            for word in compiled.anchors.words:
                words.setdefault(word, []).append(tid)
        if words or unanchored:
            plans[view] = ViewPlan(AnchorFinder(words, use_automaton=use_automaton),
                                   tuple(unanchored), tuple(guarded))
    return RuleSet(version, rules, flags, targets, plans)


@lru_cache(maxsize=1)
def load_rules() -> RuleSet:
    """Read and compile the bundled ``patterns.json`` (once per process)."""
    text = resources.files(__package__).joinpath("patterns.json").read_text(encoding="utf-8")
    return parse_rules(json.loads(text))
