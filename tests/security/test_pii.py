"""PII detection, redaction and policy."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from langchain_tiered_memory.errors import MemoryWriteBlocked
from langchain_tiered_memory.security import apply_pii_policy, detect_pii, redact_pii
from langchain_tiered_memory.security.pii import cn_id_checksum_ok, luhn_ok


def kinds(text: str) -> list[str]:
    return [p.kind for p in detect_pii(text)]


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("mail me at jane.doe+x@example.co.uk please", "EMAIL"),
        ("call +44 20 7946 0958", "PHONE"),
        ("手机 13812345678", "PHONE"),
        ("call (555) 123-4567", "PHONE"),
        ("card 4111 1111 1111 1111", "CREDIT_CARD"),
        ("id 11010519491231002X", "CN_ID"),
        ("ssn 123-45-6789", "SSN"),
        ("key sk-proj-abcdefghijklmnopqrstuvwx1234", "API_KEY"),
        ("token ghp_" + "a" * 36, "API_KEY"),
        ("aws AKIAIOSFODNN7EXAMPLE", "API_KEY"),
        ("slack xoxb-1234567890-abcdefghij", "API_KEY"),
        ("jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NSJ9.abcdefghijklmnop", "JWT"),
        ("password=9f86d081884c7d659a2feaa0c55ad015", "SECRET"),
        ("server 192.168.1.20 is up", "IP_ADDRESS"),
        ("host 2001:db8::8a2e:370:7334 ok", "IP_ADDRESS"),
    ],
)
def test_detects_each_kind(text: str, kind: str) -> None:
    assert kind in kinds(text)


@pytest.mark.parametrize(
    "text",
    [
        "card 4111 1111 1111 1112",  # Luhn fails
        "id 110105194912310021",  # checksum fails (should be X)
        "ssn 000-45-6789",  # never issued
        "version 1.2.3 and time 10:30:45",
        "in 1999 we moved",
        "手机 12812345678",  # not a mobile prefix
    ],
)
def test_invalid_checksums_and_lookalikes_ignored(text: str) -> None:
    assert kinds(text) == []


def test_checksums() -> None:
    assert cn_id_checksum_ok("11010519491231002X")
    assert not cn_id_checksum_ok("110105194912310021")
    assert luhn_ok("4111111111111111") and not luhn_ok("4111111111111112")


def test_redact_replaces_with_kind() -> None:
    text = "Jane <jane@example.com>, ssn 123-45-6789."
    out, found = redact_pii(text)
    assert out == "Jane <[REDACTED:EMAIL]>, ssn [REDACTED:SSN]."
    assert [(p.kind, text[p.start : p.end]) for p in found] == [
        ("EMAIL", "jane@example.com"),
        ("SSN", "123-45-6789"),
    ]


def test_policies() -> None:
    text = "write to a@b.io"
    assert apply_pii_policy(text, "allow") == text
    assert apply_pii_policy(text, "redact") == "write to [REDACTED:EMAIL]"
    with pytest.raises(MemoryWriteBlocked) as err:
        apply_pii_policy(text, "block")
    assert (err.value.reason, err.value.rule, err.value.span) == ("pii", "EMAIL", (9, 15))
    assert apply_pii_policy("nothing here", "block") == "nothing here"
    with pytest.raises(ValueError):
        apply_pii_policy(text, "maybe")  # type: ignore[arg-type]


@settings(max_examples=150, deadline=None)
@given(st.text())
def test_fuzz_detect_pii(text: str) -> None:
    for p in detect_pii(text):
        assert text[p.start : p.end] == p.text


def test_megabyte_is_linear() -> None:
    import time

    for chunk in ("1" * 50 + " ", "a.b@" * 10, "+1 2 3 4 5 ", "ff:" * 20 + " "):
        text = (chunk * (1_000_000 // len(chunk) + 1))[:1_000_000]
        t0 = time.perf_counter()
        detect_pii(text)
        assert time.perf_counter() - t0 < 5.0
