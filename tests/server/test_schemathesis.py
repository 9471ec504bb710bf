"""Property-based fuzzing of the REST API from its own OpenAPI schema: no 500s."""

from __future__ import annotations

from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, given, settings

from tests.server.test_rest_api import ALICE
from tests.server.test_rest_api import server as server


def test_no_server_errors(server: tuple[str, Path]) -> None:
    schema = schemathesis.openapi.from_url(server[0] + "/openapi.json")
    checked = []
    for result in schema.get_all_operations():
        operation = result.ok()

        @settings(max_examples=10, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(case=operation.as_strategy())
        def check(case: schemathesis.Case) -> None:
            response = case.call(headers=ALICE, timeout=30)
            assert response.status_code < 500, (case.method, case.path, response.text)

        check()
        checked.append(operation.label)
    assert len(checked) == 9  # every endpoint was exercised
