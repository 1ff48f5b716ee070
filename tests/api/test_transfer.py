"""One player on several devices: ``POST /api/me/transfer`` issues a code (and its QR
modules), ``POST /api/me/claim`` makes another browser that player, once. The code's
link (``/me?code=…``) only shows who the browser is and who it would become: a GET
never switches anyone. Stored rows are read back through a connection of their own."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from typing import Any

import pytest
import segno
from fastapi.testclient import TestClient

from app.config import Settings
from app.i18n import LANGUAGES, catalog
from app.identity import COOKIE, CookieSigner
from app.main import create_app
from app.pages import TEMPLATES_DIR
from app.transfer import ALPHABET, code_hash
from engines.reference.tally import ENGINE as TALLY
from tests.conftest import FakeClock
from tests.stored import stored


def error(response: Any) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


def issue(player: Any) -> dict[str, Any]:
    """A code of a player who has a row (a name or a game): nobody else has one to give."""
    answer = player.post("/api/me/transfer")
    assert answer.status_code == 201, answer.text
    return answer.json()  # type: ignore[no-any-return]


def claim_fresh(client: TestClient, code: str, **headers: str) -> Any:
    """A claim from a browser that has no cookie yet (a new device)."""
    client.cookies.clear()
    return client.post("/api/me/claim", json={"code": code}, headers=headers)


def player_cookies(response: Any) -> list[str]:
    return [c for c in response.headers.get_list("set-cookie") if c.startswith(f"{COOKIE}=")]


def used_ms(settings: Settings, code: str) -> list[Any]:
    query = f"SELECT used_ms FROM transfers WHERE code_hash = '{code_hash(code)}'"
    return [row[0] for row in stored(settings, query)]


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

    preview = client.get(f"/me?code={code['code']}")  # a code and a name: never cached
    assert preview.status_code == 200 and preview.headers["cache-control"] == "no-store"
    assert "no-store" not in client.get("/me").headers.get("cache-control", "")
    claimed = claim_fresh(client, code["code"].lower())  # typed in lower case: still good
    assert claimed.status_code == 200 and claimed.json()["name"] == "Alice"
    cookies = player_cookies(claimed)
    assert len(cookies) == 1  # the new browser's own fresh id is not set beside it
    value = cookies[0].split(";")[0].split("=", 1)[1]
    assert CookieSigner(settings.secret).unsign(value) == alice.id
    assert "HttpOnly" in cookies[0] and "SameSite=Lax" in cookies[0]
    client.cookies.clear()
    mine = client.get("/api/me/games", headers={"cookie": f"{COOKIE}={value}"}).json()
    assert [g["id"] for g in mine["games"]] == [game["id"]]
    # The old browser keeps its identity; the code is spent.
    assert alice.get("/api/me").json()["name"] == "Alice"
    assert [g["id"] for g in alice.get("/api/me/games").json()["games"]] == [game["id"]]
    assert error(claim_fresh(client, code["code"])) == (404, "bad_code")


def test_wrong_malformed_and_expired_codes(
    client: TestClient, alice_bob: Any, clock: FakeClock
) -> None:
    alice, bob = alice_bob
    alice.put("/api/me", json={"name": "Alice"})
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
    alice.put("/api/me", json={"name": "Alice"})
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
            "limit_transfers_per_ip_min": 3,
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
    alice.put("/api/me", json={"name": "Alice"})
    carol.put("/api/me", json={"name": "Carol"})
    issue(alice)
    issue(alice)
    assert error(alice.post("/api/me/transfer")) == (429, "rate_limited")
    # The address allows 3 a minute in all: new cookies do not buy more.
    issue(carol)
    refused = carol.post("/api/me/transfer")
    assert error(refused) == (429, "rate_limited")
    assert 1 <= int(refused.headers["retry-after"]) <= 60


def test_a_browser_without_a_player_gets_no_code_and_makes_no_row(
    client: TestClient, alice_bob: Any, settings: Settings
) -> None:
    _, bob = alice_bob
    for _ in range(12):
        client.cookies.clear()
        answer = client.post("/api/me/transfer")  # no cookie: a new id each time
        assert error(answer) == (409, "nothing_to_transfer")
    assert error(bob.post("/api/me/transfer")) == (409, "nothing_to_transfer")  # a cookie, no row
    assert stored(settings, "SELECT count(*) FROM players") == [(0,)]
    assert stored(settings, "SELECT count(*) FROM transfers") == [(0,)]
    bob.put("/api/me", json={"name": "Bob"})  # now there is someone to move
    assert len(issue(bob)["code"]) == 8
    assert stored(settings, "SELECT count(*) FROM transfers") == [(1,)]


def test_cookieless_transfer_requests_are_limited_per_address(limited: TestClient) -> None:
    answers = []
    for _ in range(5):
        limited.cookies.clear()
        answers.append(error(limited.post("/api/me/transfer")))
    assert answers == [(409, "nothing_to_transfer")] * 3 + [(429, "rate_limited")] * 2


# The link's page: who you are, who you would become, and a GET that changes nothing -------


def switch_panel(html: str) -> dict[str, Any]:
    """What ``#switch-panel`` of /me shows (None values when the page has none)."""
    head = re.search(r'id="switch-panel"[^>]*data-switch="([^"]*)" data-code="([^"]*)"', html)
    return {
        "state": head.group(1) if head else None,
        "code": head.group(2) if head else None,
        "names": re.findall(r'class="switch-who__name" data-name>([^<]*)<', html),
        "games": re.findall(r'class="switch-who__games">([^<]*)<', html),
        "problem": re.findall(r'class="switch-panel__problem"[^>]*>([^<]*)<', html),
        "confirm": "data-switch-confirm" in html,
        "left_behind": "switch-panel__note" in html,
    }


