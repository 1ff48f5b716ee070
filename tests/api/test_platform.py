"""The generic REST contract, played with the reference engine (engines/reference/tally.py)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tests.conftest import FakeClock


def test_first_visit_sets_signed_httponly_cookie(client: Any) -> None:
    response = client.get("/api/me")
    assert response.status_code == 200
    cookie = response.headers["set-cookie"]
    assert cookie.startswith("player=")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Path=/" in cookie
    assert response.json() == {"name": None, "rated": {}}  # this catalog offers no rated play


def test_create_load_move_and_log(alice_bob: Any) -> None:
    alice, _ = alice_bob
    game = alice.new_game("tally", params={"limit": 5})
    assert game["version"] == 0 and game["seat"] == 0 and game["status"] == "active"
    start = game["view"]["tally"]
    moved = alice.move(game["id"], 0, {"type": "add", "n": 2})
    assert moved.status_code == 200, moved.text
    body = moved.json()
    assert body["version"] == 1
    assert body["view"]["tally"] == min(5, start + 2)
    assert body["events"][0] == {"type": "added", "n": 2, "seat": 0}
    loaded = alice.get(f"/api/games/{game['id']}").json()
    assert loaded["version"] == 1 and loaded["view"] == body["view"]
    log = alice.get(f"/api/games/{game['id']}/log").json()
    assert log["moves"] == [{"ply": 1, "seat": 0, "move": {"type": "add", "n": 2}, "at_ms": 0}]
    assert log["number"] == game["number"] and log["seed"] == int(game["number"][:8])


def test_the_log_comes_in_pages(alice_bob: Any) -> None:
    alice, _ = alice_bob
    game = alice.new_game("tally", params={"opponent": "human", "limit": 50})
    for version in range(6):
        assert alice.move(game["id"], version, {"type": "add", "n": 1}).status_code == 200
    url = f"/api/games/{game['id']}/log"
    first = alice.get(f"{url}?limit=4").json()
    assert [m["ply"] for m in first["moves"]] == [1, 2, 3, 4] and first["next"] == 4
    rest = alice.get(f"{url}?from=4&limit=4").json()
    assert [m["ply"] for m in rest["moves"]] == [5, 6] and rest["next"] is None
    whole = alice.get(url).json()
    assert whole["moves"] == first["moves"] + rest["moves"] and whole["next"] is None
    for query in ("limit=0", "limit=501", "from=-1", "from=x"):
        refused = alice.get(f"{url}?{query}")
        assert refused.status_code == 422, query
        assert refused.json()["error"]["code"] == "invalid_request"


def test_number_reproduces_the_board(alice_bob: Any) -> None:
    alice, bob = alice_bob
    first = alice.new_game("tally", number="00000042-t")
    again = bob.new_game("tally", number="00000042-t", params={"limit": 7})
    assert first["number"] == again["number"] == "00000042-t"
    assert first["view"]["tally"] == again["view"]["tally"]
    assert again["params"]["limit"] == 7  # the request chooses what the number leaves open


def test_at_ms_comes_from_the_server_clock(alice_bob: Any, clock: FakeClock) -> None:
    alice, _ = alice_bob
    game = alice.new_game("tally")
    clock.advance(1234)
    alice.move(game["id"], 0, {"type": "add", "n": 1})
    log = alice.get(f"/api/games/{game['id']}/log").json()
    assert log["moves"][0]["at_ms"] == 1234


def test_tick_ends_a_timed_game_on_load_and_logs_it(alice_bob: Any, clock: FakeClock) -> None:
    alice, _ = alice_bob
    game = alice.new_game("tally", params={"timed": True})
    clock.advance(61_000)
    loaded = alice.get(f"/api/games/{game['id']}").json()
    assert loaded["status"] == "over" and loaded["version"] == 1
    assert loaded["outcome"]["reason"] == "time_up"
    log = alice.get(f"/api/games/{game['id']}/log").json()
    assert log["moves"] == [{"ply": 1, "seat": None, "move": None, "at_ms": 61_000}]


def test_computer_plays_its_seat_right_after_the_human(alice_bob: Any) -> None:
    alice, _ = alice_bob
    # In 00000003-t the human opens (see test_computer_opens_when_its_seat_starts).
    game = alice.new_game("tally", number="00000003-t", params={"opponent": "computer"})
    assert game["version"] == 0
    body = alice.move(game["id"], 0, {"type": "add", "n": 3}).json()
    assert body["version"] == 2
    assert [e["seat"] for e in body["events"] if e["type"] == "added"] == [0, 1]
    log = alice.get(f"/api/games/{game['id']}/log").json()
    assert [m["seat"] for m in log["moves"]] == [0, 1]


def test_finished_solo_game_writes_a_record(alice_bob: Any) -> None:
    alice, _ = alice_bob
    game = alice.new_game("tally", params={"limit": 5})
    version = 0
    while True:
        body = alice.move(game["id"], version, {"type": "add", "n": 3}).json()
        version = body["version"]
        if body["status"] == "over":
            break
    records = alice.get("/api/records").json()["records"]
    assert records == [
        {
            "game": "tally",
            "key": "limit5",
            "score": version,
            "time_ms": 0,
            "game_id": game["id"],
            "played": 1,
        }
    ]


def test_display_name(alice_bob: Any) -> None:
    alice, _ = alice_bob
    assert alice.put("/api/me", json={"name": "  Алиса  "}).json()["name"] == "Алиса"
    assert alice.get("/api/me").json()["name"] == "Алиса"


def test_online_join_and_open_list(alice_bob: Any, players: Any, client: Any) -> None:
    alice, bob = alice_bob
    (carol,) = players(client, "carol")
    game = alice.new_game("tally", params={"opponent": "online"}, public=True)
    assert game["status"] == "waiting"
    listed = bob.get("/api/open").json()["games"]
    assert [g["id"] for g in listed] == [game["id"]] and listed[0]["mine"] is False
    assert alice.get("/api/open").json()["games"][0]["mine"] is True
    joined = bob.post(f"/api/games/{game['id']}/join")
    assert joined.status_code == 200 and joined.json()["seats"] == [1]
    assert bob.post(f"/api/games/{game['id']}/join").json()["seats"] == [1]  # idempotent
    third = carol.post(f"/api/games/{game['id']}/join")
    assert third.status_code == 409 and third.json()["error"]["code"] == "no_free_seat"
    assert bob.get("/api/open").json()["games"] == []


def test_cancel_open_game(alice_bob: Any) -> None:
    alice, bob = alice_bob
    game = alice.new_game("tally", params={"opponent": "online"}, public=True)
    refused = bob.post(f"/api/games/{game['id']}/cancel")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_owner"
    assert alice.post(f"/api/games/{game['id']}/cancel").status_code == 204
    assert alice.get("/api/open").json()["games"] == []
    again = alice.post(f"/api/games/{game['id']}/cancel")
    assert again.status_code == 409 and again.json()["error"]["code"] == "not_waiting"


def test_a_cancelled_game_takes_no_seat_and_no_move(alice_bob: Any) -> None:
    alice, bob = alice_bob
    game = alice.new_game("tally", params={"opponent": "online"})
    assert alice.post(f"/api/games/{game['id']}/cancel").status_code == 204
    join = bob.post(f"/api/games/{game['id']}/join")
    assert join.status_code == 409 and join.json()["error"]["code"] == "no_free_seat"
    resign = alice.move(game["id"], 0, {"type": "resign"})
    assert resign.status_code == 409 and resign.json()["error"]["code"] == "game_cancelled"
    assert alice.get(f"/api/games/{game['id']}/log").json()["moves"] == []


def test_cancel_and_join_racing_never_both_win(alice_bob: Any) -> None:
    alice, bob = alice_bob
    for _ in range(12):
        game = alice.new_game("tally", params={"opponent": "online"})
        with ThreadPoolExecutor(2) as pool:
            cancel = pool.submit(alice.post, f"/api/games/{game['id']}/cancel")
            join = pool.submit(bob.post, f"/api/games/{game['id']}/join")
        won = [cancel.result().status_code == 204, join.result().status_code == 200]
        assert won.count(True) == 1, (cancel.result().text, join.result().text)
        status = alice.get(f"/api/games/{game['id']}").json()["status"]
        assert status == ("cancelled" if won[0] else "active")


def test_daily_once_and_board_of_honour(alice_bob: Any) -> None:
    alice, bob = alice_bob
    today = "2026-11-18"
    game = alice.new_game("tally", daily=today)
    assert game["params"]["limit"] == 12
    second = alice.post("/api/games", json={"game": "tally", "daily": today})
    assert second.status_code == 409 and second.json()["error"]["code"] == "daily_played"
    bob_game = bob.new_game("tally", daily=today)
    assert bob_game["number"] == game["number"]
    version = 0
    while True:
        body = alice.move(game["id"], version, {"type": "add", "n": 3}).json()
        version = body["version"]
        if body["status"] == "over":
            break
    alice.put("/api/me", json={"name": "Alice"})
    daily = bob.get(f"/api/daily/tally?date={today}").json()
    assert daily["number"] == game["number"]
    assert daily["honour"] == [
        {"rank": 1, "name": "Alice", "score": 12, "time_ms": 0, "game_id": game["id"]}
    ]


def test_catalog_lists_engines(client: Any) -> None:
    games = client.get("/api/catalog").json()["games"]
    assert [g["name"] for g in games] == ["tally"]


def finish_online_game(alice: Any, bob: Any) -> dict[str, Any]:
    game = alice.new_game("tally", params={"opponent": "online", "limit": 5})
    bob.post(f"/api/games/{game['id']}/join")
    loser = alice if game["view"]["turn"] == 0 else bob
    assert loser.move(game["id"], 0, {"type": "resign"}).json()["status"] == "over"
    return game


def test_rematch_offer_accept_swaps_seats(alice_bob: Any) -> None:
    alice, bob = alice_bob
    game = finish_online_game(alice, bob)
    url = f"/api/games/{game['id']}/rematch"
    early = alice.post(url, json={"action": "accept"})
    assert early.status_code == 409 and early.json()["error"]["code"] == "no_offer"
    assert alice.post(url, json={"action": "offer"}).json() == {"rematch": offer(offered_by=0)}
    own = alice.post(url, json={"action": "accept"})
    assert own.status_code == 409 and own.json()["error"]["code"] == "no_offer"
    assert bob.get(f"/api/games/{game['id']}").json()["rematch"] == offer(offered_by=0)
    accepted = bob.post(url, json={"action": "accept"}).json()["rematch"]
    new_id = accepted["game_id"]
    assert alice.post(url, json={"action": "offer"}).json()["rematch"]["game_id"] == new_id
    assert bob.get(f"/api/games/{new_id}").json()["seats"] == [0]
    assert alice.get(f"/api/games/{new_id}").json()["seats"] == [1]


def offer(**fields: Any) -> dict[str, Any]:
    return {"offered_by": None, "declined_by": None, "game_id": None, **fields}


def test_rematch_refusals(alice_bob: Any, players: Any, client: Any) -> None:
    alice, bob = alice_bob
    (carol,) = players(client, "carol")
    game = finish_online_game(alice, bob)
    url = f"/api/games/{game['id']}/rematch"
    stranger = carol.post(url, json={"action": "offer"})
    assert stranger.status_code == 403 and stranger.json()["error"]["code"] == "not_seated"
    bad = alice.post(url, json={"action": "dance"})
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "invalid_request"
    solo = alice.new_game("tally")
    alone = alice.post(f"/api/games/{solo['id']}/rematch", json={"action": "offer"})
    assert alone.status_code == 409 and alone.json()["error"]["code"] == "no_rematch"
    assert bob.post(url, json={"action": "decline"}).json() == {"rematch": offer(declined_by=1)}


def test_stats_against_the_computer(alice_bob: Any) -> None:
    alice, bob = alice_bob
    for _ in range(2):
        game = alice.new_game("tally", params={"opponent": "computer", "limit": 5})
        alice.move(game["id"], game["version"], {"type": "resign"})
    stats = alice.get("/api/stats/tally").json()
    assert stats == {"game": "tally", "stats": {"computer": {"wins": 0, "losses": 2, "draws": 0}}}
    assert bob.get("/api/stats/tally").json()["stats"] == {}
    assert bob.get("/api/stats/chess").status_code == 404


def test_computer_opens_when_its_seat_starts(alice_bob: Any) -> None:
    alice, _ = alice_bob
    openers = []
    for number in ("00000001-t", "00000002-t", "00000003-t", "00000004-t", "00000005-t"):
        game = alice.new_game("tally", number=number, params={"opponent": "computer"})
        log = alice.get(f"/api/games/{game['id']}/log").json()["moves"]
        assert game["version"] == len(log) and game["view"]["turn"] == 0
        openers.append([m["seat"] for m in log])
    assert sorted(openers) == [[], [], [1], [1], [1]]


def test_a_daily_page_only_for_games_with_a_daily_board(make_client: Any) -> None:
    site = make_client(None)  # the registry's games
    assert site.get("/daily/pairs").status_code == 200
    assert site.get("/daily/blocks").status_code == 200
    assert site.get("/daily/triangles").status_code == 404  # no daily board
    assert site.get("/daily/chess").status_code == 404
