"""Schemathesis over the app's own OpenAPI schema: every request valid by the schema gets
an answer the schema describes (status code, content type, body, headers, and a 405's
``Allow``), every request the schema calls invalid is refused with a 4xx, and none gets
a 5xx.

Cases are drawn from each operation's strategy directly with Hypothesis (schemathesis's
pytest plugin does not load under this pytest version)."""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    allow_header_conformance,
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.profile import examples

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
    allow_header_conformance,
]
# Requests the schema calls invalid: each refused with a 4xx (never accepted, never a 5xx).
NEGATIVE_CHECKS = [not_a_server_error, negative_data_rejection]


@pytest.mark.parametrize(
    ("mode", "checks"),
    [(GenerationMode.POSITIVE, CHECKS), (GenerationMode.NEGATIVE, NEGATIVE_CHECKS)],
    ids=["valid", "invalid"],
)
def test_every_answer_is_in_the_schema(
    make_client: Any, mode: GenerationMode, checks: list[Any]
) -> None:
    client = make_client()  # the real engines
    schema = schemathesis.openapi.from_asgi("/openapi.json", client.app)
    # An invalid body may also be refused for its size (413 too_large): a log of more
    # items than the schema allows is more bytes than the server reads.
    rejection = schema.config.checks.negative_data_rejection
    rejection.expected_statuses = [*rejection.expected_statuses, "413"]
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 13
    failures: list[str] = []
    tried: list[str] = []
    for operation in operations:

        @given(case=operation.as_strategy(generation_mode=mode))
        @settings(
            max_examples=examples(25),
            deadline=None,
            suppress_health_check=list(HealthCheck),
            database=None,
        )
        def check(case: Any) -> None:
            tried.append(case.method)
            response = case.call()
            try:
                case.validate_response(response, checks=checks)
            except Exception as failure:
                failures.append(f"{case.method} {case.formatted_path}: {failure}"[:2000])
                raise

        try:
            check()
        except Exception:  # recorded above; go on with the other operations
            pass
    assert failures == []
    assert len(tried) >= len(operations), len(tried)  # cases were made and sent (quick: few)


def test_the_schema_names_every_error_code_of_a_move(make_client: Any) -> None:
    spec = make_client().get("/openapi.json").json()
    answers = spec["paths"]["/api/games/{game_id}/moves"]["post"]["responses"]
    assert set(answers) == {"200", "400", "403", "404", "409", "413", "422", "429", "500", "503"}
    for code in ("stale_version", "waiting_for_opponent", "game_cancelled", "opponent_present"):
        assert f"`{code}`" in answers["409"]["description"]
    assert answers["409"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/ErrorResponse"
    }