def test_a_transfer_link_shows_both_players_and_switches_nothing(
    client: TestClient, alice_bob: Any, settings: Settings
) -> None:
    alice, bob = alice_bob
    alice.put("/api/me", json={"name": "Alice <3"})
    alice_game = alice.new_game("tally")
    bob.put("/api/me", json={"name": "Bob"})
    bob_games = [bob.new_game("tally")["id"] for _ in range(2)]
    code = issue(alice)["code"]

    page = bob.get(f"/me?code={code.lower()}")  # as a person might type it
    assert page.status_code == 200
    assert page.headers.get_list("set-cookie") == []  # a GET never changes the cookie
    assert switch_panel(page.text) == {
        "state": "confirm",
        "code": code,
        "names": ["Bob", "Alice &lt;3"],  # escaped: a name is the player's own text
        "games": ["Games: 2", "Games: 1"],
        "problem": [],
        "confirm": True,
        "left_behind": True,
    }
    # Nothing changed: Bob is Bob with his games, and the code is still unused.
    assert bob.get("/api/me").json()["name"] == "Bob"
    assert {g["id"] for g in bob.get("/api/me/games").json()["games"]} == set(bob_games)
    assert used_ms(settings, code) == [None]

    # The page's button posts the claim: only now does the browser become Alice.
    claimed = bob.post("/api/me/claim", json={"code": code})
    assert claimed.status_code == 200 and claimed.json()["name"] == "Alice <3"
    value = player_cookies(claimed)[0].split(";")[0].split("=", 1)[1]
    assert CookieSigner(settings.secret).unsign(value) == alice.id
    client.cookies.clear()
    mine = client.get("/api/me/games", headers={"cookie": f"{COOKIE}={value}"}).json()
    assert [g["id"] for g in mine["games"]] == [alice_game["id"]]
    assert used_ms(settings, code) != [None]


