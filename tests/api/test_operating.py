"""What an operator reads: /healthz, /readyz, /metrics and the request id (README
"Operating it"). Outages of the database and Redis are in tests/faults; the drain, the
JSON log and a real process in tests/integrity/test_drain.py."""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from prometheus_client import REGISTRY
from starlette.testclient import WebSocketDenialResponse

from app.config import Settings
from app.health import CACHE_S
from app.logs import REQUEST, JsonFormatter, RequestContext, RequestFields, player_tag
from app.main import create_app
from engines.reference.tally import ENGINE as TALLY
from tests.conftest import FakeClock, player_id_for

FAMILIES = (
    "nook_moves_total", "nook_move_duration_seconds", "nook_http_requests_total",
    "nook_http_request_duration_seconds", "nook_websockets_open", "nook_websocket_closes_total",
    "nook_db_pool_wait_seconds", "nook_commit_batch_size", "nook_hub_connected",
    "nook_hub_publish_seconds", "nook_engine_queue_depth", "nook_review_queue_depth",
    "nook_engine_job_seconds", "nook_gc_pause_seconds", "nook_rate_limited_total",
    "nook_live_games", "nook_live_games_dropped_total", "nook_seeks_waiting",
    "process_resident_memory_bytes", "process_cpu_seconds_total",
)  # fmt: skip


@pytest.fixture
def local(settings: Settings, clock: FakeClock) -> Iterator[TestClient]:
    """A client on the loopback address, which METRICS_ALLOW_IPS allows by default."""
    app = create_app(settings, engines={"tally": TALLY}, clock=clock)
    with TestClient(app, client=("127.0.0.1", 50000)) as client:
        yield client


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_healthz_is_ok_with_no_cookie(client: Any) -> None:
    answer = client.get("/healthz")
    assert answer.status_code == 200
    assert answer.json() == {"status": "ok"}
    assert "set-cookie" not in answer.headers
    assert answer.headers["cache-control"] == "no-store"
    assert answer.headers["x-content-type-options"] == "nosniff"


def test_readyz_is_ready_until_a_drain_begins(client: Any) -> None:
    answer = client.get("/readyz")
    assert (answer.status_code, answer.json()) == (
        200,
        {"status": "ready", "checks": {"database": "up"} | (
            {"redis": "up"} if client.app.state.settings.redis_url else {}
        )},
    )
    assert "set-cookie" not in answer.headers
    client.app.state.drain.begin()
    answer = client.get("/readyz")
    assert answer.status_code == 503
    assert answer.json()["status"] == "unready"
    assert answer.json()["checks"]["drain"] == "started"
    assert client.get("/healthz").status_code == 200  # alive all the same


def test_a_draining_process_refuses_new_game_sockets_before_their_handshake(
    client: Any,
) -> None:
    """503 with Retry-After, not a socket accepted and closed: a proxy that routes one
    game's sockets to one process (deploy/nginx.conf) passes the socket on to the next."""
    params = {"opponent": "online", "limit": 30}
    created = client.post("/api/games", json={"game": "tally", "params": params})
    assert created.status_code == 201, created.text
    client.app.state.drain.begin()
    with pytest.raises(WebSocketDenialResponse) as refused:
        with client.websocket_connect(f"/ws/games/{created.json()['id']}"):
            pass
    assert (refused.value.status_code, refused.value.headers["retry-after"]) == (503, "1")
    assert refused.value.json()["error"]["code"] == "server_restarting"


def test_readyz_checks_the_database_once_a_second_however_many_ask(client: Any) -> None:
    readiness = client.app.state.readiness
    checks = 0
    real = readiness._check

    async def counted() -> dict[str, str]:
        nonlocal checks
        checks += 1
        return await real()

    readiness._check = counted
    started = time.monotonic()
    for _ in range(50):
        assert client.get("/readyz").status_code == 200
    seconds = time.monotonic() - started
    assert 1 <= checks <= 2 + seconds / CACHE_S  # one a second, not one per probe


def test_metrics_only_for_allowed_addresses(client: Any, local: TestClient) -> None:
    refused = client.get("/metrics")  # TestClient's own address, "testclient"
    assert refused.status_code == 404
    answer = local.get("/metrics")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain; version=")
    assert "set-cookie" not in answer.headers
    served = set(re.findall(r"^# TYPE (\S+) ", answer.text, re.MULTILINE))
    for family in FAMILIES:
        assert family.removesuffix("_total") in served | {f.removesuffix("_total") for f in served}
    assert not [f for f in served if not f.startswith(("nook_", "process_"))]


def test_metrics_count_moves_by_outcome_and_routes_by_template(
    local: TestClient, players: Any
) -> None:
    (alice,) = players(local, "alice")
    game = alice.new_game("tally")
    before = {
        "accepted": sample("nook_moves_total", game="tally", outcome="accepted"),
        "stale": sample("nook_moves_total", game="tally", outcome="stale_version"),
        "timed": sample("nook_move_duration_seconds_count", game="tally"),
        "route": sample(
            "nook_http_requests_total", method="POST", route="/api/games/{game_id}/moves",
            status="200",
        ),
    }  # fmt: skip
    assert alice.move(game["id"], 0, {"type": "add", "n": 1}).status_code == 200
    assert alice.move(game["id"], 0, {"type": "add", "n": 1}).status_code == 409
    assert sample("nook_moves_total", game="tally", outcome="accepted") == before["accepted"] + 1
    assert sample("nook_moves_total", game="tally", outcome="stale_version") == before["stale"] + 1
    assert sample("nook_move_duration_seconds_count", game="tally") == before["timed"] + 1
    assert (
        sample(
            "nook_http_requests_total", method="POST", route="/api/games/{game_id}/moves",
            status="200",
        )
        == before["route"] + 1
    )  # fmt: skip
    text = local.get("/metrics").text
    assert game["id"] not in text  # a route is its template, never a raw id
    local.get("/no/such/page")
    assert "/no/such/page" not in local.get("/metrics").text  # every unknown path: "unmatched"
    assert 'route="unmatched",status="404"' in local.get("/metrics").text


