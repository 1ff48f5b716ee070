"""One player on several devices: ``POST /api/me/transfer`` issues a code (and its QR
modules), ``POST /api/me/claim`` makes another browser that player, once."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
import segno
from fastapi.testclient import TestClient

from app.config import Settings
from app.identity import COOKIE, CookieSigner
from app.main import create_app
from app.transfer import ALPHABET, code_hash
from engines.reference.tally import ENGINE as TALLY
from tests.conftest import FakeClock


def error(response: Any) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


def issue(player: Any) -> dict[str, Any]:
    answer = player.post("/api/me/transfer")
    assert answer.status_code == 201, answer.text
    return answer.json()  # type: ignore[no-any-return]


def claim_fresh(client: TestClient, code: str, **headers: str) -> Any:
    """A claim from a browser that has no cookie yet (a new device)."""
    client.cookies.clear()
    return client.post("/api/me/claim", json={"code": code}, headers=headers)


def player_cookies(response: Any) -> list[str]:
    return [c for c in response.headers.get_list("set-cookie") if c.startswith(f"{COOKIE}=")]


def test_a_code_makes_a_new_browser_the_same_player(
    client: TestClient, alice_bob: Any, settings: Settings, clock: FakeClock
) -> None:
    alice, _ = alice_bob
    alice.put("/api/me", json={"name": "Alice"})
    game = alice.new_game("tally")
    code = issue(alice)
    assert len(code["code"]) == 8 and set(code["code"]) <= set(ALPHABET)
    assert code["url"] == f"http://testserver/me?code={code['code']}"
    assert code["expires_ms"] == clock.ms + 600_000
    expected = [[1 if m else 0 for m in row] for row in segno.make(code["url"], error="m").matrix]
    assert code["qr"] == expected
    assert code["qr"][0][:7] == [1] * 7 and len(code["qr"]) == len(code["qr"][0])

    claimed = claim_fresh(client, code["code"].lower())  # typed in lower case: still good
    assert claimed.status_code == 200 and claimed.json() == {"name": "Alice"}
    cookies = player_cookies(claimed)
    assert len(cookies) == 1  # the new browser's own fresh id is not set beside it
    value = cookies[0].split(";")[0].split("=", 1)[1]
    assert CookieSigner(settings.secret).unsign(value) == alice.id
    assert "HttpOnly" in cookies[0] and "SameSite=Lax" in cookies[0]
    client.cookies.clear()
    mine = client.get("/api/me/games", headers={"cookie": f"{COOKIE}={value}"}).json()
    assert [g["id"] for g in mine["games"]] == [game["id"]]
    # The old browser keeps its identity; the code is spent.
    assert alice.get("/api/me").json() == {"name": "Alice"}
    assert [g["id"] for g in alice.get("/api/me/games").json()["games"]] == [game["id"]]
    assert error(claim_fresh(client, code["code"])) == (404, "bad_code")


def test_wrong_malformed_and_expired_codes(
    client: TestClient, alice_bob: Any, clock: FakeClock
) -> None:
    alice, bob = alice_bob
    for wrong in ("ZZZZZZZZ", "abc", "OOOOOOOO", "AAAA-AAAA-AAAA"):
        assert error(bob.post("/api/me/claim", json={"code": wrong})) == (404, "bad_code")
    assert error(bob.post("/api/me/claim", json={})) == (422, "invalid_request")
    assert error(bob.post("/api/me/claim", json={"code": 12345678})) == (422, "invalid_request")
    late = issue(alice)["code"]
    just_in_time = issue(alice)["code"]
    clock.advance(600_000 - 1)
    assert bob.post("/api/me/claim", json={"code": just_in_time}).status_code == 200
    clock.advance(1)
    assert error(bob.post("/api/me/claim", json={"code": late})) == (404, "bad_code")
    foreign = alice.post("/api/me/transfer", headers={"origin": "https://evil.example"})
    assert error(foreign) == (403, "bad_origin")


def test_two_racing_claims_exactly_one_wins(client: TestClient, alice_bob: Any) -> None:
    alice, _ = alice_bob
    code = issue(alice)["code"]
    store = client.app.state.services.store  # type: ignore[attr-defined]

    async def race() -> list[str | None]:
        now = client.app.state.services.clock.now_ms()  # type: ignore[attr-defined]
        claims = [store.claim_transfer(code_hash(code), now) for _ in range(4)]
        return list(await asyncio.gather(*claims))

    won = client.portal.call(race)  # type: ignore[union-attr]
    assert sorted(won, key=str) == [None, None, None, alice.id]


@pytest.fixture
def limited(settings: Settings, clock: FakeClock) -> Iterator[TestClient]:
    tight = settings.model_copy(
        update={
            "limit_claims_per_player_min": 3,
            "limit_claims_per_ip_min": 5,
            "limit_transfers_per_player_min": 2,
        }
    )
    with TestClient(create_app(tight, engines={"tally": TALLY}, clock=clock)) as client:
        yield client


def test_claims_and_codes_are_rate_limited(limited: TestClient, players: Any) -> None:
    alice, bob, carol = players(limited, "alice", "bob", "carol")
    for _ in range(3):
        assert error(bob.post("/api/me/claim", json={"code": "ZZZZZZZZ"})) == (404, "bad_code")
    refused = bob.post("/api/me/claim", json={"code": "ZZZZZZZZ"})
    assert error(refused) == (429, "rate_limited")
    assert 1 <= int(refused.headers["retry-after"]) <= 60
    for _ in range(2):  # the address allows 5 a minute in all: 3 + 2
        assert error(carol.post("/api/me/claim", json={"code": "ZZZZZZZZ"})) == (404, "bad_code")
    assert error(carol.post("/api/me/claim", json={"code": "ZZZZZZZZ"})) == (429, "rate_limited")
    issue(alice)
    issue(alice)
    assert error(alice.post("/api/me/transfer")) == (429, "rate_limited")
