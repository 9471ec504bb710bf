"""Export parsers: every sample format, branch selection, broken files, streaming memory."""

from __future__ import annotations

import hashlib
import json
import tracemalloc
from datetime import datetime, timezone
from pathlib import Path

import pytest

from langchain_tiered_memory.ingest import (
    Conversation,
    ParseReport,
    detect_format,
    file_sha256,
    iter_conversations,
    parse_file,
)

EXPORTS = Path(__file__).resolve().parents[1] / "data" / "exports"


def _texts(convs: list[Conversation]) -> list[tuple[str, str]]:
    return [(m.role, m.content) for c in convs for m in c.messages]


@pytest.mark.parametrize(
    ("name", "fmt"),
    [
        ("chatgpt_conversations.json", "chatgpt"),
        ("claude_export.json", "claude"),
        ("gemini_api.json", "gemini"),
        ("gemini_takeout.json", "gemini"),
        ("messages.json", "json"),
        ("messages.jsonl", "jsonl"),
        ("conversations.jsonl", "jsonl"),
        ("transcript.txt", "text"),
        ("broken_empty.json", "empty"),
        ("broken_lines.jsonl", "jsonl"),
    ],
)
def test_detect_format(name: str, fmt: str) -> None:
    assert detect_format(EXPORTS / name) == fmt


def test_chatgpt_follows_current_branch_and_keeps_text_parts() -> None:
    convs, report = parse_file(EXPORTS / "chatgpt_conversations.json")
    assert report.ok and report.conversations == 2 and report.messages == 7
    first = convs[0]
    assert first.id == "conv-dana-1" and first.title == "Coffee and dark mode"
    contents = [m.content for m in first.messages]
    assert contents[0] == "Hi! My name is Dana and I prefer dark roast coffee."
    assert not any("ABANDONED" in c for c in contents)  # the edited-away branch is not imported
    assert contents[2] == "[image]\nHere is my desk setup. I live in Lisbon."
    assert [m.role for m in first.messages] == ["user", "assistant", "user", "tool", "assistant"]
    assert [m.position for m in first.messages] == [0, 1, 2, 3, 4]
    assert first.messages[0].timestamp == datetime(2024, 5, 1, 8, 0, 0, 500000, tzinfo=timezone.utc)
    assert all(m.platform == "chatgpt" and m.conversation_id == first.id for m in first.messages)
    # hidden system node and hidden reasoning ("thoughts") are skipped and counted
    assert report.skipped_messages == 2
    # no current_node: the latest leaf is used; a null create_time gives a None timestamp
    assert _texts(convs[1:]) == [
        ("user", "Can you explain Rust lifetimes?"),
        ("assistant", "Lifetimes describe how long references stay valid."),
    ]
    assert convs[1].messages[1].timestamp is None and convs[1].title is None


def test_chatgpt_cycle_in_mapping_terminates() -> None:
    conv = {
        "id": "loop",
        "current_node": "a",
        "mapping": {
            "a": {"parent": "b", "message": {"author": {"role": "user"},
                                             "content": {"parts": ["one"]}}},
            "b": {"parent": "a", "message": {"author": {"role": "assistant"},
                                             "content": {"parts": ["two"]}}},
        },
    }
    from langchain_tiered_memory.ingest.chatgpt import chatgpt_conversation

    out = chatgpt_conversation(conv, 0, ParseReport())
    assert [m.content for m in out.messages] == ["two", "one"]


def test_claude_export() -> None:
    convs, report = parse_file(EXPORTS / "claude_export.json")
    assert report.ok and [c.id for c in convs] == ["c-1", "c-2"]
    assert convs[0].title == "Trip planning" and convs[1].messages == ()
    assert _texts(convs) == [
        ("user", "I'm allergic to peanuts, keep that in mind for restaurant tips."),
        ("assistant", "Noted. I will avoid places known for peanut sauces."),  # tool_use dropped
    ]
    assert convs[0].messages[1].timestamp == datetime(2024, 5, 2, 9, 0, 5, tzinfo=timezone.utc)


def test_gemini_api_log_and_takeout() -> None:
    convs, _ = parse_file(EXPORTS / "gemini_api.json")
    assert [m.role for m in convs[0].messages] == ["system", "user", "assistant", "user"]
    assert convs[0].messages[3].content == "[image]\nWhat is in this picture?"
    takeout, report = parse_file(EXPORTS / "gemini_takeout.json")
    assert report.ok and len(takeout) == 2
    assert _texts(takeout[:1]) == [("user", "我叫李雷，我住在上海。"), ("assistant", "你好，李雷！上海是个&好地方。")]
    assert takeout[1].messages[1].content == "A monad is a design pattern."


def test_generic_messages_json_with_part_lists() -> None:
    convs, _ = parse_file(EXPORTS / "messages.json")
    assert convs[0].id == "generic-1" and convs[0].title == "API log"
    assert _texts(convs)[1] == ("user", "We'll use PostgreSQL for the database.\n[image]")
    assert [m.role for m in convs[0].messages] == ["system", "user", "assistant", "tool"]


def test_jsonl_groups_message_lines_and_reads_conversation_lines() -> None:
    convs, _ = parse_file(EXPORTS / "messages.jsonl")
    assert [(c.id, len(c.messages)) for c in convs] == [("s1", 2), ("s2", 2)]
    convs, _ = parse_file(EXPORTS / "conversations.jsonl")
    assert [c.id for c in convs] == ["L1", "L2"]
    assert _texts(convs)[2] == ("user", "my goal is to run a marathon")  # ShareGPT from/value


