"""Limits fail closed: with Redis gone (refusing, or silent behind a partition), each
process counts in its own memory, says so once in the log, and once more when Redis is
back. (With Redis cut, 300 transfer-code guesses used to pass in 1.4 s.)"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.config import Settings
from app.main import create_app
from engines.reference.tally import ENGINE as TALLY
from tests.conftest import FakeClock
from tests.faults.relay import Relay, relayed

REDIS_URL = os.environ.get("REDIS_URL", "")
LOST = "limits: redis unreachable"
BACK = "limits: redis is back"


@pytest.fixture
def redis_relay(settings: Settings) -> Iterator[tuple[Relay, Settings]]:
    if not REDIS_URL:
        pytest.skip("needs REDIS_URL")
    relay, url = relayed(REDIS_URL, 6379)
    try:
        yield (
            relay,
            settings.model_copy(
                update={"redis_url": url, "redis_timeout_s": 0.5, "limit_creates_per_player_min": 5}
            ),
        )
    finally:
        relay.resume()
        relay.close()


def claim(player: Any) -> Any:
    return player.post("/api/me/claim", json={"code": "WRONG-CODE"})


def create(player: Any) -> Any:
    return player.post("/api/games", json={"game": "tally"})


def lines(caplog: pytest.LogCaptureFixture, text: str) -> int:
    return sum(text in record.getMessage() for record in caplog.records)


@pytest.mark.parametrize("outage", ["cut", "stalled"])
@pytest.mark.parametrize(
    ("action", "allowed", "status"), [(claim, 10, 404), (create, 5, 201)], ids=["claims", "creates"]
)
def test_limits_hold_in_the_process_while_redis_is_away(
    redis_relay: tuple[Relay, Settings],
    clock: FakeClock,
    players: Any,
    caplog: pytest.LogCaptureFixture,
    outage: str,
    action: Any,
    allowed: int,
    status: int,
) -> None:
    relay, settings = redis_relay
    app = create_app(settings, engines={"tally": TALLY}, clock=clock)
    with TestClient(app) as client, caplog.at_level(logging.INFO, logger="app.limits"):
        limiter = client.app.state.services.admission.limiter  # type: ignore[attr-defined]
        limiter.memory.clock = held = FakeClock()  # mid-window: no minute ends in the test
        held.ms = 30_000
        (mallory,) = players(client, "mallory")
        if outage == "cut":
            relay.cut()
        else:
            relay.stall()
        answers = [action(mallory) for _ in range(allowed + 1)]
        assert [a.status_code for a in answers[:allowed]] == [status] * allowed
        refused = answers[allowed]
        assert refused.status_code == 429, refused.text
        assert refused.json()["error"]["code"] == "rate_limited"
        assert refused.headers["retry-after"] == "30"
        assert (lines(caplog, LOST), lines(caplog, BACK)) == (1, 0)

        if outage == "cut":
            relay.start()
        else:
            relay.resume()
        limiter.retry_at = 0.0  # the next event tries Redis at once (not RETRY_S later)
        again = action(mallory)  # counted in Redis again, where this window is fresh
        assert again.status_code == status, again.text
        assert (lines(caplog, LOST), lines(caplog, BACK)) == (1, 1)
