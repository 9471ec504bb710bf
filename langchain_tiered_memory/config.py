"""`MemoryConfig`: one frozen, validated object built from the spec's dotted keys.

The spec names settings as ``memory.camelCase`` keys (``memory.rerankEnabled``...). They are accepted
as-is from a dict, a JSON file or environment variables (``TIERED_MEMORY_RERANK_ENABLED``); in Python
the same settings are snake_case fields.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Literal, get_args

from .errors import ConfigError

__all__ = ["FusionName", "InjectionModelName", "MemoryConfig", "PiiPolicy", "SearchBackendName"]

PiiPolicy = Literal["allow", "redact", "block"]
FusionName = Literal["linear", "rrf"]
# Where memory search runs: ``process`` (in-process indexes), ``database`` (PostgreSQL + pgvector)
# or ``auto`` (the database when the ``vector`` extension is there).
SearchBackendName = Literal["auto", "process", "database"]
InjectionModelName = Literal["builtin", "off"]
_ENV_PREFIX = "TIERED_MEMORY_"


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


@dataclass(frozen=True, slots=True)
class MemoryConfig:
    """Every tunable of the memory, with the spec's defaults.

    Values out of range are clamped where the spec says so (``importance_decay_days`` >= 1) and
    rejected with a `ConfigError` naming the key otherwise.

    Attributes:
        rerank_enabled: Run the cross-encoder on the top of the fused list (``memory.rerankEnabled``).
        rerank_top_k: How many fused candidates the cross-encoder sees; the rest keep RRF order.
        rerank_timeout_seconds: Longest wait for one rerank call before falling back to RRF order.
        rerank_load_timeout_seconds: Longest wait for loading the cross-encoder model.
        rerank_min_score: Drop reranked candidates below this score, unless that would drop all.
        rerank_model: Name or path of a sentence-transformers ``CrossEncoder``; ``None`` disables the
            default reranker (a ``cross_encoder=`` passed to the store still works).
        importance_decay_days: Base half-life in days of the forgetting curve (clamped >= 1).
        archive_threshold: Effective importance below which a decay pass archives an entry.
        archived_weight: Score multiplier for ARCHIVAL entries in recall.
        episode_retention: Live (EPISODIC) episodes kept per namespace; beyond it the least
            important (ties: the oldest) move to ARCHIVAL, still searchable. ``None`` keeps all.
        fusion: How the keyword and vector lists are fused: ``linear`` (default: normalised BM25,
            normalised similarity and query coverage, weighted) or ``rrf`` (the spec's formula).
        linear_keyword_weight: ``linear`` fusion weight of the min-max normalised BM25 score.
        linear_vector_weight: ``linear`` fusion weight of the min-max normalised similarity.
        linear_coverage_weight: ``linear`` fusion weight of the share of the query's idf mass that
            a candidate contains.
        linear_cjk_vector_weight: ``linear_vector_weight`` for a query that is mostly Chinese: the
            bundled MiniLM was trained on English (chosen on the Chinese dev conversations; with
            a multilingual embedding model set it equal to ``linear_vector_weight``).
        rrf_k: The RRF constant (60).
        rrf_rank1_bonus: Added to the RRF score of each list's first hit (times the list's
            weight); 0 keeps the spec's formula exactly.
        rrf_top3_bonus: The same for each list's second and third hits (default 0).
        keyword_weight: RRF weight of the keyword (BM25) list.
        vector_weight: RRF weight of the vector list.
        candidate_pool: How many candidates each path contributes before fusion.
        gate_min_similarity: Vector similarity under which a weak lexical-only match is gated out.
        gate_min_idf_ratio: Share of the maximum IDF a matched token needs to count as discriminative
            (a token in more than half the memories never counts).
        min_relevance: The relevance floor: a hit that holds no word of the query needs at least
            this vector similarity (0 turns the floor off), so a query about nothing stored
            returns nothing.
        working_capacity: Size of the WORKING ring buffer (20).
        working_char_budget: Character budget of the rendered WORKING block.
        context_token_budget: Default token budget of `TieredMemoryStore.context`.
        embedding_model: Name or path of the local sentence-transformers model; ``None`` means the
            bundled all-MiniLM-L6-v2.
        embedding_batch_size: Batch size when embedding many texts at once.
        pii_policy: ``allow``, ``redact`` (before storage and embedding) or ``block``.
        contradiction_min_similarity: Vector similarity above which two entries are compared.
        contradiction_auto_confidence: Confidence at or above which a contradiction is auto-resolved.
        consolidation_idle_seconds: Idle time after which a session is consolidated.
        scheduler_max_concurrency: Consolidation jobs that may run at once.
        scheduler_max_queue: Queue length at which the scheduler counts as saturated.
        fact_confidence_threshold: Extracted facts at or above this are approved, below are pending.
        busy_timeout_seconds: How long SQLite waits on a lock before failing.
        llm_timeout_seconds: Longest wait for a chat model (summaries, extraction, verification).
        index_cache_bytes: Bytes the in-process search indexes of all namespaces may hold
            together (default 1 GiB, enough for a 100,000-memory namespace); the least recently
            used namespaces are dropped beyond it and reload on their next search.
        search_backend: Where memory search runs: ``process`` keeps per-namespace indexes in
            this process; ``database`` pushes BM25 and vector search down to PostgreSQL with
            pgvector (the process then holds no per-namespace memory index); ``auto`` (default)
            picks ``database`` when the store is on PostgreSQL with the ``vector`` extension.
        injection_model: The write scanner's second opinion when the store is given no
            ``classifier``: ``builtin`` (default) is the bundled n-gram model
            (`~langchain_tiered_memory.security.learned_classifier`), consulted on what the rules
            pass; ``off`` leaves the rules alone.
        max_content_bytes: Largest memory content, in UTF-8 bytes (64 KiB); knowledge documents
            are chunked and not bound by it.
        max_key_chars: Longest memory key.
        max_tags: Most tags on one memory or knowledge document.
        max_tag_chars: Longest tag.
        max_metadata_depth: Deepest nesting of a metadata value (a dict at the top is depth 1).
        max_metadata_bytes: Largest metadata, as UTF-8 JSON.
        max_context_budget: Largest token budget `TieredMemoryStore.context` accepts.
        max_facts_per_episode: Most facts kept from one conversation (episode) of an import or a
            consolidation; the rest are dropped and counted.
        max_import_depth: Deepest JSON nesting an imported file may have.
    """

    rerank_enabled: bool = True
    rerank_top_k: int = 10
    rerank_timeout_seconds: float = 5.0
    rerank_load_timeout_seconds: float = 30.0
    rerank_min_score: float = 0.0
    rerank_model: str | None = None
    importance_decay_days: float = 30.0
    archive_threshold: float = 0.1
    archived_weight: float = 0.5
    episode_retention: int | None = 200
    fusion: FusionName = "linear"
    linear_keyword_weight: float = 0.34
    linear_vector_weight: float = 0.27
    linear_coverage_weight: float = 0.39
    linear_cjk_vector_weight: float = 0.15
    rrf_k: int = 60
    rrf_rank1_bonus: float = 0.0
    rrf_top3_bonus: float = 0.0
    keyword_weight: float = 1.0
    vector_weight: float = 1.0
    candidate_pool: int = 15
    gate_min_similarity: float = 0.3
    gate_min_idf_ratio: float = 0.2
    min_relevance: float = 0.3
    working_capacity: int = 20
    working_char_budget: int = 2000
    context_token_budget: int = 1200
    embedding_model: str | None = None
    embedding_batch_size: int = 64
    pii_policy: PiiPolicy = "allow"
    contradiction_min_similarity: float = 0.5
    contradiction_auto_confidence: float = 0.75
    consolidation_idle_seconds: float = 900.0
    scheduler_max_concurrency: int = 1
    scheduler_max_queue: int = 16
    fact_confidence_threshold: float = 0.6
    busy_timeout_seconds: float = 30.0
    llm_timeout_seconds: float = 30.0
    index_cache_bytes: int = 1 << 30
    search_backend: SearchBackendName = "auto"
    injection_model: InjectionModelName = "builtin"
    max_content_bytes: int = 65_536
    max_key_chars: int = 512
    max_tags: int = 64
    max_tag_chars: int = 256
    max_metadata_depth: int = 16
    max_metadata_bytes: int = 65_536
    max_context_budget: int = 100_000
    max_facts_per_episode: int = 100
    max_import_depth: int = 64
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for f in fields(self):
            if f.name == "extra":
                continue
            value = getattr(self, f.name)
            checked = _check(f.name, f.type, value)
            if checked is not value:
                object.__setattr__(self, f.name, checked)
        # The spec clamps the half-life base rather than rejecting it.
        object.__setattr__(self, "importance_decay_days", max(1.0, self.importance_decay_days))
        for name in (
            "rerank_top_k",
            "rrf_k",
            "working_capacity",
            "candidate_pool",
            "embedding_batch_size",
            "scheduler_max_concurrency",
            "scheduler_max_queue",
            "index_cache_bytes",
            "max_content_bytes",
            "max_key_chars",
            "max_tags",
            "max_tag_chars",
            "max_metadata_depth",
            "max_metadata_bytes",
            "max_context_budget",
            "max_facts_per_episode",
            "max_import_depth",
        ):
            if getattr(self, name) < 1:
                raise ConfigError(_dotted(name), "must be >= 1")
        for name in (
            "rerank_timeout_seconds",
            "rerank_load_timeout_seconds",
            "busy_timeout_seconds",
            "llm_timeout_seconds",
        ):
            if getattr(self, name) <= 0:
                raise ConfigError(_dotted(name), "must be > 0")
        for name in (
            "archive_threshold",
            "archived_weight",
            "min_relevance",
            "fact_confidence_threshold",
            "contradiction_auto_confidence",
        ):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ConfigError(_dotted(name), "must be between 0 and 1")
        if self.episode_retention is not None and self.episode_retention < 1:
            raise ConfigError(_dotted("episode_retention"), "must be >= 1 (or null: keep all)")
        if self.max_metadata_depth > 256:
            # Metadata is copied and checked recursively: keep far below Python's stack limit.
            raise ConfigError(_dotted("max_metadata_depth"), "must be <= 256")
        if self.working_char_budget < 0 or self.context_token_budget < 0:
            raise ConfigError(_dotted("working_char_budget"), "must be >= 0")

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MemoryConfig:
        """Build from a mapping of dotted (``memory.rerankTopK``) or snake_case keys.

        Raises:
            ConfigError: For an unknown key or a value of the wrong type; the error names the key.
        """
        known = {f.name for f in fields(cls)} - {"extra"}
        kwargs: dict[str, Any] = {}
        for raw_key, value in data.items():
            if not isinstance(raw_key, str):
                raise ConfigError(str(raw_key), "keys must be strings")
            name = _field_name(raw_key)
            if name not in known:
                raise ConfigError(raw_key, f"unknown configuration key (known: {_known_list()})")
            kwargs[name] = value
        try:
            return cls(**kwargs)
        except ConfigError as exc:
            # Re-raise naming the key the way the caller spelt it.
            for raw_key in data:
                if _dotted(_field_name(raw_key)) == exc.key:
                    raise ConfigError(raw_key, str(exc).split(": ", 1)[1]) from None
            raise

    @classmethod
    def from_json(cls, path: str | os.PathLike[str]) -> MemoryConfig:
        """Build from a JSON file holding a flat object of config keys (or ``{"memory": {...}}``)."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise ConfigError(str(path), f"cannot read config file: {exc}") from exc
        if isinstance(data, dict) and isinstance(data.get("memory"), dict):
            data = {f"memory.{k}": v for k, v in data["memory"].items()}
        if not isinstance(data, dict):
            raise ConfigError(str(path), "config file must hold a JSON object")
        return cls.from_dict(data)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> MemoryConfig:
        """Build from ``TIERED_MEMORY_*`` environment variables (``TIERED_MEMORY_RERANK_TOP_K=5``)."""
        env = os.environ if environ is None else environ
        data: dict[str, Any] = {}
        for name, raw in env.items():
            if not name.startswith(_ENV_PREFIX):
                continue
            field_name = name[len(_ENV_PREFIX) :].lower()
            data[field_name if field_name in _FIELD_TYPES else name] = _parse_env(raw)
        return cls.from_dict(data)

    def with_overrides(self, data: Mapping[str, Any]) -> MemoryConfig:
        """Return a validated copy with some keys (dotted or snake_case) changed."""
        current = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "extra"}
        return MemoryConfig.from_dict({**current, **data})

    def to_dict(self) -> dict[str, Any]:
        """The configuration as dotted keys, as the spec writes them."""
        return {_dotted(f.name): getattr(self, f.name) for f in fields(self) if f.name != "extra"}


