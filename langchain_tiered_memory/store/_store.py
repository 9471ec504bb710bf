"""`TieredMemoryStore`: a facade over the store's services, with an async twin for every I/O method.

The services share one `StoreContext` (engine, config, clock, embeddings, index cache) and talk to
each other only through their constructor-injected interfaces:

* `Writer`: the one guarded write path; `Lattice` and `Contradictions` listen to it.
* `Recall` (over `retrieval.engine`), `KnowledgeSearch`, `ContextBlocks`: reading for a prompt.
* `Reads`, `Edits`, `Episodes`, `EpisodeRetention`, `Lifecycle`, `Jobs`, `Knowledge`,
  `Reembed`, `Dumps`, `Sources`, `Review`.

Each public method of the facade *is* a service method (`Forward`), so its signature and docstring
are the service's own.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

import sqlalchemy as sa
from langchain_core.cross_encoders import BaseCrossEncoder
from langchain_core.embeddings import Embeddings

from ..config import MemoryConfig
from ..contradiction import Verifier
from ._async import Forward, ForwardAsync, run_sync
from ._context import ContextBlocks
from ._contradictions import Contradictions
from ._dumps import Dumps
from ._edits import Edits
from ._episode_retention import EpisodeRetention
from ._episodes import Episodes
from ._index_cache import IndexCacheStats
from ._jobs import Jobs
from ._knowledge import Knowledge
from ._knowledge_search import KnowledgeSearch
from ._lattice import Lattice
from ._lifecycle import Lifecycle
from ._reads import Reads
from ._recall import Recall
from ._reembed import Reembed
from ._review import Review
from ._rows import WriteLimits
from ._shared import StoreContext
from ._sources import Sources
from ._writer import Writer

S = TypeVar("S")
R = TypeVar("R")
P = ParamSpec("P")


@dataclass(frozen=True, slots=True)
class _Services:
    ctx: StoreContext
    writer: Writer
    reads: Reads
    edits: Edits
    recall: Recall
    episodes: Episodes
    retention: EpisodeRetention
    lifecycle: Lifecycle
    lattice: Lattice
    contradictions: Contradictions
    context: ContextBlocks
    jobs: Jobs
    knowledge: Knowledge
    knowledge_search: KnowledgeSearch
    reembed: Reembed
    dumps: Dumps
    sources: Sources
    review: Review


def _forward(
    pick: Callable[[_Services], S], method: Callable[Concatenate[S, P], R]
) -> Forward[S, P, R]:
    return Forward(pick, method)


def _forward_async(
    pick: Callable[[_Services], S], method: Callable[Concatenate[S, P], R]
) -> ForwardAsync[S, P, R]:
    return ForwardAsync(pick, method)


def _compose(ctx: StoreContext) -> _Services:
    """Build the services and wire the write listeners and hit annotators, in order."""
    reads = Reads(ctx)
    writer = Writer(ctx)
    lattice = Lattice(ctx, reads)
    contradictions = Contradictions(ctx, reads, writer, lattice)
    # Links move before the contradiction questions about the replaced entry are closed.
    writer.listen(lattice)
    writer.listen(contradictions)
    recall = Recall(ctx, reads)
    recall.annotate_with(contradictions)
    edits = Edits(ctx, reads, writer)
    retention = EpisodeRetention(ctx)
    episodes = Episodes(ctx, writer, retention)
    knowledge = Knowledge(ctx, writer)
    reembed = Reembed(ctx)
    return _Services(
        ctx=ctx,
        writer=writer,
        reads=reads,
        edits=edits,
        recall=recall,
        episodes=episodes,
        retention=retention,
        lifecycle=Lifecycle(ctx, reads, writer, retention),
        lattice=lattice,
        contradictions=contradictions,
        context=ContextBlocks(ctx, reads, recall, episodes),
        jobs=Jobs(ctx),
        knowledge=knowledge,
        knowledge_search=KnowledgeSearch(ctx, knowledge, recall),
        reembed=reembed,
        dumps=Dumps(ctx, writer),
        sources=Sources(ctx, writer=writer, episodes=episodes, reembed=reembed),
        review=Review(ctx, reads, writer, edits),
    )


class TieredMemoryStore:
    """One tiered memory (WORKING · EPISODIC · SEMANTIC · ARCHIVAL) on SQLite or PostgreSQL.

    Example:
        >>> store = TieredMemoryStore("sqlite:///memory.db")  # doctest: +SKIP
        >>> e = store.add("Alice prefers dark mode", namespace="alice", key="ui.theme")  # doctest: +SKIP
        >>> store.search("what theme?", namespace="alice")  # doctest: +SKIP

    Args:
        url: A SQLAlchemy URL (``sqlite:///memory.db``, ``postgresql+psycopg://...``) or a file path.
        embeddings: Any LangChain `Embeddings`; default: the bundled local all-MiniLM-L6-v2.
        config: A `MemoryConfig`; default: the spec's defaults.
        clock: Returns "now" as an aware datetime (tests inject one).
        model_id: Identifier stored with each vector; derived from ``embeddings`` when omitted.
        classifier: Optional second-opinion injection classifier (can only add blocks; a
            `LearnedClassifier` with a ``veto`` above 0 may also set aside a plain-text rule
            hit with 16 words or more around it in a text it scores as clearly harmless; the
            bundled one's is 0.06, 0.15 for a hit in Chinese characters).
        cross_encoder: Optional `BaseCrossEncoder` for the rerank stage (else
            ``memory.rerankModel`` names a local sentence-transformers CrossEncoder, loaded lazily).

    Attributes:
        detect_contradictions: Check each new SEMANTIC entry against the live ones (default True).
        contradiction_verifier: A verifier for those checks (e.g. ``LLMVerifier(chat_model)``);
            None means the offline heuristics.
        write_check_limit: Writes of more entries than this skip the on-write contradiction checks
            and links; run `check_contradictions` on their ids instead (consolidation does).
        auto_link: Link new entries to entries sharing a tag, an entity or a near meaning.
        link_min_similarity: Cosine similarity from which a neighbour is linked automatically.

    Constructing a store opens (and if needed creates or upgrades) the database; it loads no model
    and no index: the embedding model loads on first use, a namespace's indexes on its first search.
    """

    def __init__(
        self,
        url: str | os.PathLike[str] = "sqlite:///memory.db",
        *,
        embeddings: Embeddings | None = None,
        config: MemoryConfig | None = None,
        clock: Callable[[], datetime] | None = None,
        model_id: str | None = None,
        classifier: Any = None,
        cross_encoder: BaseCrossEncoder | None = None,
    ) -> None:
        ctx = StoreContext(
            url,
            embeddings=embeddings,
            config=config,
            clock=clock,
            model_id=model_id,
            classifier=classifier,
            cross_encoder=cross_encoder,
        )
        self._services = _compose(ctx)

    # -- the shared context -----------------------------------------------------------------------

    @property
    def config(self) -> MemoryConfig:
        """The store's `MemoryConfig` (assign a new one to change it on a live store)."""
        return self._services.ctx.config

    @config.setter
    def config(self, value: MemoryConfig) -> None:
        ctx = self._services.ctx
        ctx.config = value
        ctx.limits = WriteLimits.from_config(value)

    @property
    def limits(self) -> WriteLimits:
        """The input bounds derived from the config."""
        return self._services.ctx.limits

    @property
    def embeddings(self) -> Embeddings:
        """The embedding model."""
        return self._services.ctx.embeddings

    @property
    def model_id(self) -> str:
        """The identifier stored with each vector."""
        return self._services.ctx.model_id

    @property
    def clock(self) -> Callable[[], datetime]:
        """Returns "now"."""
        return self._services.ctx.clock

    @property
    def url(self) -> str:
        """The database URL."""
        return self._services.ctx.url

    @property
    def classifier(self) -> Any:
        """The second-opinion injection classifier, if any."""
        return self._services.ctx.classifier

    @property
    def schema_version(self) -> int:
        """The database schema version."""
        return self._services.ctx.schema_version

    @property
    def engine(self) -> sa.Engine:
        """The SQLAlchemy engine (for advanced use; the schema is private)."""
        return self._services.ctx.engine

    def index_cache_stats(self) -> IndexCacheStats:
        """Hits, misses, loads, evictions and bytes of this process's search-index cache."""
        return self._services.ctx.indexes.stats()

    def close(self) -> None:
        """Release database connections and drop the in-memory indexes."""
        self._services.ctx.close()

    async def aclose(self) -> None:
        """Async twin of `close`."""
        await run_sync(self.close)

    def __enter__(self) -> TieredMemoryStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- settings of services ---------------------------------------------------------------------

    @property
    def detect_contradictions(self) -> bool:
        """Check each new live SEMANTIC entry against its neighbours (default True)."""
        return self._services.contradictions.detect_contradictions

    @detect_contradictions.setter
    def detect_contradictions(self, value: bool) -> None:
        self._services.contradictions.detect_contradictions = value

    @property
    def contradiction_verifier(self) -> Verifier | None:
        """The verifier of on-write checks; None means the offline heuristics."""
        return self._services.contradictions.contradiction_verifier

    @contradiction_verifier.setter
    def contradiction_verifier(self, value: Verifier | None) -> None:
        self._services.contradictions.contradiction_verifier = value

    @property
    def write_check_limit(self) -> int:
        """Writes of more entries than this skip the on-write checks and links (default 100)."""
        return self._services.contradictions.write_check_limit

    @write_check_limit.setter
    def write_check_limit(self, value: int) -> None:
        self._services.contradictions.write_check_limit = value

    @property
    def auto_link(self) -> bool:
        """Link new entries to entries sharing a tag, an entity or a near meaning."""
        return self._services.lattice.auto_link

    @auto_link.setter
    def auto_link(self, value: bool) -> None:
        self._services.lattice.auto_link = value

    @property
    def link_min_similarity(self) -> float:
        """Cosine similarity from which a neighbour is linked automatically (default 0.8)."""
        return self._services.lattice.link_min_similarity

    @link_min_similarity.setter
    def link_min_similarity(self, value: float) -> None:
        self._services.lattice.link_min_similarity = value

    @property
    def knowledge_path(self) -> Path | None:
        """The ``.npz`` sidecar holding knowledge vectors (None: kept in memory)."""
        return self._services.knowledge.knowledge_path

    @knowledge_path.setter
    def knowledge_path(self, value: str | os.PathLike[str] | None) -> None:
        self._services.knowledge.knowledge_path = value

    # -- imports ---------------------------------------------------------------------------------

    def import_file(self, path: Any, *, namespace: str = "default", **kwargs: Any) -> Any:
        """Import a chat export; see `langchain_tiered_memory.importer.import_file`."""
        from ..importer import import_file

        return import_file(self, path, namespace=namespace, **kwargs)

    async def aimport_file(self, path: Any, **kwargs: Any) -> Any:
        """Async twin of `import_file`."""
        return await run_sync(self.import_file, path, **kwargs)

    # -- the services' methods -------------------------------------------------------------------

    # Writer
    add = _forward(lambda s: s.writer, Writer.add)
    aadd = _forward_async(lambda s: s.writer, Writer.add)
    add_many = _forward(lambda s: s.writer, Writer.add_many)
    aadd_many = _forward_async(lambda s: s.writer, Writer.add_many)

    # Reads
    get = _forward(lambda s: s.reads, Reads.get)
    aget = _forward_async(lambda s: s.reads, Reads.get)
    get_many = _forward(lambda s: s.reads, Reads.get_many)
    aget_many = _forward_async(lambda s: s.reads, Reads.get_many)
    list = _forward(lambda s: s.reads, Reads.list)
    alist = _forward_async(lambda s: s.reads, Reads.list)
    history = _forward(lambda s: s.reads, Reads.history)
    ahistory = _forward_async(lambda s: s.reads, Reads.history)
    audit_log = _forward(lambda s: s.reads, Reads.audit_log)
    aaudit_log = _forward_async(lambda s: s.reads, Reads.audit_log)
    namespaces = _forward(lambda s: s.reads, Reads.namespaces)
    anamespaces = _forward_async(lambda s: s.reads, Reads.namespaces)
    count = _forward(lambda s: s.reads, Reads.count)
    acount = _forward_async(lambda s: s.reads, Reads.count)

    # Edits
    update = _forward(lambda s: s.edits, Edits.update)
    aupdate = _forward_async(lambda s: s.edits, Edits.update)
    delete = _forward(lambda s: s.edits, Edits.delete)
    adelete = _forward_async(lambda s: s.edits, Edits.delete)
    pin = _forward(lambda s: s.edits, Edits.pin)
    apin = _forward_async(lambda s: s.edits, Edits.pin)
    unpin = _forward(lambda s: s.edits, Edits.unpin)
    aunpin = _forward_async(lambda s: s.edits, Edits.unpin)
    archive = _forward(lambda s: s.edits, Edits.archive)
    aarchive = _forward_async(lambda s: s.edits, Edits.archive)
    restore = _forward(lambda s: s.edits, Edits.restore)
    arestore = _forward_async(lambda s: s.edits, Edits.restore)

    # Recall
    search = _forward(lambda s: s.recall, Recall.search)
    asearch = _forward_async(lambda s: s.recall, Recall.search)
    reinforce = _forward(lambda s: s.recall, Recall.reinforce)
    areinforce = _forward_async(lambda s: s.recall, Recall.reinforce)

    # Episodes
    add_episode = _forward(lambda s: s.episodes, Episodes.add_episode)
    aadd_episode = _forward_async(lambda s: s.episodes, Episodes.add_episode)
    get_episode = _forward(lambda s: s.episodes, Episodes.get_episode)
    aget_episode = _forward_async(lambda s: s.episodes, Episodes.get_episode)
    list_episodes = _forward(lambda s: s.episodes, Episodes.list_episodes)
    alist_episodes = _forward_async(lambda s: s.episodes, Episodes.list_episodes)
    episode_ids_for_sessions = _forward(lambda s: s.episodes, Episodes.episode_ids_for_sessions)
    search_episodes = _forward(lambda s: s.episodes, Episodes.search_episodes)
    asearch_episodes = _forward_async(lambda s: s.episodes, Episodes.search_episodes)

    # EpisodeRetention
    prune_episodes = _forward(lambda s: s.retention, EpisodeRetention.prune_episodes)
    aprune_episodes = _forward_async(lambda s: s.retention, EpisodeRetention.prune_episodes)
    restore_episode = _forward(lambda s: s.retention, EpisodeRetention.restore_episode)
    arestore_episode = _forward_async(lambda s: s.retention, EpisodeRetention.restore_episode)

    # Lifecycle
    decay_pass = _forward(lambda s: s.lifecycle, Lifecycle.decay_pass)
    adecay_pass = _forward_async(lambda s: s.lifecycle, Lifecycle.decay_pass)
    lifecycle_state = _forward(lambda s: s.lifecycle, Lifecycle.lifecycle_state)
    alifecycle_state = _forward_async(lambda s: s.lifecycle, Lifecycle.lifecycle_state)
    touch = _forward(lambda s: s.lifecycle, Lifecycle.touch)
    atouch = _forward_async(lambda s: s.lifecycle, Lifecycle.touch)
    gc = _forward(lambda s: s.lifecycle, Lifecycle.gc)
    agc = _forward_async(lambda s: s.lifecycle, Lifecycle.gc)
    purge = _forward(lambda s: s.lifecycle, Lifecycle.purge)
    apurge = _forward_async(lambda s: s.lifecycle, Lifecycle.purge)

    # Lattice
    lineage = _forward(lambda s: s.lattice, Lattice.lineage)
    alineage = _forward_async(lambda s: s.lattice, Lattice.lineage)
    as_of = _forward(lambda s: s.lattice, Lattice.as_of)
    aas_of = _forward_async(lambda s: s.lattice, Lattice.as_of)
    link = _forward(lambda s: s.lattice, Lattice.link)
    alink = _forward_async(lambda s: s.lattice, Lattice.link)
    unlink = _forward(lambda s: s.lattice, Lattice.unlink)
    aunlink = _forward_async(lambda s: s.lattice, Lattice.unlink)
    linked = _forward(lambda s: s.lattice, Lattice.linked)
    alinked = _forward_async(lambda s: s.lattice, Lattice.linked)

    # Contradictions
    suspend_checks = _forward(lambda s: s.contradictions, Contradictions.suspend_checks)
    check_contradictions = _forward(lambda s: s.contradictions, Contradictions.check_contradictions)
    acheck_contradictions = _forward_async(
        lambda s: s.contradictions, Contradictions.check_contradictions
    )
    contradictions = _forward(lambda s: s.contradictions, Contradictions.contradictions)
    acontradictions = _forward_async(lambda s: s.contradictions, Contradictions.contradictions)
    resolve = _forward(lambda s: s.contradictions, Contradictions.resolve)
    aresolve = _forward_async(lambda s: s.contradictions, Contradictions.resolve)

    # ContextBlocks
    context_block = _forward(lambda s: s.context, ContextBlocks.context_block)
    acontext_block = _forward_async(lambda s: s.context, ContextBlocks.context_block)
    context = _forward(lambda s: s.context, ContextBlocks.context)
    acontext = _forward_async(lambda s: s.context, ContextBlocks.context)

    # Jobs
    enqueue_job = _forward(lambda s: s.jobs, Jobs.enqueue_job)
    aenqueue_job = _forward_async(lambda s: s.jobs, Jobs.enqueue_job)
    get_job = _forward(lambda s: s.jobs, Jobs.get_job)
    claim_job = _forward(lambda s: s.jobs, Jobs.claim_job)
    aclaim_job = _forward_async(lambda s: s.jobs, Jobs.claim_job)
    renew_lease = _forward(lambda s: s.jobs, Jobs.renew_lease)
    complete_job = _forward(lambda s: s.jobs, Jobs.complete_job)
    acomplete_job = _forward_async(lambda s: s.jobs, Jobs.complete_job)
    fail_job = _forward(lambda s: s.jobs, Jobs.fail_job)
    afail_job = _forward_async(lambda s: s.jobs, Jobs.fail_job)
    list_jobs = _forward(lambda s: s.jobs, Jobs.list_jobs)
    alist_jobs = _forward_async(lambda s: s.jobs, Jobs.list_jobs)
    resume_pending = _forward(lambda s: s.jobs, Jobs.resume_pending)
    aresume_pending = _forward_async(lambda s: s.jobs, Jobs.resume_pending)

    # Knowledge
    add_knowledge = _forward(lambda s: s.knowledge, Knowledge.add_knowledge)
    aadd_knowledge = _forward_async(lambda s: s.knowledge, Knowledge.add_knowledge)
    delete_knowledge = _forward(lambda s: s.knowledge, Knowledge.delete_knowledge)
    adelete_knowledge = _forward_async(lambda s: s.knowledge, Knowledge.delete_knowledge)
    reembed_knowledge = _forward(lambda s: s.knowledge, Knowledge.reembed_knowledge)
    areembed_knowledge = _forward_async(lambda s: s.knowledge, Knowledge.reembed_knowledge)
    knowledge_reembed_pending = _forward(lambda s: s.knowledge, Knowledge.knowledge_reembed_pending)
    get_knowledge = _forward(lambda s: s.knowledge, Knowledge.get_knowledge)
    aget_knowledge = _forward_async(lambda s: s.knowledge, Knowledge.get_knowledge)
    list_knowledge = _forward(lambda s: s.knowledge, Knowledge.list_knowledge)
    alist_knowledge = _forward_async(lambda s: s.knowledge, Knowledge.list_knowledge)
    knowledge_chunks = _forward(lambda s: s.knowledge, Knowledge.knowledge_chunks)

    # KnowledgeSearch
    search_knowledge = _forward(lambda s: s.knowledge_search, KnowledgeSearch.search_knowledge)
    asearch_knowledge = _forward_async(
        lambda s: s.knowledge_search, KnowledgeSearch.search_knowledge
    )
    search_with_knowledge = _forward(
        lambda s: s.knowledge_search, KnowledgeSearch.search_with_knowledge
    )
    asearch_with_knowledge = _forward_async(
        lambda s: s.knowledge_search, KnowledgeSearch.search_with_knowledge
    )

    # Reembed
    reembed_pending = _forward(lambda s: s.reembed, Reembed.reembed_pending)
    areembed_pending = _forward_async(lambda s: s.reembed, Reembed.reembed_pending)
    reembed = _forward(lambda s: s.reembed, Reembed.reembed)
    areembed = _forward_async(lambda s: s.reembed, Reembed.reembed)

    # Dumps
    export_records = _forward(lambda s: s.dumps, Dumps.export_records)
    import_records = _forward(lambda s: s.dumps, Dumps.import_records)

    # Sources
    get_source = _forward(lambda s: s.sources, Sources.get_source)
    list_sources = _forward(lambda s: s.sources, Sources.list_sources)
    record_source = _forward(lambda s: s.sources, Sources.record_source)
    current_contents = _forward(lambda s: s.sources, Sources.current_contents)
    pending_with_contents = _forward(lambda s: s.review, Review.pending_with_contents)
    write_import_batch = _forward(lambda s: s.sources, Sources.write_import_batch)
    pending_reviews = _forward(lambda s: s.review, Review.pending_reviews)
    apending_reviews = _forward_async(lambda s: s.review, Review.pending_reviews)
    approve = _forward(lambda s: s.review, Review.approve)
    aapprove = _forward_async(lambda s: s.review, Review.approve)
    reject = _forward(lambda s: s.review, Review.reject)
    areject = _forward_async(lambda s: s.review, Review.reject)
    memory_stats = _forward(lambda s: s.sources, Sources.memory_stats)
    amemory_stats = _forward_async(lambda s: s.sources, Sources.memory_stats)
