"""Push follows the player, not the device: a browser that claims another player's
transfer code stops getting the notices of the player it was (its claim carries its push
endpoint; the page then subscribes it again as the player it became), and a browser
without the player cookie gets no subscription (nor a player row). Stored rows are read
back from the database; notices are sent to a fake push service on loopback."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from app.config import Settings
from tests.api.test_push import client, online_game, push_service, push_settings, rows
from tests.push_service import Browser, FakePushService

__all__ = ["client", "push_service", "push_settings"]  # the fixtures, shared


def player_ids(settings: Settings) -> list[str]:
    async def read() -> list[str]:
        engine = create_async_engine(settings.async_database_url)
        async with engine.connect() as conn:
            found = [r[0] for r in await conn.execute(text("SELECT id FROM players ORDER BY id"))]
        await engine.dispose()
        return found

    return asyncio.run(read())


def code_of(player: Any) -> str:
    assert player.put("/api/me", json={"name": player.id[:5]}).status_code == 200
    answer = player.post("/api/me/transfer")
    assert answer.status_code == 201, answer.text
    code: str = answer.json()["code"]
    return code


def test_a_browser_that_claims_another_player_stops_getting_the_first_players_notices(
    client: TestClient, players: Any, push_service: FakePushService, push_settings: Settings
) -> None:
    alice, bob, carol = players(client, "alice", "bob", "carol")
    phone = Browser(push_service.endpoint("phone"))
    laptop = Browser(push_service.endpoint("alice-laptop"))
    for browser in (phone, laptop):
        answer = alice.post("/api/me/push", json=browser.subscription(["joined"]))
        assert answer.status_code == 201
    code = code_of(bob)

    # Alice's phone becomes Bob: its claim carries its endpoint.
    claimed = alice.post("/api/me/claim", json={"code": code, "endpoint": phone.endpoint})
    assert claimed.status_code == 200, claimed.text
    assert rows(push_settings) == [(alice.id, laptop.endpoint, ["joined"], "en")]
    # The page subscribes it again, as Bob now (the answer's cookie).
    again = bob.post("/api/me/push", json=phone.subscription(["joined"]))
    assert again.status_code == 201
    assert rows(push_settings) == [
        (alice.id, laptop.endpoint, ["joined"], "en"),
        (bob.id, phone.endpoint, ["joined"], "en"),
    ]

    online_game(alice, carol)  # Alice's notice: her laptop only, not the phone
    assert push_service.next().path == "/push/alice-laptop"
    assert push_service.nothing_within(0.5)
    online_game(bob, carol)  # Bob's: the phone
    notice = push_service.next()
    assert notice.path == "/push/phone"
    assert phone.decrypt(notice)["type"] == "joined"


def test_a_claim_drops_only_the_claiming_players_own_subscription(
    client: TestClient, players: Any, push_service: FakePushService, push_settings: Settings
) -> None:
    """A claim naming someone else's endpoint drops nothing of theirs; a claim without an
    endpoint (a browser without push) drops nothing; a wrong code drops nothing."""
    alice, bob, carol = players(client, "alice", "bob", "carol")
    phone = Browser(push_service.endpoint("alice-phone"))
    assert alice.post("/api/me/push", json=phone.subscription(["joined"])).status_code == 201
    body = {"code": "ZZZZZZZZ", "endpoint": phone.endpoint}
    assert alice.post("/api/me/claim", json=body).status_code == 404
    claimed = carol.post("/api/me/claim", json={"code": code_of(bob), "endpoint": phone.endpoint})
    assert claimed.status_code == 200
    assert alice.post("/api/me/claim", json={"code": code_of(bob)}).status_code == 200
    assert rows(push_settings) == [(alice.id, phone.endpoint, ["joined"], "en")]
    refused = alice.post("/api/me/claim", json={"code": code_of(bob), "endpoint": "x" * 1025})
    assert refused.status_code == 422
    assert refused.json()["error"]["code"] == "invalid_request"


def test_a_subscription_without_the_player_cookie_is_no_player_and_makes_no_row(
    client: TestClient, players: Any, push_service: FakePushService, push_settings: Settings
) -> None:
    """Before: each cookieless POST made a player (and kept the subscription for them)."""
    phone = Browser(push_service.endpoint("nobody"))
    for _ in range(3):
        client.cookies.clear()
        answer = client.post("/api/me/push", json=phone.subscription(["joined"]))
        assert answer.status_code == 409
        assert answer.json()["error"]["code"] == "no_player"
    assert rows(push_settings) == []
    assert player_ids(push_settings) == []
    # A browser with its cookie (a page of the site set it) subscribes as before.
    (alice,) = players(client, "alice")
    assert alice.post("/api/me/push", json=phone.subscription(["joined"])).status_code == 201
    assert player_ids(push_settings) == [alice.id]