_FIELD_TYPES = {f.name: f.type for f in fields(MemoryConfig) if f.name != "extra"}


def _known_list() -> str:
    return ", ".join(_dotted(n) for n in _FIELD_TYPES)


def _dotted(name: str) -> str:
    return "memory." + _camel(name)


def _field_name(key: str) -> str:
    name = key[len("memory.") :] if key.startswith("memory.") else key
    return name if "_" in name or name.islower() else _snake(name)


# The Literal-typed fields, by their annotation (fields are annotated as strings).
_CHOICES: dict[str, Any] = {
    "FusionName": FusionName,
    "SearchBackendName": SearchBackendName,
    "PiiPolicy": PiiPolicy,
    "InjectionModelName": InjectionModelName,
}


def _parse_env(raw: str) -> Any:
    text = raw.strip()
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    if text.lower() in ("none", "null", ""):
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _check(name: str, annotation: Any, value: Any) -> Any:
    key = _dotted(name)
    ann = annotation if isinstance(annotation, str) else str(annotation)
    optional = "None" in ann
    if value is None:
        if optional:
            return None
        raise ConfigError(key, "must not be null")
    if ann.startswith("bool"):
        if not isinstance(value, bool):
            raise ConfigError(key, f"expected a boolean, got {type(value).__name__} {value!r}")
        return value
    if ann.startswith("int"):
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, float) and value.is_integer():
                return int(value)
            raise ConfigError(key, f"expected an integer, got {type(value).__name__} {value!r}")
        return value
    if ann.startswith("float"):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(key, f"expected a number, got {type(value).__name__} {value!r}")
        if value != value or value in (float("inf"), float("-inf")):
            raise ConfigError(key, "must be a finite number")
        return float(value)
    if ann.startswith("str"):
        if not isinstance(value, str):
            raise ConfigError(key, f"expected a string, got {type(value).__name__} {value!r}")
        return value
    choices = _CHOICES.get(ann)
    if choices is not None:
        if value not in get_args(choices):
            raise ConfigError(key, f"expected one of {get_args(choices)}, got {value!r}")
        return value
    return value
