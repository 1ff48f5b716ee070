"""Web Push end to end: subscriptions through the API (endpoint checks, limits, 201/204,
rows read back), and notices sent to a fake push service on loopback, decrypted with the
subscription's keys (http_ece) and checked field by field, with their VAPID signature,
TTL, Urgency and Topic; a 410 deletes the subscription."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from py_vapid import Vapid02
from sqlalchemy import select
from sqlalchemy.ext.asyncio import create_async_engine

from app.config import Settings
from app.models import PushSubscription
from app.push.keys import VapidKeys, new_private_key
from engines.reference.tally import ENGINE as TALLY
from tests.push_service import Browser, FakePushService, start_push_service, unb64url

VAPID = new_private_key()
PRIVATE = "a private, loopback or link-local address"


@pytest.fixture
def push_service() -> Iterator[FakePushService]:
    service = start_push_service()
    yield service
    service.server.shutdown()
    service.server.server_close()


@pytest.fixture
def push_settings(settings: Settings, push_service: FakePushService) -> Settings:
    return settings.model_copy(
        update={
            "vapid_private_key": VAPID,
            "push_contact": "mailto:ops@example.org",
            "push_endpoint_allow": push_service.host_port,
        }
    )


@pytest.fixture
def client(push_settings: Settings, clock: Any) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    from app.main import create_app

    with TestClient(create_app(push_settings, engines={"tally": TALLY}, clock=clock)) as client:
        yield client


def rows(settings: Settings) -> list[tuple[str, str, list[str], str]]:
    """The stored subscriptions, read back on a connection of their own."""

    async def read() -> list[tuple[str, str, list[str], str]]:
        engine = create_async_engine(settings.async_database_url)
        async with engine.connect() as conn:
            result = await conn.execute(
                select(
                    PushSubscription.player_id,
                    PushSubscription.endpoint,
                    PushSubscription.kinds,
                    PushSubscription.lang,
                ).order_by(PushSubscription.endpoint)
            )
            found = [(r[0], r[1], list(r[2]), r[3]) for r in result.all()]
        await engine.dispose()
        return found

    return asyncio.run(read())


def error_code(response: Any) -> str:
    code: str = response.json()["error"]["code"]
    return code


# --- the key -------------------------------------------------------------------------------


def test_the_public_key_is_the_uncompressed_point_of_the_configured_key(
    client: Any, players: Any
) -> None:
    (alice,) = players(client, "alice")
    answer = alice.get("/api/push/key")
    assert answer.status_code == 200
    key = answer.json()["public_key"]
    assert key == VapidKeys(VAPID).public_key
    raw = unb64url(key)
    assert len(raw) == 65 and raw[0] == 4 and "=" not in key


def test_without_a_key_push_is_off_and_says_so(make_client: Any, players: Any) -> None:
    client = make_client({"tally": TALLY})  # the plain settings: no VAPID key
    (alice,) = players(client, "alice")
    assert error_code(alice.get("/api/push/key")) == "push_off"
    sub = Browser("https://fcm.googleapis.com/fcm/send/abc").subscription(["your_turn"])
    answer = alice.post("/api/me/push", json=sub)
    assert (answer.status_code, error_code(answer)) == (404, "push_off")


# --- subscriptions ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("endpoint", "reason"),
    [
        ("http://fcm.googleapis.com/fcm/send/x", "not https on port 443"),
        ("https://fcm.googleapis.com:8443/fcm/send/x", "not https on port 443"),
        ("ftp://fcm.googleapis.com/x", "scheme 'ftp'"),
        ("https://127.0.0.1/x", "a private, loopback or link-local address"),
        ("https://10.1.2.3/x", "a private, loopback or link-local address"),
        ("https://192.168.0.9/x", "a private, loopback or link-local address"),
        ("https://169.254.169.254/latest/meta-data", "a private, loopback or link-local address"),
        ("https://[::1]/x", "a private, loopback or link-local address"),
        ("https://[fe80::1]/x", "a private, loopback or link-local address"),
        ("https://[::ffff:10.0.0.1]/x", "a private, loopback or link-local address"),
        ("https://localhost/x", "a local host name"),
        ("https://push.internal/x", "a local host name"),
        ("https://intranet/x", "a local host name"),
        ("https://user:pw@fcm.googleapis.com/x", "no host, or a user name in the URL"),
        ("not-a-url", "no host, or a user name in the URL"),
        # IPv4 in the spellings resolvers accept, and names that end like one
        ("https://127.1/x", "an IPv4 address not in dotted-decimal form"),
        ("https://0x7f.0.0.1/x", "an IPv4 address not in dotted-decimal form"),
        ("https://0177.0.0.1/x", "an IPv4 address not in dotted-decimal form"),
        ("https://2130706433/x", "an IPv4 address not in dotted-decimal form"),
        ("https://169.254.169.254./x", "an IPv4 address not in dotted-decimal form"),
        ("https://localhost./x", "a local host name"),
        ("https://push.internal./x", "a local host name"),
        # IPv6 forms that carry an IPv4 address: compatible, NAT64, local NAT64, 6to4, Teredo
        ("https://[::7f00:1]/x", "a private, loopback or link-local address"),
        ("https://[::808:808]/x", "a private, loopback or link-local address"),
        ("https://[64:ff9b::a9fe:a9fe]/x", "a private, loopback or link-local address"),
        ("https://[64:ff9b::10.0.0.1]/x", "a private, loopback or link-local address"),
        ("https://[64:ff9b:1::808:808]/x", "a private, loopback or link-local address"),
        ("https://[2002:7f00:1::1]/x", "a private, loopback or link-local address"),
        ("https://[2002:a9fe:a9fe::1]/x", "a private, loopback or link-local address"),
        ("https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/x", PRIVATE),  # Teredo of 127.0.0.1
        ("https://[ff02::1]/x", "a private, loopback or link-local address"),
        # names no resolver takes; characters no push service uses (NUL: 500 on PostgreSQL)
        (f"https://{'a' * 64}.example.com/x", "a host name label longer than 63 characters"),
        (f"https://{'a.' * 127}com/x", "a host name longer than 253 characters"),
        ("https://push..example.com/x", "not a host name"),
        ("https://a\u0000.com/x", "a character that is not printable ASCII"),
        ("https://fcm.googleapis.com/x\u0000", "a character that is not printable ASCII"),
        ("https://fcm.googleapis.com/a b", "a character that is not printable ASCII"),
        ("https://fcm.googleapis.com/fcm/send/é", "a character that is not printable ASCII"),
    ],
)
def test_an_endpoint_that_is_not_https_on_a_public_host_is_bad_endpoint(
    client: Any, players: Any, push_settings: Settings, endpoint: str, reason: str
) -> None:
    (alice,) = players(client, "alice")
    answer = alice.post("/api/me/push", json=Browser(endpoint).subscription(["your_turn"]))
    assert answer.status_code == 422
    assert answer.json()["error"]["code"] == "bad_endpoint"
    assert answer.json()["error"]["details"] == {"reason": reason}
    assert rows(push_settings) == []


def test_subscribe_keeps_one_row_per_endpoint_and_delete_removes_it(
    client: Any, players: Any, push_settings: Settings
) -> None:
    alice, bob = players(client, "alice", "bob")
    browser = Browser("https://fcm.googleapis.com/fcm/send/one")
    first = alice.post("/api/me/push", json=browser.subscription(["your_turn", "joined"]))
    assert (first.status_code, first.json()) == (201, {"kinds": ["your_turn", "joined"]})
    again = alice.post(
        "/api/me/push",
        json=browser.subscription(["rematch"]),
        headers={"cookie": alice.cookie + "; lang=fr"},
    )
    assert again.status_code == 201
    assert rows(push_settings) == [(alice.id, browser.endpoint, ["rematch"], "fr")]
    # The browser became bob (a device transfer): the endpoint is his now, still one row.
    assert bob.post("/api/me/push", json=browser.subscription(["your_turn"])).status_code == 201
    assert rows(push_settings) == [(bob.id, browser.endpoint, ["your_turn"], "en")]
    # Alice cannot remove bob's; bob can, and a second delete is still 204.
    assert (
        alice.request("DELETE", "/api/me/push", json={"endpoint": browser.endpoint}).status_code
        == 204
    )
    assert len(rows(push_settings)) == 1
    for _ in range(2):
        gone = bob.request("DELETE", "/api/me/push", json={"endpoint": browser.endpoint})
        assert (gone.status_code, gone.content) == (204, b"")
    assert rows(push_settings) == []


def test_subscriptions_racing_keep_one_row_per_endpoint_and_the_limit(
    push_settings: Settings, players: Any, client: Any
) -> None:
    """Eight subscriptions of one endpoint at once are one row; twelve endpoints of one
    player at once keep exactly ten (the player's row is held while they are counted)."""
    import asyncio

    from app.db import make_engine
    from app.store import Store
    from app.store.push import Subscription

    (alice,) = players(client, "alice")

    def sub(endpoint: str) -> Subscription:
        return Subscription(endpoint, "p256dh-key", "auth-key", ("your_turn",), "en")

    async def race() -> tuple[list[bool], list[bool]]:
        db = make_engine(push_settings)
        try:
            store = Store(db, serialize_writes=db.dialect.name == "sqlite")
            same = await asyncio.gather(
                *(store.subscribe(alice.id, sub("https://push.example/same"), 10, n)
                  for n in range(8))
            )
            many = await asyncio.gather(
                *(store.subscribe(alice.id, sub(f"https://push.example/{n}"), 10, n)
                  for n in range(12))
            )
            return same, many
        finally:
            await db.dispose()

    same, many = asyncio.run(race())
    assert same == [True] * 8
    assert sorted(many) == [False] * 3 + [True] * 9  # the shared endpoint counts as one
    assert len(rows(push_settings)) == 10


def test_the_eleventh_endpoint_of_a_player_is_too_many_subscriptions(
    client: Any, players: Any, push_settings: Settings
) -> None:
    (alice,) = players(client, "alice")
    browsers = [Browser(f"https://fcm.googleapis.com/fcm/send/{n}") for n in range(11)]
    for browser in browsers[:10]:
        assert (
            alice.post("/api/me/push", json=browser.subscription(["your_turn"])).status_code == 201
        )
    eleventh = alice.post("/api/me/push", json=browsers[10].subscription(["your_turn"]))
    assert eleventh.status_code == 409
    assert eleventh.json()["error"]["code"] == "too_many_subscriptions"
    assert eleventh.json()["error"]["details"] == {"limit": 10}
    # Sending one of the ten again is an update, never refused.
    assert alice.post("/api/me/push", json=browsers[3].subscription(["joined"])).status_code == 201
    assert len(rows(push_settings)) == 10


@pytest.mark.parametrize(
    "change",
    [
        {"kinds": ["your_turn", "chat"]},
        {"kinds": []},
        {"keys": {"p256dh": "short", "auth": "AAAAAAAAAAAAAAAAAAAAAA"}},
        {"keys": {"p256dh": "A" * 87, "auth": "not base64 !!!!!!!!!!!"}},
        {"keys": {"p256dh": "A" * 86 + "\u0000", "auth": "AAAAAAAAAAAAAAAAAAAAAA"}},
        {"keys": {"p256dh": "A" * 87, "auth": "AAAAAAAAAAAAAAAAAAAAA\u0000"}},
        {"extra": 1},
    ],
)
def test_a_malformed_subscription_is_invalid_request(
    client: Any, players: Any, change: dict[str, Any]
) -> None:
    (alice,) = players(client, "alice")
    body = {
        **Browser("https://fcm.googleapis.com/fcm/send/x").subscription(["your_turn"]),
        **change,
    }
    answer = alice.post("/api/me/push", json=body)
    assert (answer.status_code, error_code(answer)) == (422, "invalid_request")


def test_subscription_writes_are_rate_limited(
    client: Any, players: Any, push_settings: Settings
) -> None:
    (alice,) = players(client, "alice")
    browser = Browser("https://fcm.googleapis.com/fcm/send/x")
    limit = push_settings.limit_push_writes_per_player_min
    for _ in range(limit):
        assert alice.post("/api/me/push", json=browser.subscription(["joined"])).status_code == 201
    answer = alice.post("/api/me/push", json=browser.subscription(["joined"]))
    assert (answer.status_code, error_code(answer)) == (429, "rate_limited")
    assert answer.headers["retry-after"]


# --- notices ----------------------------------------------------------------------------------


def vapid_claims(authorization: str) -> dict[str, Any]:
    """The signed claims of a VAPID header, after checking its signature and key."""
    assert authorization.startswith("vapid t=")
    assert Vapid02.verify(authorization)
    token = authorization.split("t=", 1)[1].split(",", 1)[0]
    assert authorization.rsplit("k=", 1)[1] == VapidKeys(VAPID).public_key
    claims: dict[str, Any] = json.loads(unb64url(token.split(".")[1]))
    return claims


def online_game(alice: Any, bob: Any) -> dict[str, Any]:
    game = alice.new_game("tally", params={"opponent": "online", "limit": 50})
    assert bob.post(f"/api/games/{game['id']}/join").status_code == 200
    return game


def test_joined_your_turn_and_rematch_reach_the_push_service_encrypted_and_signed(
    client: Any, players: Any, push_service: FakePushService
) -> None:
    alice, bob = players(client, "alice", "bob")
    assert bob.put("/api/me", json={"name": "Boris"}).status_code == 200
    phone = Browser(push_service.endpoint("alice-phone"))
    kinds = ["your_turn", "joined", "rematch"]
    subscribed = alice.post(
        "/api/me/push",
        json=phone.subscription(kinds),
        headers={"cookie": alice.cookie + "; lang=ru"},
    )
    assert subscribed.status_code == 201

    game = online_game(alice, bob)
    joined = push_service.next()
    assert joined.path == "/push/alice-phone"
    assert phone.decrypt(joined) == {
        "type": "joined",
        "title": "Соперник пришёл",
        "body": "Boris занял свободное место в вашей партии «tally».",
        "url": f"/g/{game['id']}",
        "game_id": game["id"],
    }
    claims = vapid_claims(joined.headers["authorization"])
    assert claims["aud"] == f"http://{push_service.host_port}"
    assert claims["sub"] == "mailto:ops@example.org"
    assert time.time() < claims["exp"] <= time.time() + 24 * 3600
    assert (joined.headers["ttl"], joined.headers["urgency"], joined.headers["topic"]) == (
        "3600",
        "normal",
        game["id"],
    )

    # Bob moves when it is his turn; then it is alice's: your_turn, urgent.
    state = alice.get(f"/api/games/{game['id']}").json()
    if state["view"]["turn"] == 0:
        assert alice.move(game["id"], state["version"], {"type": "add", "n": 1}).status_code == 200
        assert push_service.nothing_within(0.5)  # her own move tells her nothing
        state = alice.get(f"/api/games/{game['id']}").json()
    moved = bob.move(game["id"], state["version"], {"type": "add", "n": 2})
    assert moved.status_code == 200
    turn = push_service.next()
    assert phone.decrypt(turn) == {
        "type": "your_turn",
        "title": "Ваш ход",
        "body": "Boris сделал ход в игре «tally».",
        "url": f"/g/{game['id']}",
        "game_id": game["id"],
    }
    assert (turn.headers["ttl"], turn.headers["urgency"], turn.headers["topic"]) == (
        "86400",
        "high",
        game["id"],
    )
    vapid_claims(turn.headers["authorization"])

    # Bob resigns (no turn follows), then offers a rematch: one notice, even if offered twice.
    version = moved.json()["version"]
    assert bob.move(game["id"], version, {"type": "resign"}).status_code == 200
    url = f"/api/games/{game['id']}/rematch"
    assert bob.post(url, json={"action": "offer"}).status_code == 200
    rematch = push_service.next()
    assert phone.decrypt(rematch)["type"] == "rematch"
    assert phone.decrypt(rematch)["body"] == "Boris предлагает реванш в игре «tally»."
    assert rematch.headers["ttl"] == "600"
    assert bob.post(url, json={"action": "offer"}).status_code == 200
    assert push_service.nothing_within(0.5)


def test_no_your_turn_while_the_player_has_the_game_open(
    client: Any, players: Any, push_service: FakePushService
) -> None:
    alice, bob = players(client, "alice", "bob")
    phone = Browser(push_service.endpoint("alice"))
    assert alice.post("/api/me/push", json=phone.subscription(["your_turn"])).status_code == 201
    game = online_game(alice, bob)
    state = alice.get(f"/api/games/{game['id']}").json()
    if state["view"]["turn"] == 0:
        state = alice.move(game["id"], state["version"], {"type": "add", "n": 1}).json()
    with alice.websocket(f"/ws/games/{game['id']}") as socket:
        assert socket.receive_json()["type"] in ("state", "presence")
        assert bob.move(game["id"], state["version"], {"type": "add", "n": 1}).status_code == 200
        assert push_service.nothing_within(1.0)


def test_a_410_deletes_the_subscription_and_a_500_is_retried(
    client: Any, players: Any, push_service: FakePushService, push_settings: Settings
) -> None:
    alice, bob = players(client, "alice", "bob")
    kept = Browser(push_service.endpoint("kept"))
    gone = Browser(push_service.endpoint("gone"))
    for browser in (kept, gone):
        assert alice.post("/api/me/push", json=browser.subscription(["joined"])).status_code == 201
    client.app.state.services.push.RETRY_DELAYS_S = (0.05, 0.05)
    push_service.statuses.update({"/push/kept": [500, 201], "/push/gone": [410]})
    online_game(alice, bob)
    answered = [(r.path, r.status) for r in (push_service.next() for _ in range(3))]
    assert sorted(answered) == [("/push/gone", 410), ("/push/kept", 201), ("/push/kept", 500)]
    deadline = time.monotonic() + 5
    while len(rows(push_settings)) != 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert rows(push_settings) == [(alice.id, kept.endpoint, ["joined"], "en")]
    assert push_service.nothing_within(0.3)  # the 201 ended the retries


def test_every_failure_is_retried_then_dropped_with_one_log_line(
    client: Any, players: Any, push_service: FakePushService, caplog: Any
) -> None:
    alice, bob = players(client, "alice", "bob")
    flaky = Browser(push_service.endpoint("flaky"))
    assert alice.post("/api/me/push", json=flaky.subscription(["joined"])).status_code == 201
    client.app.state.services.push.RETRY_DELAYS_S = (0.05, 0.05)
    push_service.statuses["/push/flaky"] = [503, 503, 503, 503]
    with caplog.at_level("WARNING", logger="app.push"):
        online_game(alice, bob)
        statuses = [push_service.next().status for _ in range(3)]
        assert push_service.nothing_within(0.5)
    assert statuses == [503, 503, 503]
    lines = [r.getMessage() for r in caplog.records if r.name == "app.push"]
    assert len(lines) == 1 and "dropped after 3 attempts: status 503" in lines[0]


def test_the_key_is_made_once_on_loopback_and_push_is_off_elsewhere(tmp_path: Any) -> None:
    from app.push.keys import startup_vapid_key

    settings = Settings(secret="x", vapid_key_file=tmp_path / "var" / "vapid")
    assert startup_vapid_key(settings, "0.0.0.0") is None  # push off; the server starts
    assert not (tmp_path / "var" / "vapid").exists()
    made = startup_vapid_key(settings, "127.0.0.1")
    assert made is not None and len(unb64url(made)) == 32
    assert (tmp_path / "var" / "vapid").stat().st_mode & 0o777 == 0o600
    assert startup_vapid_key(settings, "::1") == made  # kept, not made again
    given = Settings(secret="x", vapid_private_key=VAPID, vapid_key_file=tmp_path / "other")
    assert startup_vapid_key(given, "0.0.0.0") == VAPID


def test_at_send_time_a_name_that_resolves_to_a_private_address_gets_nothing() -> None:
    from app.push.endpoints import BadEndpoint, pinned

    with pytest.raises(BadEndpoint, match="resolves to a non-public address"):
        pinned("https://localhost/push/x", frozenset())  # admitted names are resolved again
    assert pinned("http://127.0.0.1:9/push/x", frozenset({"127.0.0.1:9"})) == "127.0.0.1"
    assert pinned("https://8.8.8.8/push/x", frozenset()) == "8.8.8.8"
