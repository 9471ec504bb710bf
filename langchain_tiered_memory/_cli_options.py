"""Options shared by the `tiered-memory` commands (typer annotations)."""

from __future__ import annotations

import enum
from typing import Annotated

import typer

__all__ = ["Db", "Emb", "Json", "Llm", "Ns", "NsAll", "SearchMode"]

Db = Annotated[
    str | None,
    typer.Option("--db", help="SQLAlchemy URL or file path (env TIERED_MEMORY_DB)."),
]
Ns = Annotated[str, typer.Option("--namespace", "-n", help="Whose memory.")]
NsAll = Annotated[
    str | None, typer.Option("--namespace", "-n", help="One namespace (default: all).")
]
Json = Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")]
Llm = Annotated[
    str | None,
    typer.Option(
        "--llm",
        help="provider:model (langchain's init_chat_model) for fact extraction, summaries and "
        "contradiction checks (env TIERED_MEMORY_LLM); without one, or if it cannot be "
        "loaded, the offline heuristics.",
    ),
]
Emb = Annotated[
    str | None,
    typer.Option(
        "--embeddings",
        hidden=True,
        help="minilm (default) or hash (fast, for tests) (env TIERED_MEMORY_EMBEDDINGS).",
    ),
]


class SearchMode(str, enum.Enum):
    """Recall mode of ``search`` (checked when the command line is parsed, before any load)."""

    HYBRID = "hybrid"
    KEYWORD = "keyword"
    VECTOR = "vector"
