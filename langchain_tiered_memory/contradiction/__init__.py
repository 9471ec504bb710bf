"""Contradiction detection: pre-filter, heuristic and LLM verifiers, resolution policy.

The flow the spec describes: cheap candidate pre-filter (`find_candidates`), a verifier
(`HeuristicVerifier` offline, `LLMVerifier` with any chat model, falling back to the heuristics),
then the resolution policy (`resolve`) and a `Contradiction` record (`build_contradiction`).
`detect_contradictions` runs all of it for one new entry.
"""

from .candidates import Candidate, find_candidates, key_similarity
from .claims import Claim, extract_claims
from .detector import Detection, adetect_contradictions, detect_contradictions
from .heuristic import HeuristicVerifier, heuristic_verify
from .llm import LLMVerifier, parse_verdict
from .resolution import Resolution, build_contradiction, resolve
from .verdict import Verdict, Verifier

__all__ = [
    "Candidate",
    "Claim",
    "Detection",
    "HeuristicVerifier",
    "LLMVerifier",
    "Resolution",
    "Verdict",
    "Verifier",
    "adetect_contradictions",
    "build_contradiction",
    "detect_contradictions",
    "extract_claims",
    "find_candidates",
    "heuristic_verify",
    "key_similarity",
    "parse_verdict",
    "resolve",
]
