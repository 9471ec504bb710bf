"""Profile rules: two statements contradict when one slot of the user's profile clashes.

An affirmed concept the other denies, two poles of one attribute, disjoint job families, ages that
do not overlap, two names for one relative, two counts, two homes (never a country against a
city: that is a refinement). Refinements, additions ("also", "还"), other people and past states
are compatible. The slots are read by `profile.read_profile`.
"""

from __future__ import annotations

from .lexicon import CONCEPTS, COUNTRIES, REGIONS_ZH
from .profile import Profile, read_profile
from .verdict import Verdict

__all__ = ["profile_verdict"]


def _concept_clash(a: Profile, b: Profile) -> str | None:
    for denier, affirmer in ((a, b), (b, a)):
        for name, affirmed in denier.concepts.items():
            if affirmed:
                continue
            for other, other_affirmed in affirmer.concepts.items():
                if other_affirmed and (other == name or name in CONCEPTS[other][2]):
                    return name
    return None


def _name_pairs(a: dict[str, str], b: dict[str, str]) -> list[tuple[str, str, str]]:
    """Names given to one relation by both statements; "my only pet" meets any dog or cat."""
    pairs = [(rel, a[rel], b[rel]) for rel in sorted(set(a) & set(b))]
    for only, other in ((a, b), (b, a)):
        if "pet" in only:
            pairs += [(rel, only["pet"], other[rel]) for rel in ("dog", "cat") if rel in other]
    return pairs


_RELATIVE_COUNTS = frozenset({"kids", "sons", "daughters", "grandkids", "brothers", "sisters",
                              "siblings"})


def _count_clash(
    pa: Profile, pb: Profile, *, only: frozenset[str] | None = None
) -> Verdict | None:
    nouns = set(pa.counts) & set(pb.counts)
    for noun in sorted(nouns if only is None else nouns & only):
        x, y = pa.counts[noun], pb.counts[noun]
        differ = (0 in (x, y) and x != y) if -1 in (x, y) else x != y
        if differ and not (pa.addition or pb.addition):
            return Verdict(True, 0.7, f"number of {noun} differs", rule="count")
    return None


_COMPATIBLE_POLES = ({"unmarried", "engaged"}, {"unmarried", "single"}, {"unmarried", "divorced"})


def _pole_clash(pa: Profile, pb: Profile, attribute: str) -> Verdict | None:
    if attribute not in pa.poles or attribute not in pb.poles:
        return None
    poles = {pa.poles[attribute], pb.poles[attribute]}
    if len(poles) < 2 or poles in _COMPATIBLE_POLES:
        return None
    return Verdict(True, 0.75, f"opposite {attribute}: {' vs '.join(sorted(poles))}",
                   rule="opposite_value")


def _is_region(place: str) -> bool:
    return place in COUNTRIES or place in REGIONS_ZH


def profile_verdict(a: str, b: str) -> Verdict | None:
    """A contradiction between the user's profiles in ``a`` and ``b``, or None."""
    pa, pb = read_profile(a), read_profile(b)
    for rel, name_a, name_b in _name_pairs(pa.names, pb.names):
        if name_a != name_b and not (pa.addition or pb.addition):
            return Verdict(True, 0.75, f"{rel} is named '{name_a}' and '{name_b}'",
                           rule="same_relation")
    if pa.past or pb.past:
        return None
    marital = _pole_clash(pa, pb, "marital")
    if marital is not None and (pa.about_user or pa.spouse) and (pb.about_user or pb.spouse):
        return marital
    # How many children or siblings the user has holds whoever the sentence is about.
    relatives = _count_clash(pa, pb, only=_RELATIVE_COUNTS)
    if relatives is not None:
        return relatives
    if not (pa.about_user and pb.about_user):
        return None
    clash = _concept_clash(pa, pb)
    if clash is not None:
        return Verdict(True, 0.75, f"one statement denies '{clash}', the other affirms it",
                       rule="implied_negation")
    for attribute in sorted(set(pa.poles) & set(pb.poles)):
        opposite = _pole_clash(pa, pb, attribute)
        if opposite is not None:
            return opposite
    for thing in set(pa.tastes) & set(pb.tastes):
        if pa.tastes[thing] != pb.tastes[thing]:
            return Verdict(True, 0.75, f"'{thing.lstrip('#')}' is liked by one statement and "
                           "disliked by the other", rule="polarity")
    if pa.working is not None and pb.working is not None and pa.working != pb.working:
        return Verdict(True, 0.7, "one statement says the user works, the other that they do not",
                       rule="opposite_value")
    if pa.jobs and pb.jobs and not (pa.jobs & pb.jobs) and not (pa.addition or pb.addition):
        return Verdict(True, 0.7, f"different occupations: {sorted(pa.jobs)} vs {sorted(pb.jobs)}",
                       rule="same_slot")
    if pa.age and pb.age and (pa.age[1] + 1 < pb.age[0] or pb.age[1] + 1 < pa.age[0]):
        return Verdict(True, 0.8, f"ages do not overlap: {pa.age} vs {pb.age}", rule="age")
    counted = _count_clash(pa, pb)
    if counted is not None:
        return counted
    if pa.home and pb.home and pa.home != pb.home and not (pa.addition or pb.addition):
        kinds = {pa.home.startswith("#"), pb.home.startswith("#")}
        if kinds != {True, False} and not (_is_region(pa.home) or _is_region(pb.home)) and not (
            pa.home in pb.home or pb.home in pa.home):
            return Verdict(True, 0.7, f"two homes: '{pa.home}' vs '{pb.home}'", rule="same_slot")
    return None
