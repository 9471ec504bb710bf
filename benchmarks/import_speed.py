"""Import speed and memory: streaming a big synthetic ChatGPT export.

Generates a ChatGPT ``conversations.json`` with ``--messages`` messages (default 100,000; 20 per
conversation, each conversation with one abandoned branch, some multimodal parts, English and
Chinese text), then, each in a fresh subprocess so peak RSS is its own:

* ``idle``: the interpreter with the package imported (the RSS floor);
* ``stream``: `iter_conversations` over the file (this project: ijson, one conversation at a time);
* ``stream+extract``: the same plus heuristic `extract_facts` on every conversation;
* ``json.load`` baseline: load the whole file, then walk it with the same converter.

Prints messages/s and peak RSS for each. Target: >= 2,000 messages/s for parsing, and peak RSS
that does not grow with the file (compare stream with json.load, and across ``--messages``).

Usage: ``python benchmarks/import_speed.py [--messages N] [--keep PATH]``
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, TextIO

_WORDS = ["memory", "model", "vector", "search", "coffee", "rust", "python", "travel", "budget", "meeting", "project", "deadline", "database", "query", "index", "latency", "garden", "recipe", "music", "guitar", "marathon", "training", "schedule"]
_ZH = ["我喜欢喝绿茶", "我们决定用数据库", "今天天气很好", "这个问题怎么解决", "我住在上海"]
_FACTS = [
    "I prefer dark roast coffee.",
    "My name is Dana.",
    "I live in Lisbon.",
    "I'm allergic to peanuts.",
    "We'll use PostgreSQL for the database.",
]


def _sentence(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.1:
        return rng.choice(_FACTS)
    if roll < 0.2:
        return rng.choice(_ZH) + "。"
    return " ".join(rng.choice(_WORDS) for _ in range(rng.randint(6, 18))).capitalize() + "."


def _node(node_id: str, parent: str | None, children: list[str], role: str, parts: list[Any],
          stamp: float) -> dict[str, Any]:
    return {
        "id": node_id,
        "parent": parent,
        "children": children,
        "message": {
            "id": node_id,
            "author": {"role": role, "name": None, "metadata": {}},
            "create_time": stamp,
            "content": {"content_type": "text", "parts": parts},
            "metadata": {"model_slug": "gpt-4o"},
        },
    }


def _conversation(index: int, n_messages: int, rng: random.Random) -> dict[str, Any]:
    stamp = 1_700_000_000.0 + index * 3600
    mapping: dict[str, Any] = {
        "root": {"id": "root", "parent": None, "children": ["m0"], "message": None}
    }
    parent = "root"
    for i in range(n_messages):
        node_id = f"m{i}"
        role = "user" if i % 2 == 0 else "assistant"
        parts: list[Any] = [" ".join(_sentence(rng) for _ in range(rng.randint(1, 4)))]
        if rng.random() < 0.05:
            parts.insert(0, {"content_type": "image_asset_pointer", "asset_pointer": "file-x"})
        children = [f"m{i + 1}"] if i + 1 < n_messages else []
        if i == 1:
            children.append("abandoned")
            mapping["abandoned"] = _node("abandoned", "m0", [], "assistant", ["old"], stamp)
        mapping[node_id] = _node(node_id, parent, children, role, parts, stamp + i)
        parent = node_id
    return {
        "title": f"Conversation {index}",
        "create_time": stamp,
        "update_time": stamp + n_messages,
        "mapping": mapping,
        "current_node": parent,
        "conversation_id": f"conv-{index}",
    }


def generate(path: Path, n_messages: int, per_conversation: int = 20, seed: int = 7) -> int:
    """Write a synthetic export conversation by conversation (never all in memory)."""
    rng = random.Random(seed)
    written = 0
    with path.open("w", encoding="utf-8") as fh:
        fh.write("[")
        index = 0
        while written < n_messages:
            n = min(per_conversation, n_messages - written)
            _write_item(fh, _conversation(index, n, rng), first=index == 0)
            written += n
            index += 1
        fh.write("]")
    return written


def _write_item(fh: TextIO, obj: Any, *, first: bool) -> None:
    if not first:
        fh.write(",\n")
    fh.write(json.dumps(obj, ensure_ascii=False))


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # KiB on Linux


def _worker(mode: str, path: str) -> None:
    from langchain_tiered_memory.ingest import ParseReport, iter_conversations
    from langchain_tiered_memory.ingest.chatgpt import chatgpt_conversation
    from langchain_tiered_memory.ingest.extraction import extract_facts

    start = time.perf_counter()
    messages = facts = 0
    if mode == "stream":
        for conv in iter_conversations(path, format="chatgpt"):
            messages += len(conv.messages)
    elif mode == "stream+extract":
        for conv in iter_conversations(path, format="chatgpt"):
            messages += len(conv.messages)
            facts += len(extract_facts(conv.messages))
    elif mode == "json.load":
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
        report = ParseReport()
        for i, obj in enumerate(data):
            messages += len(chatgpt_conversation(obj, i, report).messages)
    elapsed = time.perf_counter() - start
    print(json.dumps({"messages": messages, "facts": facts, "seconds": elapsed,
                      "peak_rss_mb": _peak_rss_mb()}))


def _run(mode: str, path: Path) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, __file__, "--worker", mode, str(path)],
        check=True, capture_output=True, text=True,
    )
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def main(argv: list[str] | None = None) -> int:
    """Generate the export, run each mode in its own process, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--keep", type=Path, help="write the export here and keep it")
    parser.add_argument("--worker", nargs=2, metavar=("MODE", "PATH"), help=argparse.SUPPRESS)
    parser.add_argument("--skip-baseline", action="store_true", help="do not run json.load")
    args = parser.parse_args(argv)
    if args.worker:
        _worker(*args.worker)
        return 0
    tmpdir = tempfile.TemporaryDirectory()
    path = args.keep or Path(tmpdir.name) / "conversations.json"
    start = time.perf_counter()
    n = generate(path, args.messages)
    size_mb = os.path.getsize(path) / 1e6
    print(f"data: synthetic ChatGPT export, {n:,} messages in {n // 20:,} conversations, "
          f"{size_mb:.1f} MB (generated in {time.perf_counter() - start:.1f} s)")
    modes = ["idle", "stream", "stream+extract"] + ([] if args.skip_baseline else ["json.load"])
    print(f"{'mode':<26}{'messages':>10}{'seconds':>9}{'msg/s':>10}{'peak RSS MB':>13}")
    results = {}
    for mode in modes:
        r = _run(mode, path)
        results[mode] = r
        rate = r["messages"] / r["seconds"] if r["seconds"] and r["messages"] else 0.0
        label = mode + (" (baseline)" if mode == "json.load" else "")
        extra = f"  facts={r['facts']}" if r["facts"] else ""
        print(f"{label:<26}{r['messages']:>10,}{r['seconds']:>9.2f}{rate:>10,.0f}"
              f"{r['peak_rss_mb']:>13.1f}{extra}")
    stream = results["stream"]
    rate = stream["messages"] / stream["seconds"]
    growth = stream["peak_rss_mb"] - results["idle"]["peak_rss_mb"]
    print(f"stream: {rate:,.0f} msg/s (target >= 2,000): {'PASS' if rate >= 2000 else 'FAIL'}; "
          f"RSS above idle {growth:.1f} MB for a {size_mb:.0f} MB file")
    tmpdir.cleanup()
    return 0 if rate >= 2000 else 1


if __name__ == "__main__":
    sys.exit(main())