def test_metrics_follow_sockets_open_and_closed(local: TestClient, players: Any) -> None:
    (alice,) = players(local, "alice")
    game = alice.new_game("tally")
    closes = sample("nook_websocket_closes_total", code="1000")
    open_before = sample("nook_websockets_open")
    with alice.websocket(f"/ws/games/{game['id']}") as ws:
        ws.receive_json()
        assert sample("nook_websockets_open") == open_before + 1
        ws.close(1000)
        # The server's side ends after it reads the close frame: poll the counter inside
        # the block (leaving it cancels a handler that has not read the frame yet, a 1006).
        deadline = time.monotonic() + 15
        while sample("nook_websocket_closes_total", code="1000") != closes + 1:
            assert time.monotonic() < deadline, "the close was never counted"
            local.get("/healthz")
            time.sleep(0.02)
    assert sample("nook_websocket_closes_total", code="1000") == closes + 1
    assert sample("nook_websockets_open") == open_before


def test_rate_limited_requests_are_counted_by_limit(
    settings: Settings, clock: FakeClock, players: Any
) -> None:
    tight = settings.model_copy(update={"limit_creates_per_player_min": 2})
    with TestClient(create_app(tight, engines={"tally": TALLY}, clock=clock)) as client:
        (alice,) = players(client, "alice")
        before = sample("nook_rate_limited_total", kind="create")
        alice.new_game("tally")
        alice.new_game("tally")
        refused = alice.post("/api/games", json={"game": "tally"})
        assert refused.status_code == 429
        assert sample("nook_rate_limited_total", kind="create") == before + 1


@pytest.mark.parametrize(
    ("sent", "kept"),
    [("req-41739205.b", True), ("has spaces in it", False), ("x" * 129, False), (None, False)],
)
def test_request_id_is_kept_or_made(client: Any, sent: str | None, kept: bool) -> None:
    headers = {"x-request-id": sent} if sent is not None else {}
    answer = client.get("/api/games/nope", headers=headers)
    assert answer.status_code == 404
    returned = answer.headers["x-request-id"]
    if kept:
        assert returned == sent
    else:
        assert re.fullmatch(r"[0-9a-f]{16}", returned)


def test_a_json_line_carries_the_request_fields() -> None:
    scope: dict[str, Any] = {"path_params": {"game_id": "g1"}}
    tag = player_tag("s" * 32, player_id_for("alice"))
    token = REQUEST.set(RequestContext("rid-1", "POST", scope, tag))
    try:
        record = logging.LogRecord("app.moves", logging.WARNING, "", 1, "late %s", ("x",), None)
        RequestFields().filter(record)
    finally:
        REQUEST.reset(token)
    line = json.loads(JsonFormatter().format(record))
    assert line["level"] == "warning" and line["logger"] == "app.moves"
    assert line["message"] == "late x"
    assert line["request_id"] == "rid-1" and line["method"] == "POST"
    assert line["game_id"] == "g1"
    assert line["player"] == tag and len(tag or "") == 10
    assert player_id_for("alice") not in json.dumps(line)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", line["time"])


def test_labels_stay_bounded_whatever_the_client_sends(local: TestClient, players: Any) -> None:
    local.request("BREW", "/api/games")
    text = local.get("/metrics").text
    assert 'method="BREW"' not in text
    assert 'nook_http_requests_total{method="OTHER",route="/api/games",status="405"}' in text
    (alice,) = players(local, "alice")
    game = alice.new_game("tally")
    with alice.websocket(f"/ws/games/{game['id']}") as ws:
        ws.receive_json()
        ws.close(3999)
        # The close is counted once the server's socket handler has read it and finished
        # (on Redis, after the presence lease is dropped): wait inside the block, since
        # leaving it cancels a handler that has not read the frame yet.
        deadline = time.monotonic() + 15
        while 'code="other"' not in local.get("/metrics").text and time.monotonic() < deadline:
            time.sleep(0.02)
    text = local.get("/metrics").text
    assert 'code="3999"' not in text and 'nook_websocket_closes_total{code="other"}' in text


def test_files_alike_for_everyone_make_no_player(client: Any) -> None:
    """A script, a stylesheet or an icon is cached for a year, maybe by a shared cache: a
    Set-Cookie on it would hand one player's identity to the next visitor of that cache."""
    page = client.get("/play/triangles")
    assert page.headers["set-cookie"].startswith("player=")
    client.cookies.clear()
    files = [page.text.split('src="', 1)[1].split('"', 1)[0], "/sw.js", "/manifest.webmanifest"]
    for path in files:
        answer = client.get(path)
        assert (path, answer.status_code, "set-cookie" in answer.headers) == (path, 200, False)
    assert "immutable" in client.get(files[0]).headers["cache-control"]
