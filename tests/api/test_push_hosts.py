"""No push host can hold up the site or other players' notices (app/push/sender.py):
sends run on the sender's own threads within a wall-clock deadline, at most two in
flight per push host; a notice's retries are few whatever its number of subscriptions,
and a host that keeps failing is paused. The send-time checks drop a subscription the
sender can never send to. Fake push services on loopback (tests/push_service.py) answer;
stored subscriptions are read back from the database."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert
from sqlalchemy.ext.asyncio import create_async_engine

from app.config import Settings
from app.main import create_app
from app.models import Player, PushSubscription
from app.store.push import endpoint_hash
from engines.reference.tally import ENGINE as TALLY
from tests.api.test_push import VAPID, online_game, rows
from tests.conftest import FakeClock
from tests.push_service import Browser, FakePushService, start_push_service

Make = Callable[..., tuple[TestClient, Settings]]


@pytest.fixture
def services() -> Iterator[list[FakePushService]]:
    """The fake push services a test starts (``started(...)``), stopped at its end."""
    started: list[FakePushService] = []
    yield started
    for service in started:
        service.stop()


@pytest.fixture
def make(settings: Settings, clock: FakeClock, services: list[FakePushService]) -> Iterator[Make]:
    """``make(**settings)`` → a started client whose push endpoints may be on every
    service of ``services``, and its settings."""
    clients: list[TestClient] = []

    def start(**updates: Any) -> tuple[TestClient, Settings]:
        push = settings.model_copy(
            update={
                "vapid_private_key": VAPID,
                "push_endpoint_allow": ",".join(s.host_port for s in services),
                **updates,
            }
        )
        client = TestClient(create_app(push, engines={"tally": TALLY}, clock=clock))
        client.__enter__()
        clients.append(client)
        return client, push

    yield start
    for client in clients:
        client.__exit__(None, None, None)


def started(services: list[FakePushService], **options: Any) -> FakePushService:
    service = start_push_service(**options)
    services.append(service)
    return service


def subscribe(player: Any, endpoint: str) -> None:
    answer = player.post("/api/me/push", json=Browser(endpoint).subscription(["joined"]))
    assert answer.status_code == 201, answer.text


def arrivals(service: FakePushService, count: int) -> list[tuple[str, int]]:
    return sorted((r.path, r.status) for r in (service.next() for _ in range(count)))


def wait_for(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the state never came"
        time.sleep(0.02)


# --- a slow host -----------------------------------------------------------------------------


def test_a_dripping_push_host_holds_two_sends_and_stalls_nobody_else(
    make: Make, players: Any, services: list[FakePushService]
) -> None:
    """10 endpoints on a host that answers a status line and then a byte a second: two
    sends wait on it (not the process's threads), while POST /api/verify and another
    player's notice answer at once. Before: 6 sends filled the loop's default pool, and
    verify waited for the drip to end."""
    drip = started(services, drip_every_s=1.0, drip_for_s=60.0)
    quick = started(services)
    client, _ = make()
    alice, bob, carol, dave = players(client, "alice", "bob", "carol", "dave")
    for n in range(10):
        subscribe(alice, drip.endpoint(f"alice-{n}"))
    subscribe(carol, quick.endpoint("carol"))
    online_game(alice, bob)  # a joined notice: 10 sends to the dripping host
    assert len({drip.next().path for _ in range(2)}) == 2  # two sends arrive
    assert drip.nothing_within(0.5)  # and no third while they drip
    assert (drip.open, drip.most_open) == (2, 2)

    number = bob.new_game("tally")["number"]
    started_at = time.perf_counter()
    verified = bob.post("/api/verify", json={"game": "tally", "number": number, "log": []})
    assert verified.status_code == 200, verified.text
    assert time.perf_counter() - started_at < 3.0  # generous: 0.01 s here, 58 s before

    online_game(carol, dave)
    notice = quick.next(timeout=3.0)  # generous: a few ms here, never before the drip ended
    assert (notice.path, notice.status) == ("/push/carol", 201)


def test_a_send_is_cut_at_its_deadline_however_the_host_drips(
    make: Make, players: Any, services: list[FakePushService], caplog: Any
) -> None:
    """A host that sends a byte every 0.1 s never lets a per-read timeout expire; the
    send's wall-clock deadline (0.5 s here, 10 s by default) cuts it."""
    drip = started(services, drip_every_s=0.1, drip_for_s=60.0)
    client, settings = make(push_deadline_s=0.5, push_retries=0)
    alice, bob = players(client, "alice", "bob")
    subscribe(alice, drip.endpoint("alice"))
    with caplog.at_level("WARNING", logger="app.push"):
        online_game(alice, bob)
        cut = drip.cuts.get(timeout=10)
        wait_for(lambda: any("dropped after 1 attempts" in r.getMessage() for r in caplog.records))
    assert cut.path == "/push/alice"
    assert 0.3 <= cut.after_s < 2.5  # the deadline (from before the connect), not 60 s
    assert drip.open == 0
    assert rows(settings) == [(alice.id, drip.endpoint("alice"), ["joined"], "en")]


# --- a failing host ---------------------------------------------------------------------------


def test_one_notice_to_a_failing_host_makes_one_request_per_subscription_and_two_retries(
    make: Make, players: Any, services: list[FakePushService]
) -> None:
    """Three subscriptions on a host answering 500: 3 requests and 2 retries for the
    whole notice (before: 3 attempts for each, 9; with the default delays, 4 each)."""
    failing = started(services, status=500)
    client, settings = make()
    client.app.state.services.push.RETRY_DELAYS_S = (0.05, 0.05)
    alice, bob = players(client, "alice", "bob")
    for n in range(3):
        subscribe(alice, failing.endpoint(f"a{n}"))
    online_game(alice, bob)
    answered = arrivals(failing, 5)
    assert failing.nothing_within(0.5)
    assert [status for _, status in answered] == [500] * 5
    assert {path for path, _ in answered} <= {"/push/a0", "/push/a1", "/push/a2"}
    assert len(rows(settings)) == 3  # a 500 is no reason to forget a subscription


def test_a_refusal_other_than_gone_is_not_retried(
    make: Make, players: Any, services: list[FakePushService], caplog: Any
) -> None:
    refusing = started(services, status=403)
    client, settings = make()
    client.app.state.services.push.RETRY_DELAYS_S = (0.05, 0.05)
    alice, bob = players(client, "alice", "bob")
    subscribe(alice, refusing.endpoint("alice"))
    with caplog.at_level("WARNING", logger="app.push"):
        online_game(alice, bob)
        assert refusing.next().status == 403
        assert refusing.nothing_within(0.5)
    lines = [r.getMessage() for r in caplog.records if r.name == "app.push"]
    assert len(lines) == 1 and "dropped after 1 attempts: status 403" in lines[0]
    assert len(rows(settings)) == 1


def test_a_host_that_failed_ten_times_in_a_row_is_paused_for_ten_minutes(
    make: Make, players: Any, services: list[FakePushService], clock: FakeClock
) -> None:
    """One send at a time to it (PUSH_PER_HOST=1 makes the count exact): its 10th failure
    in a row pauses the host, so one notice to 10 subscriptions is 10 requests (before:
    30) and the next notice none, while another host's notices go on. Ten minutes later
    it is tried again, and a success ends the count."""
    failing = started(services, status=500)
    quick = started(services)
    client, settings = make(push_per_host=1)
    push = client.app.state.services.push
    push.RETRY_DELAYS_S = (0.05, 0.05)
    alice, bob, carol, dave = players(client, "alice", "bob", "carol", "dave")
    for n in range(10):
        subscribe(alice, failing.endpoint(f"a{n}"))
    subscribe(carol, quick.endpoint("carol"))

    online_game(alice, bob)
    assert [status for _, status in arrivals(failing, 10)] == [500] * 10
    assert failing.nothing_within(0.5)
    host = failing.host_port
    assert push.hosts.paused(host) and push.hosts.paused_count() == 1

    online_game(alice, dave)  # paused: nothing sent to it
    online_game(carol, dave)  # another host: sent
    assert quick.next().path == "/push/carol"
    assert failing.nothing_within(0.5)

    clock.advance(600_000)  # the pause is over: tried again, and it works now
    failing.status = 201
    online_game(alice, bob)
    assert [status for _, status in arrivals(failing, 10)] == [201] * 10
    assert not push.hosts.paused(host)
    assert len(rows(settings)) == 11


# --- the send-time checks ---------------------------------------------------------------------


def keep_row(settings: Settings, player_id: str, endpoint: str, created_ms: int) -> None:
    """A subscription stored as an older server admitted it (no check on the way)."""
    browser = Browser(endpoint)

    async def write() -> None:
        engine = create_async_engine(settings.async_database_url)
        async with engine.begin() as conn:
            await conn.execute(insert(Player).values(id=player_id, created_ms=created_ms))
            await conn.execute(
                insert(PushSubscription).values(
                    endpoint_hash=endpoint_hash(endpoint),
                    player_id=player_id,
                    endpoint=endpoint,
                    p256dh=browser.p256dh,
                    auth=browser.subscription([])["keys"]["auth"],
                    kinds=["joined"],
                    lang="en",
                    created_ms=created_ms,
                )
            )
        await engine.dispose()

    asyncio.run(write())


@pytest.mark.parametrize(
    "endpoint",
    [
        f"https://{'a' * 64}.example.com/push",  # before: the sender raised on every notice
        "https://[64:ff9b::a9fe:a9fe]/latest/meta-data",  # NAT64 of the metadata address
        "https://[2002:7f00:1::1]/push",  # 6to4 of loopback
        "https://0x7f.0.0.1/push",
    ],
)
def test_a_stored_subscription_the_sender_may_never_send_to_is_dropped(
    make: Make, players: Any, clock: FakeClock, endpoint: str
) -> None:
    client, settings = make()
    alice, bob = players(client, "alice", "bob")
    keep_row(settings, alice.id, endpoint, clock.ms)
    assert [row[1] for row in rows(settings)] == [endpoint]
    online_game(alice, bob)
    wait_for(lambda: rows(settings) == [])


@pytest.mark.parametrize(
    ("endpoint", "reason"),
    [
        ("https://127.1/x", "an IPv4 address not in dotted-decimal form"),
        ("https://localhost./x", "localhost resolves to a non-public address"),
        ("https://[::7f00:1]/x", "::7f00:1 is a private, loopback or link-local address"),
        ("https://[64:ff9b::a9fe:a9fe]/x", "64:ff9b::a9fe:a9fe is a private"),
        ("https://[2002:7f00:1::1]/x", "2002:7f00:1::1 is a private"),
        (f"https://{'a' * 64}.com/x", "a host name label longer than 63 characters"),
        ("https://a\x00.com/x", "a character that is not printable ASCII"),
    ],
)
def test_the_send_time_check_refuses_every_form_of_a_private_address(
    endpoint: str, reason: str
) -> None:
    from app.push.endpoints import BadEndpoint, pinned

    with pytest.raises(BadEndpoint) as refused:
        pinned(endpoint, frozenset())
    assert str(refused.value).startswith(reason)
