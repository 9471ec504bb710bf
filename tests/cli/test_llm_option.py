"""`--llm provider:model` for import and consolidate, and the server's ``llm`` (issue 17)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import langchain.chat_models
import pytest
from fastapi.testclient import TestClient
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from typer.testing import CliRunner

from langchain_tiered_memory import TieredMemoryStore
from langchain_tiered_memory.cli import app
from langchain_tiered_memory.server import create_app
from tests.helpers import HashEmbeddings

EXPORTS = Path(__file__).parents[1] / "data" / "exports"
# A fact no heuristic finds in the export: it can only come from the model.
MODEL_FACT = "User keeps bees on the roof"
ANSWER = json.dumps(
    {
        "facts": [
            {
                "content": MODEL_FACT,
                "key": "hobby.beekeeping",
                "kind": "preference",
                "confidence": 0.9,
                "source_index": 0,
            }
        ]
    }
)


@pytest.fixture(autouse=True)
def _env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TIERED_MEMORY_EMBEDDINGS", "hash")
    monkeypatch.setenv("TIERED_MEMORY_RERANK_ENABLED", "false")
    monkeypatch.delenv("TIERED_MEMORY_DB", raising=False)
    monkeypatch.delenv("TIERED_MEMORY_LLM", raising=False)


def _invoke(*args: str) -> Any:
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


def _contents(db: Path, namespace: str) -> list[str]:
    store = TieredMemoryStore(db, embeddings=HashEmbeddings())
    try:
        return [e.content for e in store.list(namespace=namespace)]
    finally:
        store.close()


def test_unknown_provider_imports_with_the_heuristics_and_says_so(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    export = str(EXPORTS / "chatgpt_conversations.json")
    result = _invoke(
        "import",
        export,
        "--db",
        str(db),
        "-n",
        "dana",
        "--json",
        "--llm",
        "nosuchprovider:some-model",
    )
    report = json.loads(result.stdout)
    assert report["extractor"] == "heuristic" and report["facts_active"] == 3
    assert "nosuchprovider:some-model" in result.stderr
    assert "using the offline heuristics" in result.stderr
    assert "User prefers dark roast coffee" in _contents(db, "dana")

    consolidated = _invoke(
        "consolidate", "--db", str(db), "-n", "dana", "--json", "--llm", "nosuchprovider:some-model"
    )
    assert json.loads(consolidated.stdout)["extractor"] == "heuristic"
    assert "using the offline heuristics" in consolidated.stderr


def test_a_model_that_loads_is_used_for_extraction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[str] = []

    def fake_init(spec: str, **_: Any) -> FakeListChatModel:
        asked.append(spec)
        return FakeListChatModel(responses=[ANSWER])

    monkeypatch.setattr(langchain.chat_models, "init_chat_model", fake_init)
    monkeypatch.setenv("TIERED_MEMORY_LLM", "fake:bees")  # the env var names the model too
    db = tmp_path / "m.db"
    result = _invoke(
        "import",
        str(EXPORTS / "chatgpt_conversations.json"),
        "--db",
        str(db),
        "-n",
        "dana",
        "--json",
    )
    assert asked == ["fake:bees"]
    assert json.loads(result.stdout)["extractor"] == "llm"
    assert "warning" not in result.stderr
    assert MODEL_FACT in _contents(db, "dana")


def test_the_server_extracts_with_its_llm(tmp_path: Path) -> None:
    store = TieredMemoryStore(tmp_path / "m.db", embeddings=HashEmbeddings())
    api = create_app(
        store, tokens={"t": "dana"}, warm=False, llm=FakeListChatModel(responses=[ANSWER])
    )
    with TestClient(api) as client:
        r = client.post(
            "/api/memory/ingest",
            headers={"Authorization": "Bearer t"},
            json={
                "messages": [
                    {"role": "user", "content": "Hello there."},
                    {"role": "assistant", "content": "Hi!"},
                ]
            },
        )
    assert r.status_code == 200, r.text
    assert [e.content for e in store.list(namespace="dana")] == [MODEL_FACT]
    store.close()


@pytest.mark.parametrize("name", ["TIERED_MEMORY_LLM", "TIERED_MEMORY_CHAT_MODEL"])
def test_the_model_variables_are_not_read_as_store_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    # Regression: every other TIERED_MEMORY_* variable is a config key, and an unknown key fails.
    monkeypatch.setenv(name, "nosuchprovider:x")
    monkeypatch.setattr(langchain.chat_models, "init_chat_model", _refuse)
    _invoke("stats", "--db", str(tmp_path / "m.db"), "--json")


def _refuse(spec: str, **_: Any) -> Any:
    raise AssertionError(f"stats must not build a model ({spec})")
