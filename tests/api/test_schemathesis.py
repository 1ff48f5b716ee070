"""Schemathesis over the app's own OpenAPI schema: no generated request gets a 5xx.

Cases are drawn from each operation's strategy directly with Hypothesis (schemathesis's
pytest plugin does not load under this pytest version)."""

from __future__ import annotations

from typing import Any

import schemathesis
from hypothesis import HealthCheck, given, settings


def test_no_server_errors(make_client: Any) -> None:
    client = make_client()  # the real engines
    schema = schemathesis.openapi.from_asgi("/openapi.json", client.app)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 10
    failures: list[str] = []
    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(
            max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), database=None
        )
        def check(case: Any) -> None:
            response = case.call()
            if response.status_code >= 500:
                failures.append(f"{case.method} {case.formatted_path}: {response.status_code}")
            assert response.status_code < 500, response.text

        check()
    assert failures == []
