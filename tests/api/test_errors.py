"""Bad input: each gets its own status and code, none is a 500, none writes anything."""

from __future__ import annotations

from typing import Any

import pytest


def error(response: Any) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


def count_games(client: Any, player: Any) -> int:
    return len(player.get("/api/records").json()["records"])


def test_unknown_game(alice_bob: Any) -> None:
    alice, _ = alice_bob
    assert error(alice.post("/api/games", json={"game": "chess"})) == (404, "unknown_game")


def test_malformed_json(alice_bob: Any) -> None:
    alice, _ = alice_bob
    response = alice.post(
        "/api/games", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert error(response) == (400, "bad_json")


@pytest.mark.parametrize(
    "body",
    [
        {"game": 5},
        {"game": "tally", "params": "limit=5"},
        {"game": "tally", "public": "yes"},
        {"game": "tally", "extra": 1},
        {},
    ],
)
def test_wrong_types(alice_bob: Any, body: dict[str, Any]) -> None:
    alice, _ = alice_bob
    assert error(alice.post("/api/games", json=body)) == (422, "invalid_request")


def test_bad_params_and_number(alice_bob: Any) -> None:
    alice, _ = alice_bob
    assert error(alice.post("/api/games", json={"game": "tally", "params": {"limit": 500}})) == (
        400,
        "bad_limit",
    )
    for number in ("4173920-t", "41739205t", "41739205-T", "41739205-", "x1739205-t"):
        assert error(alice.post("/api/games", json={"game": "tally", "number": number})) == (
            400,
            "bad_number",
        )


def test_huge_body(alice_bob: Any) -> None:
    alice, _ = alice_bob
    response = alice.post(
        "/api/games", content=b"x" * (64 * 1024 + 1), headers={"content-type": "application/json"}
    )
    assert error(response) == (413, "too_large")


def test_unknown_game_id(alice_bob: Any) -> None:
    alice, _ = alice_bob
    assert error(alice.get("/api/games/nope")) == (404, "game_not_found")
    assert error(alice.move("nope", 0, {"type": "add", "n": 1})) == (404, "game_not_found")
    assert error(alice.get("/api/games/" + "x" * 300)) == (404, "game_not_found")


def test_stale_version_returns_current_state_and_writes_nothing(alice_bob: Any) -> None:
    alice, _ = alice_bob
    game = alice.new_game("tally")
    alice.move(game["id"], 0, {"type": "add", "n": 1})
    stale = alice.move(game["id"], 0, {"type": "add", "n": 1})
    assert error(stale) == (409, "stale_version")
    assert stale.json()["current"]["version"] == 1
    assert len(alice.get(f"/api/games/{game['id']}/log").json()["moves"]) == 1


def test_move_by_a_player_without_a_seat(alice_bob: Any) -> None:
    alice, bob = alice_bob
    game = alice.new_game("tally")
    assert error(bob.move(game["id"], 0, {"type": "add", "n": 1})) == (403, "not_seated")
    assert alice.get(f"/api/games/{game['id']}").json()["version"] == 0


def test_forged_cookie_is_a_new_player(alice_bob: Any, client: Any) -> None:
    alice, _ = alice_bob
    game = alice.new_game("tally")
    client.cookies.clear()
    forged = client.post(
        f"/api/games/{game['id']}/moves",
        json={"version": 0, "move": {"type": "add", "n": 1}},
        headers={"cookie": "player=player-alice.forgedsignature"},
    )
    assert error(forged) == (403, "not_seated")


def test_not_your_turn_is_403(alice_bob: Any) -> None:
    alice, bob = alice_bob
    game = alice.new_game("tally", params={"opponent": "online"})
    bob.post(f"/api/games/{game['id']}/join")
    start = game["view"]["turn"]
    wrong = bob if start == 0 else alice
    assert error(wrong.move(game["id"], 0, {"type": "add", "n": 1})) == (403, "not_your_turn")


def test_waiting_game_refuses_moves(alice_bob: Any) -> None:
    alice, _ = alice_bob
    game = alice.new_game("tally", params={"opponent": "online"})
    assert error(alice.move(game["id"], 0, {"type": "add", "n": 1})) == (
        409,
        "waiting_for_opponent",
    )


def test_illegal_and_malformed_moves(alice_bob: Any) -> None:
    alice, _ = alice_bob
    game = alice.new_game("tally")
    assert error(alice.move(game["id"], 0, {"type": "add", "n": 9})) == (422, "out_of_range")
    assert error(alice.move(game["id"], 0, {"type": "jump"})) == (422, "unknown_move")
    assert error(
        alice.post(f"/api/games/{game['id']}/moves", json={"version": "0", "move": {}})
    ) == (
        422,
        "invalid_request",
    )
    assert len(alice.get(f"/api/games/{game['id']}/log").json()["moves"]) == 0


def test_bad_name(alice_bob: Any) -> None:
    alice, _ = alice_bob
    for name in ("", "   ", "x" * 25, "tab\there"):
        assert error(alice.put("/api/me", json={"name": name})) == (422, "bad_name")


def test_daily_date_far_from_server_date(alice_bob: Any) -> None:
    alice, _ = alice_bob
    assert error(alice.post("/api/games", json={"game": "tally", "daily": "2026-11-25"})) == (
        422,
        "bad_date",
    )
    assert error(alice.post("/api/games", json={"game": "tally", "daily": "yesterday"})) == (
        422,
        "bad_date",
    )


@pytest.mark.parametrize("day", ["20261118", "2026-W47-3", "2026W473", "2026-11-1", "2026-1-18"])
def test_a_daily_date_has_one_spelling(alice_bob: Any, day: str) -> None:
    # Other ISO spellings of the same day would be other attempts at a one-attempt board.
    alice, _ = alice_bob
    assert error(alice.post("/api/games", json={"game": "tally", "daily": day})) == (
        422,
        "bad_date",
    )
    assert error(alice.get(f"/api/daily/tally?date={day}")) == (422, "bad_date")


def test_unknown_route_and_method(client: Any) -> None:
    assert error(client.get("/api/nothing")) == (404, "not_found")
    refused = client.delete("/api/catalog")
    assert error(refused) == (405, "method_not_allowed")
    assert refused.headers["allow"] == "GET"
    # Two routes at one path (GET and PUT /api/me): the 405 names both, not the first's.
    assert client.request("OPTIONS", "/api/me").headers["allow"] == "GET, PUT"
    assert client.patch("/api/seeks/abc").headers["allow"] == "DELETE, GET"


def test_security_headers(client: Any) -> None:
    page = client.get("/").headers
    assert "script-src 'self'" in page["content-security-policy"]
    assert "unsafe-inline" not in page["content-security-policy"]
    assert page["x-content-type-options"] == "nosniff"
    assert page["referrer-policy"] == "strict-origin-when-cross-origin"
    answer = client.get("/api/catalog").headers  # data: it may load or frame nothing
    assert answer["content-security-policy"] == "default-src 'none'; frame-ancestors 'none'"
    assert (answer["x-content-type-options"], answer["x-frame-options"]) == ("nosniff", "DENY")


def test_nul_bytes_never_reach_the_database(alice_bob: Any) -> None:
    # PostgreSQL refuses NUL in text; schemathesis found this as a 500.
    alice, _ = alice_bob
    assert error(alice.get("/api/games/%00")) == (404, "game_not_found")
    assert error(alice.get("/api/records?game=%00")) == (404, "unknown_game")
