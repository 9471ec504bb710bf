"""The README's Python snippets run as written (offline, with the bundled MiniLM).

Blocks that need something the test machine has not got (an OpenAI key, a PostgreSQL server)
are skipped by content; every other block runs, in order, in a temporary directory.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import langchain_tiered_memory.store._shared as store_core
from langchain_tiered_memory.embeddings import LocalEmbeddings
from tests.docs.test_docs import python_blocks

README = Path(__file__).resolve().parents[2] / "README.md"
_NEEDS_SERVICE = ("langchain_openai", "postgresql")


def test_readme_snippets_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, minilm: LocalEmbeddings
) -> None:
    monkeypatch.chdir(tmp_path)
    # The snippets build stores with the default embeddings: share the session's loaded model.
    monkeypatch.setattr(store_core, "LocalEmbeddings", lambda *a, **k: minilm)
    (tmp_path / "memory.json").write_text(json.dumps({"memory.rerankTopK": 5}))
    blocks = python_blocks(README.read_text(encoding="utf-8"))
    runnable = [b for b in blocks if not any(s in b for s in _NEEDS_SERVICE)]
    assert len(runnable) >= 3  # usage, configuration, integration
    namespace: dict[str, Any] = {"__name__": "readme"}
    for i, block in enumerate(runnable):
        exec(compile(block, f"README.md[block {i}]", "exec"), namespace)
    store = namespace["store"]
    # What the integration block promises: the session was consolidated (not merely queued).
    assert [j.status for j in store.list_jobs(namespace="alice")] == ["done"]
    assert "Lyon" in store.context("alice", query="where does she live?")
    store.close()