def test_plain_text_multiline_turns_and_chinese_prefixes() -> None:
    convs, report = parse_file(EXPORTS / "transcript.txt")
    assert report.ok and len(convs) == 2 and convs[0].title == "Morning chat"
    assert convs[0].messages[0].content == "Hello there.\nI'm a data engineer and I live in Toronto."
    assert convs[0].messages[1].content.endswith("- walk by the lake")
    assert _texts(convs[1:]) == [
        ("user", "我叫王芳，我喜欢喝绿茶。"),
        ("assistant", "你好王芳！"),
        ("user", "我的目标是明年学会游泳。"),
    ]


def test_plain_text_without_turns_is_a_problem(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("just some notes\nnothing else\n", encoding="utf-8")
    convs, report = parse_file(path)
    assert convs == [] and report.problems[0].position == 1


def test_truncated_json_yields_what_came_before() -> None:
    convs, report = parse_file(EXPORTS / "broken_truncated.json")
    assert [c.id for c in convs] == ["conv-dana-1"]
    assert report.truncated and not report.ok
    assert report.problems[0].position == 1


def test_malformed_conversations_are_reported_not_fatal() -> None:
    convs, report = parse_file(EXPORTS / "broken_mapping.json")
    assert [c.id for c in convs] == ["conv-dana-1", "conv-2"]
    assert [(p.position, p.conversation_id) for p in report.problems] == [
        (1, "bad-mapping"),
        (2, None),
        (3, "no-mapping"),
    ]
    assert report.to_dict()["conversations"] == 2


def test_wrong_types_are_skipped_and_counted() -> None:
    convs, report = parse_file(EXPORTS / "broken_wrong_types.json")
    assert _texts(convs) == [("user", "I hate cilantro."), ("assistant", "ok")]
    assert report.skipped_messages == 4


def test_empty_file_and_bad_jsonl_lines() -> None:
    convs, report = parse_file(EXPORTS / "broken_empty.json")
    assert convs == [] and report.problems[0].message == "file is empty"
    convs, report = parse_file(EXPORTS / "broken_lines.jsonl")
    assert [m.content for c in convs for m in c.messages] == ["I prefer tea.", "Tea it is."]
    assert [p.position for p in report.problems] == [2]


def test_format_override_and_unknown_format() -> None:
    convs, report = parse_file(EXPORTS / "transcript.txt", format="txt")
    assert report.format == "text" and len(convs) == 2
    # forcing ChatGPT on a Claude file reports each conversation as malformed
    convs, report = parse_file(EXPORTS / "claude_export.json", format="chatgpt")
    assert convs == [] and len(report.problems) == 2
    with pytest.raises(ValueError, match="unknown export format"):
        parse_file(EXPORTS / "transcript.txt", format="docx")


def test_report_is_filled_while_streaming() -> None:
    report = ParseReport()
    it = iter_conversations(EXPORTS / "chatgpt_conversations.json", report=report)
    next(it)
    assert report.conversations == 1 and report.format == "chatgpt"
    list(it)
    assert report.conversations == 2


def test_file_sha256_matches_hashlib() -> None:
    path = EXPORTS / "chatgpt_conversations.json"
    assert file_sha256(path) == hashlib.sha256(path.read_bytes()).hexdigest()


def test_wrapper_object_and_dict_of_conversations(tmp_path: Path) -> None:
    wrapped = tmp_path / "wrapped.json"
    wrapped.write_text(json.dumps({"conversations": [
        {"id": "w1", "messages": [{"role": "user", "content": "hi"}]},
        {"id": "w2", "messages": [{"role": "assistant", "content": "yo"}]},
    ]}))
    assert [c.id for c in parse_file(wrapped)[0]] == ["w1", "w2"]
    keyed = tmp_path / "keyed.json"
    keyed.write_text(json.dumps({"k1": {"messages": [{"role": "user", "content": "a"}]},
                                 "k2": {"messages": [{"role": "user", "content": "b"}]}}))
    assert [c.id for c in parse_file(keyed)[0]] == ["k1", "k2"]


def _write_big_export(path: Path, conversations: int, per: int) -> None:
    with path.open("w", encoding="utf-8") as fh:
        fh.write("[")
        for c in range(conversations):
            mapping = {"root": {"parent": None, "children": ["m0"], "message": None}}
            parent = "root"
            for i in range(per):
                mapping[f"m{i}"] = {
                    "parent": parent,
                    "children": [f"m{i + 1}"] if i + 1 < per else [],
                    "message": {"author": {"role": "user" if i % 2 == 0 else "assistant"},
                                "create_time": 1.7e9 + i,
                                "content": {"content_type": "text", "parts": ["word " * 80]}},
                }
                parent = f"m{i}"
            conv = {"id": f"c{c}", "mapping": mapping, "current_node": parent}
            fh.write(("," if c else "") + json.dumps(conv))
        fh.write("]")


def test_streaming_memory_stays_flat(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    _write_big_export(path, conversations=600, per=20)  # ~12,000 messages, ~6 MB
    size = path.stat().st_size
    tracemalloc.start()
    try:
        count = sum(len(c.messages) for c in iter_conversations(path))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count == 12_000
    assert peak < size / 10, (peak, size)  # json.load would need several times the file size
