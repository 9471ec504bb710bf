"""The export-format registry: adding a format is one converter and one registration."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from langchain_tiered_memory import TieredMemoryStore
from langchain_tiered_memory.errors import InvalidInput
from langchain_tiered_memory.ingest import (
    Conversation,
    ExportFormat,
    FormatRegistry,
    NormalizedMessage,
    ParseReport,
    detect_format,
    format_names,
    iter_conversations,
    register_format,
)
from langchain_tiered_memory.ingest.reader import FORMAT_REGISTRY
from langchain_tiered_memory.server.app import create_app

# A made-up chat log: {"log": [{"who": "me"|"bot", "said": "..."}], "chat": "<id>"}.
CHATLOG = {"chat": "c-1", "log": [{"who": "me", "said": "My name is Zoe and I live in Porto."},
                                  {"who": "bot", "said": "Hello Zoe."}]}


def _chatlog(obj: Any, position: int, report: ParseReport) -> Conversation:
    if not isinstance(obj, dict) or not isinstance(obj.get("log"), list):
        raise InvalidInput("conversation", "no log")
    conv_id = str(obj.get("chat") or position)
    messages = tuple(
        NormalizedMessage("user" if m["who"] == "me" else "assistant", m["said"], None, conv_id,
                          "chatlog", i)
        for i, m in enumerate(obj["log"])
    )
    return Conversation(conv_id, "chatlog", None, messages)


CHATLOG_FORMAT = ExportFormat("chatlog", convert=_chatlog, aliases=("chat-log",),
                              sniff=lambda head: '"log"' in head and '"who"' in head,
                              priority=35)


@pytest.fixture
def chatlog() -> Iterator[ExportFormat]:
    register_format(CHATLOG_FORMAT)
    try:
        yield CHATLOG_FORMAT
    finally:
        FORMAT_REGISTRY.remove("chatlog")


def test_builtin_names_aliases_and_sniffing(tmp_path: Path) -> None:
    assert {"chatgpt", "claude", "gemini", "json", "jsonl", "text"} <= set(format_names())
    assert FORMAT_REGISTRY.get("OpenAI").name == "chatgpt"
    assert FORMAT_REGISTRY.get(" plaintext ").name == "text"
    with pytest.raises(InvalidInput, match="expected one of chatgpt"):
        FORMAT_REGISTRY.get("bogus")
    cases = {
        "a.txt": "User: hi\nAssistant: hello\n",
        "b.jsonl": '{"role": "user", "content": "hi"}\n{"role": "assistant", "content": "yo"}\n',
        "c.json": json.dumps([{"mapping": {}, "current_node": None}]),
        "d.json": json.dumps([{"chat_messages": []}]),
        "e.json": json.dumps({"messages": [{"role": "user", "content": "hi"}]}),
        "f.json": "   ",
    }
    for name, text in cases.items():
        (tmp_path / name).write_text(text)
    found = {name: detect_format(tmp_path / name) for name in cases}
    assert found == {"a.txt": "text", "b.jsonl": "jsonl", "c.json": "chatgpt",
                     "d.json": "claude", "e.json": "json", "f.json": "empty"}
    # Bytes are sniffed like files.
    assert detect_format(cases["b.jsonl"].encode()) == "jsonl"


def test_a_registry_refuses_a_name_twice_and_sniffs_by_priority() -> None:
    registry = FormatRegistry((CHATLOG_FORMAT,))
    with pytest.raises(InvalidInput, match="already registered"):
        registry.register(ExportFormat("other", convert=_chatlog, aliases=("CHAT-LOG",)))
    loose = ExportFormat("loose", convert=_chatlog, sniff=lambda head: True, priority=99)
    registry.register(loose)
    assert registry.sniff('{"log": [{"who": "me"}]}') == "chatlog"
    assert registry.sniff("anything else") == "loose"
    registry.register(ExportFormat("chatlog", convert=_chatlog, priority=1), replace=True)
    assert registry.get("chatlog").priority == 1
    with pytest.raises(InvalidInput, match="exactly one of convert and read"):
        ExportFormat("neither")


def test_a_registered_format_is_sniffed_and_imported(
    chatlog: ExportFormat, store: TieredMemoryStore, tmp_path: Path
) -> None:
    path = tmp_path / "export.json"
    path.write_text(json.dumps([CHATLOG, {**CHATLOG, "chat": "c-2"}]))
    assert detect_format(path) == "chatlog"
    [first, _] = list(iter_conversations(path))
    assert first.id == "c-1" and first.messages[0].role == "user"
    report = store.import_file(path, namespace="zoe")
    assert report.format == "chatlog" and report.conversations == 2 and report.episodes == 2
    keys = {e.key for e in store.list(namespace="zoe")}
    assert {"identity.name", "location.home"} <= keys


def test_the_server_and_cli_read_the_list_from_the_registry(
    chatlog: ExportFormat, store: TieredMemoryStore
) -> None:
    from typer.testing import CliRunner

    from langchain_tiered_memory.cli import app as cli_app

    client = TestClient(create_app(store, tokens={"t": "zoe"}, warm=False))
    r = client.post("/api/memory/ingest", headers={"Authorization": "Bearer t"},
                    json={"export": [CHATLOG], "format": "chat-log"})
    assert r.status_code == 200 and r.json()["format"] == "chatlog", r.text
    r = client.post("/api/memory/ingest", headers={"Authorization": "Bearer t"},
                    json={"export": [CHATLOG], "format": "nope"})
    assert r.status_code == 422 and "chatlog" in r.text
    # The CLI's help names every registered format (read when the CLI module was built).
    help_text = CliRunner().invoke(cli_app, ["import", "--help"], terminal_width=200).output
    assert all(name in help_text for name in ("chatgpt", "jsonl", "text"))


def test_a_line_format_reads_bytes_without_a_file(store: TieredMemoryStore) -> None:
    from langchain_tiered_memory.importer import import_bytes
    from langchain_tiered_memory.ingest import ExportSource

    def read_csv(source: ExportSource, report: ParseReport, _depth: int) -> Iterator[Conversation]:
        with source.open_text() as fh:
            rows = [line.rstrip("\n").split(",", 1) for line in fh][1:]
        messages = tuple(
            NormalizedMessage("user" if who == "me" else "assistant", text, None, source.stem,
                              "csv", i)
            for i, (who, text) in enumerate(rows)
        )
        yield Conversation(source.stem, "csv", None, messages)

    register_format(ExportFormat("csvchat", read=read_csv, priority=-1,
                                 sniff=lambda head: head.startswith("speaker,text")))
    try:
        data = b"speaker,text\nme,My name is Ines and I prefer green tea.\nbot,Hi Ines.\n"
        assert detect_format(data) == "csvchat"
        report = import_bytes(store, data, name="chat.csv", namespace="ines")
        assert report.format == "csvchat" and report.episodes == 1 and report.facts_active >= 2
        assert report.path == "chat.csv"
        again = import_bytes(store, data, name="chat.csv", namespace="ines")
        assert again.skipped  # the same bytes are the same source
    finally:
        FORMAT_REGISTRY.remove("csvchat")
    assert "csvchat" not in format_names()