def test_a_new_visitor_opening_a_link_stays_a_new_visitor(
    client: TestClient, alice_bob: Any, settings: Settings
) -> None:
    alice, _ = alice_bob
    alice.put("/api/me", json={"name": "Alice"})
    code = issue(alice)["code"]
    client.cookies.clear()
    page = client.get(f"/me?code={code}")
    cookies = player_cookies(page)
    assert len(cookies) == 1  # the visitor's own new id, not Alice's
    value = cookies[0].split(";")[0].split("=", 1)[1]
    fresh = CookieSigner(settings.secret).unsign(value)
    assert fresh is not None and fresh != alice.id
    shown = switch_panel(page.text)
    assert (shown["state"], shown["names"], shown["games"]) == (
        "confirm",
        ["A new player", "Alice"],
        ["Games: 0", "Games: 0"],
    )
    assert shown["confirm"] and not shown["left_behind"]  # nothing of theirs stays behind
    assert used_ms(settings, code) == [None]
    assert stored(settings, "SELECT id FROM players") == [(alice.id,)]  # no row for a look


def test_a_link_whose_code_cannot_be_used_says_why(
    client: TestClient, alice_bob: Any, clock: FakeClock
) -> None:
    alice, bob = alice_bob
    alice.put("/api/me", json={"name": "Alice"})
    used, late = issue(alice)["code"], issue(alice)["code"]
    assert bob.post("/api/me/claim", json={"code": used}).status_code == 200
    clock.advance(600_000)
    own = issue(alice)["code"]
    expected = "This code is wrong, used or expired. Make a new one on your other device."
    for code in ("ZZZZZZZZ", "abc", "x" * 500, used, late):
        shown = switch_panel(bob.get("/me", params={"code": code}).text)
        assert (shown["state"], shown["problem"], shown["confirm"]) == (
            "bad_code",
            [expected],
            False,
        ), code
    shown = switch_panel(alice.get(f"/me?code={own}").text)
    assert (shown["state"], shown["confirm"]) == ("own_code", False)
    assert shown["problem"] == [
        "This code is for the player you already are: there is nothing to switch."
    ]
    assert switch_panel(alice.get("/me").text)["state"] is None  # no code, no question


def test_looking_at_links_counts_as_guessing(limited: TestClient, players: Any) -> None:
    alice, bob = players(limited, "alice", "bob")
    alice.put("/api/me", json={"name": "Alice"})
    code = issue(alice)["code"]
    for guess in ("ZZZZZZZZ", "YYYYYYYY", "XXXXXXXX"):  # 3 a minute for this browser
        assert switch_panel(bob.get(f"/me?code={guess}").text)["state"] == "bad_code"
    shown = switch_panel(bob.get(f"/me?code={code}").text)
    assert (shown["state"], shown["confirm"]) == ("rate_limited", False)
    assert shown["problem"] == ["Too many tries. Wait a minute, then open the link again."]


def test_the_link_page_speaks_every_language(client: TestClient, alice_bob: Any) -> None:
    alice, bob = alice_bob
    alice.put("/api/me", json={"name": "Alice"})
    code = issue(alice)["code"]
    page = bob.get(f"/me?code={code}", headers={"cookie": f"{bob.cookie}; lang=ru"})
    assert switch_panel(page.text)["names"] == ["Новый игрок", "Alice"]
    assert "Перевести этот браузер на другого игрока?" in page.text
    source = (TEMPLATES_DIR / "me.html").read_text("utf-8")
    keys = set(re.findall(r'"(me\.switch\.[\w.]*\w)"', source))  # "….problem." is completed:
    keys |= {f"me.switch.problem.{p}" for p in ("bad_code", "rate_limited", "own_code")}
    keys |= {"error.nothing_to_transfer"}
    assert len(keys) >= 15
    english = catalog("en")
    for lang in LANGUAGES:
        words = catalog(lang)
        assert {key for key in keys if not words.get(key)} == set(), lang
        for key in keys:  # the same placeholders in every language
            assert re.findall(r"{\w+}", words[key]) == re.findall(r"{\w+}", english[key]), key
