"""Sleep-time consolidation: a LangGraph pipeline, durable jobs, and a background scheduler.

- `build_consolidation_graph(store, llm=None)`: the compiled `StateGraph` (episode → facts →
  guarded writes → contradictions → decay); `consolidation_node` for users' own graphs.
- `ConsolidationScheduler`: runs consolidation in background threads (pending set, DURABLE /
  BEST_EFFORT, retries from a task factory, idle and manual triggers, resume after a crash).
- `enqueue_session` / `run_consolidation_job`: the durable-job layer on the store's ``tm_jobs``.
"""

from .graph import build_consolidation_graph
from .jobs import enqueue_session, run_consolidation_job, session_job_key
from .node import consolidation_node
from .pipeline import ConsolidationState
from .scheduler import ConsolidationScheduler, SchedulerStats, TaskPriority

__all__ = [
    "ConsolidationScheduler",
    "ConsolidationState",
    "SchedulerStats",
    "TaskPriority",
    "build_consolidation_graph",
    "consolidation_node",
    "enqueue_session",
    "run_consolidation_job",
    "session_job_key",
]
