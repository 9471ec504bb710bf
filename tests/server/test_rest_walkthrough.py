"""Regressions found by driving `tiered-memory serve` with curl as a new user would."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from langchain_tiered_memory.ingest.reader import format_names
from tests.server.test_rest_api import ALICE
from tests.server.test_rest_api import server as server


@pytest.fixture
def client(server: tuple[str, Path]) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server[0], timeout=30) as c:
        yield c


def test_serve_says_where_it_listens(client: httpx.Client, server: tuple[str, Path]) -> None:
    log = (server[1].parent / "server.log").read_text()
    assert f"serving the REST API on {server[0]}" in log
    assert "tok-alice" not in log  # the secret itself is never printed


def test_unknown_format_is_a_422_naming_the_choices(client: httpx.Client) -> None:
    r = client.post("/api/memory/ingest", headers=ALICE,
                    json={"text": "User: I like tea.", "format": "bogus"})
    assert r.status_code == 422 and r.json()["error"] == "ValidationError"
    assert all(name in r.text for name in format_names())
    # An alias from the registry is accepted as well as the name.
    r = client.post("/api/memory/ingest", headers=ALICE,
                    json={"text": "User: I like green tea.", "format": "plaintext"})
    assert r.status_code == 200 and r.json()["format"] == "text", r.text


def test_list_shows_live_versions_unless_history(client: httpx.Client) -> None:
    r = client.post("/api/memory/ingest", headers=ALICE, json={
        "namespace": "alice", "text": "User: My favourite colour is mauve."})
    assert r.status_code == 200 and r.json()["facts_active"] == 1, r.text
    hits = client.post("/api/memory/search", headers=ALICE, json={"query": "mauve"}).json()
    first = hits[0]["item"]
    r = client.patch(f"/api/memory/items/{first['id']}", headers=ALICE,
                     json={"content": "User's favourite colour is teal-mauve"})
    assert r.status_code == 200, r.text
    live = client.get("/api/memory/list", headers=ALICE, params={"limit": 1000}).json()["items"]
    assert [i["id"] for i in live if i["key"] == first["key"]] == [r.json()["id"]]
    everything = client.get("/api/memory/list", headers=ALICE,
                            params={"limit": 1000, "history": "true"}).json()["items"]
    assert {i["id"] for i in everything if i["key"] == first["key"]} >= {first["id"],
                                                                         r.json()["id"]}
