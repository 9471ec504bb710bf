"""The LangGraph examples run offline and do what their transcripts say."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from langchain_tiered_memory import ProvenanceLevel, TieredMemoryStore, WritePath
from langchain_tiered_memory.embeddings import LocalEmbeddings

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
ROOT = EXAMPLES.parent

# Every example as a user runs it (``python examples/x.py``), all in one interpreter so torch is
# imported once; each loads the model itself, as a user's first run does.
_RUN_ALL = """
import runpy, sys
for path in sys.argv[1:]:
    print("@@ example " + path, flush=True)
    runpy.run_path(path, run_name="__main__")
"""


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_react_agent_example(tmp_path: Path, minilm: LocalEmbeddings) -> None:
    db = tmp_path / "agent.db"
    out = _load("react_agent").main(db, embeddings=minilm)
    transcript = "\n".join(out["transcript"])
    # Session 1: one memory saved, the injected one refused with the reason.
    assert "tool[save_memory, success]: Saved memory" in transcript
    assert "tool[save_memory, error]: Not written" in transcript and "en_injection" in transcript
    assert out["memories"] == ["The user is allergic to peanuts"]
    # Session 2: the BaseStore adapter put it in the prompt, and the search tool found it.
    assert out["prompts"][0] == []
    assert "The user is allergic to peanuts" in out["prompts"][-1]
    search = next(line for line in out["transcript"] if line.startswith("tool[search_memory"))
    assert "The user is allergic to peanuts" in search
    with TieredMemoryStore(f"sqlite:///{db}", embeddings=minilm) as store:
        [entry] = store.list(namespace="user.alice")
        assert entry.source == ProvenanceLevel.MODEL_INFERRED
        actors = {a["actor"] for a in store.audit_log(namespace="user.alice")}
        assert WritePath.AGENT_TOOL.value in actors
        assert any(a["action"] == "blocked" for a in store.audit_log(namespace="user.alice"))


def test_basestore_graph_example(tmp_path: Path, minilm: LocalEmbeddings) -> None:
    db = tmp_path / "graph.db"
    transcript = _load("basestore_graph").main(db, embeddings=minilm)
    replies = dict(zip(transcript[::2], transcript[1::2], strict=True))
    assert replies["alice: Where does my sister live?"] == (
        "graph: From memory: my sister Chloe lives in Montreal."
    )
    assert replies["bob: Where does my sister live?"] == (
        "graph: From memory: my sister Chloe lives in Oslo."
    )
    assert replies["alice: Which instrument do I play?"] == (
        "graph: From memory: I play the cello on Sundays."
    )
    with TieredMemoryStore(f"sqlite:///{db}", embeddings=minilm) as store:
        assert store.count(namespace="memories.alice") == 2
        assert store.count(namespace="memories.bob") == 1
        [audit] = store.audit_log(namespace="memories.bob")
        assert audit["actor"] == WritePath.LANGGRAPH_STORE.value


def test_agent_middleware_example(tmp_path: Path, minilm: LocalEmbeddings) -> None:
    out = _load("agent_middleware").main(tmp_path / "mw.db", embeddings=minilm)
    fact = next(s for s in out["semantic"] if "green tea" in s)
    # Session 2 began with an empty working buffer: the fact came from the SEMANTIC entry.
    assert fact in out["system"]
    assert "## Working memory" not in out["system"]
    assert out["system"].startswith("You are a helpful assistant.")


def test_examples_run_as_scripts_with_a_clean_stderr(tmp_path: Path) -> None:
    scripts = sorted(str(p) for p in EXAMPLES.glob("[!_]*.py"))
    assert len(scripts) >= 5
    env = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}  # the offline models
    env.update(
        PYTHONPATH=f"{ROOT}{os.pathsep}{EXAMPLES}",
        TMPDIR=str(tmp_path),  # the examples' temporary databases
        HF_HUB_OFFLINE="1",
        TRANSFORMERS_OFFLINE="1",
        TOKENIZERS_PARALLELISM="false",
    )
    done = subprocess.run(
        # -W default: deprecation and other warnings are printed, not hidden.
        [sys.executable, "-W", "default", "-c", _RUN_ALL, *scripts],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.count("@@ example ") == len(scripts)
    # No warnings, and no "Loading weights: 100%|…" bar when the model loads.
    assert done.stderr == "", done.stderr[-3000:]
