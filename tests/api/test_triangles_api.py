"""Triangles through the HTTP API, as the page uses it: every error code a move, a new
game or a claim can get (status + code), the computer's reply in the same response as the
human's line, the events in order, online seats and turns, and the statistics against
the computer per level (draws counted apart).

The lines the tests need (legal, through a star, across a line) are found from the view
with the engine's exact geometry, by brute force.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest

from engines.triangles.geometry import passes_near, segments_cross
from tests.conftest import FakeClock


@pytest.fixture
def client(make_client: Any) -> Any:
    return make_client()  # the real registry


@pytest.fixture
def alice(client: Any, players: Any) -> Any:
    return players(client, "alice")[0]


@pytest.fixture
def bob(client: Any, players: Any) -> Any:
    return players(client, "bob")[0]


def error(response: Any) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


def stars(view: dict[str, Any]) -> list[tuple[int, int]]:
    return [(x, y) for x, y in view["stars"]]


def blocked_by_star(view: dict[str, Any], a: int, b: int) -> bool:
    pts = stars(view)
    return any(
        passes_near(pts[a], pts[b], pts[k], view["tolerance"])
        for k in range(len(pts))
        if k not in (a, b)
    )


def crosses_drawn(view: dict[str, Any], a: int, b: int) -> bool:
    pts = stars(view)
    return any(segments_cross(pts[a], pts[b], pts[c], pts[d]) for c, d, _ in view["lines"])


def legal(view: dict[str, Any]) -> list[tuple[int, int]]:
    drawn = {(a, b) for a, b, _ in view["lines"]}
    return [
        (a, b)
        for a, b in combinations(range(len(view["stars"])), 2)
        if (a, b) not in drawn and not blocked_by_star(view, a, b) and not crosses_drawn(view, a, b)
    ]


def through_star(view: dict[str, Any]) -> tuple[int, int]:
    return next(
        (a, b) for a, b in combinations(range(len(view["stars"])), 2) if blocked_by_star(view, a, b)
    )


def crossable(view: dict[str, Any]) -> tuple[int, int]:
    """A legal line some other line would cross: once it is drawn, a crossing can be tried
    whatever the board (the first legal line, at a board's edge, may have none)."""
    for a, b in legal(view):
        drawn = {**view, "lines": [*view["lines"], [a, b, 0]]}
        pairs = combinations(range(len(view["stars"])), 2)
        if any(not blocked_by_star(view, p, q) and crosses_drawn(drawn, p, q) for p, q in pairs):
            return a, b
    raise AssertionError("no line on this board can be crossed")


def across(view: dict[str, Any]) -> tuple[int, int]:
    return next(
        (a, b)
        for a, b in combinations(range(len(view["stars"])), 2)
        if not blocked_by_star(view, a, b) and crosses_drawn(view, a, b)
    )


def closing(view: dict[str, Any]) -> tuple[int, int] | None:
    drawn = {(a, b) for a, b, _ in view["lines"]}
    for a, b in legal(view):
        for c in range(len(view["stars"])):
            if (min(a, c), max(a, c)) in drawn and (min(b, c), max(b, c)) in drawn:
                return a, b
    return None


def line(a: int, b: int) -> dict[str, Any]:
    return {"type": "line", "a": a, "b": b}


def computer_game(player: Any, level: str = "easy", **params: Any) -> dict[str, Any]:
    return player.new_game("triangles", params={"opponent": level, **params})


def online_game(alice: Any, bob: Any) -> dict[str, Any]:
    game = alice.new_game("triangles", params={"opponent": "online"})
    assert game["status"] == "waiting" and game["seats"] == [0]
    joined = bob.post(f"/api/games/{game['id']}/join")
    assert joined.status_code == 200 and joined.json()["seats"] == [1]
    return game


# --- against the computer ------------------------------------------------------------


def test_the_computer_answers_in_the_same_response(alice: Any) -> None:
    game = computer_game(alice, "medium", field="tablet", stars=80, again=True)
    view = game["view"]
    assert (view["width"], view["height"], len(view["stars"])) == (1500, 2000, 80)
    assert view["turn"] == 0 and view["again"] is True and view["opponent"] == "medium"
    a, b = legal(view)[0]
    body = alice.move(game["id"], 0, line(b, a)).json()  # either order
    assert body["version"] == 2
    kinds = [(e["type"], e.get("seat")) for e in body["events"]]
    assert kinds[0] == ("line", 0) and ("line", 1) in kinds
    assert body["events"][0]["a"] == min(a, b) and body["events"][0]["b"] == max(a, b)
    assert kinds[-1] == ("turn", 0)
    assert body["view"]["turn"] == 0
    assert [seat for _, _, seat in body["view"]["lines"]] == [0, 1]
    assert body["view"]["last"] == body["view"]["lines"][-1]


def test_every_refused_line_by_code(alice: Any) -> None:
    game = computer_game(alice)
    gid, view = game["id"], game["view"]
    a, b = crossable(view)
    body = alice.move(gid, 0, line(a, b)).json()
    view, version = body["view"], body["version"]

    refused = alice.move(gid, version, line(a, b))
    assert error(refused) == (422, "exists")
    assert refused.json()["error"]["details"] == {"line": [min(a, b), max(a, b)]}
    p, q = through_star(view)
    refused = alice.move(gid, version, line(p, q))
    assert error(refused) == (422, "through_star")
    assert refused.json()["error"]["details"]["star"] not in (p, q)
    p, q = across(view)
    refused = alice.move(gid, version, line(p, q))
    assert error(refused) == (422, "crosses_line")
    assert refused.json()["error"]["details"]["line"][:2] in [ln[:2] for ln in view["lines"]]
    assert error(alice.move(gid, version, line(3, 3))) == (422, "same_star")
    assert error(alice.move(gid, version, line(0, 24))) == (422, "no_such_star")
    assert error(alice.move(gid, version, line(-1, 2))) == (422, "no_such_star")
    assert error(alice.move(gid, version, {"type": "line", "a": 1})) == (422, "bad_star")
    assert error(alice.move(gid, version, {"type": "line", "a": True, "b": 2})) == (422, "bad_star")
    assert error(alice.move(gid, version, {"type": "jump"})) == (422, "unknown_move")
    stale = alice.move(gid, version - 1, line(*legal(view)[0]))
    assert error(stale) == (409, "stale_version")
    assert stale.json()["current"]["version"] == version
    # None of it changed the game.
    assert alice.get(f"/api/games/{gid}").json()["version"] == version


def test_game_over_after_resigning(alice: Any) -> None:
    game = computer_game(alice, "hard")
    body = alice.move(game["id"], 0, {"type": "resign"}).json()
    assert body["status"] == "over" and body["view"]["over"] is True
    assert body["events"] == [{"type": "over", "reason": "resigned", "winner": 1, "scores": [0, 0]}]
    assert body["view"]["result"] == "resigned" and body["view"]["turn"] is None
    a, b = legal(body["view"])[0]
    assert error(alice.move(game["id"], body["version"], line(a, b))) == (409, "game_over")
    again = alice.move(game["id"], body["version"], {"type": "resign"})
    assert error(again) == (409, "game_over")


def test_bad_params_and_numbers(alice: Any) -> None:
    for params, code in (
        ({"field": "watch"}, "bad_field"),
        ({"field": "phone", "stars": 80}, "bad_stars"),
        ({"field": "tablet", "stars": 24}, "bad_stars"),
        ({"stars": True}, "bad_stars"),
        ({"again": "yes"}, "bad_again"),
        ({"opponent": "grandmaster"}, "bad_opponent"),
    ):
        response = alice.post("/api/games", json={"game": "triangles", "params": params})
        assert error(response) == (400, code), params
    response = alice.post("/api/games", json={"game": "triangles", "number": "12345678-z"})
    assert error(response) == (400, "bad_number")


def test_a_number_fixes_the_board_and_keeps_the_chosen_opponent(alice: Any) -> None:
    first = computer_game(alice, "easy", field="tablet", stars=120)
    again = alice.new_game(
        "triangles", number=first["number"], params={"opponent": "human", "again": True}
    )
    assert again["number"] == first["number"] and again["number"].endswith("-e")
    assert again["view"]["stars"] == first["view"]["stars"]
    assert again["params"] == {
        "field": "tablet", "stars": 120, "again": True, "opponent": "human", "clock": "none",
        "rated": False,
    }


def test_two_players_on_one_device_play_both_seats(alice: Any) -> None:
    game = alice.new_game("triangles", params={"opponent": "human"})
    assert game["seats"] == [0, 1]
    a, b = legal(game["view"])[0]
    first = alice.move(game["id"], 0, line(a, b)).json()
    assert first["version"] == 1 and first["view"]["turn"] == 1 and first["seat"] == 1
    c, d = legal(first["view"])[0]
    second = alice.move(game["id"], 1, line(c, d)).json()
    assert [seat for _, _, seat in second["view"]["lines"]] == [0, 1]
    # The seat to move resigns: the other one wins.
    over = alice.move(game["id"], 2, {"type": "resign"}).json()
    assert over["view"]["winner"] == 1


# --- online --------------------------------------------------------------------------


def test_online_seats_turns_and_claims(
    alice: Any, bob: Any, players: Any, client: Any, clock: FakeClock
) -> None:
    (carol,) = players(client, "carol")
    game = alice.new_game("triangles", params={"opponent": "online"})
    gid = game["id"]
    a, b = legal(game["view"])[0]
    assert error(alice.move(gid, 0, line(a, b))) == (409, "waiting_for_opponent")
    assert bob.post(f"/api/games/{gid}/join").status_code == 200
    assert error(carol.post(f"/api/games/{gid}/join")) == (409, "no_free_seat")
    assert error(carol.move(gid, 0, line(a, b))) == (403, "not_seated")
    watched = carol.get(f"/api/games/{gid}").json()
    assert watched["seats"] == [] and watched["seat"] is None
    assert [p["kind"] for p in watched["players"]] == ["player", "player"]

    assert error(bob.move(gid, 0, line(a, b))) == (403, "not_your_turn")
    assert error(alice.move(gid, 0, {"type": "claim"})) == (422, "your_turn")
    body = alice.move(gid, 0, line(a, b)).json()
    assert body["view"]["turn"] == 1
    assert error(bob.move(gid, 1, {"type": "claim"})) == (422, "your_turn")

    # Bob's turn and he has never connected: the engine wants a whole minute.
    clock.advance(30_000)
    early = alice.move(gid, 1, {"type": "claim"})
    assert error(early) == (422, "too_early")
    assert early.json()["error"]["details"]["wait_ms"] == 30_000
    with bob.websocket(f"/ws/games/{gid}") as ws:
        assert ws.receive_json()["type"] == "state"
        clock.advance(40_000)
        assert error(alice.move(gid, 1, {"type": "claim"})) == (409, "opponent_present")
    # Bob left just now: the presence check waits for a minute of absence.
    assert error(alice.move(gid, 1, {"type": "claim"})) == (409, "opponent_present")
    clock.advance(60_000)
    won = alice.move(gid, 1, {"type": "claim"}).json()
    assert won["status"] == "over" and won["view"]["result"] == "claimed"
    assert won["view"]["winner"] == 0
    assert error(bob.move(gid, won["version"], {"type": "resign"})) == (409, "game_over")


def test_online_moves_show_on_every_socket(alice: Any, bob: Any) -> None:
    game = online_game(alice, bob)
    gid = game["id"]
    with alice.websocket(f"/ws/games/{gid}") as a_ws, bob.websocket(f"/ws/games/{gid}") as b_ws:
        for ws in (a_ws, b_ws):
            state = next(m for m in iter(ws.receive_json, None) if m["type"] == "state")
            assert [p["kind"] for p in state["players"]] == ["player", "player"]
        a, b = legal(game["view"])[0]
        a_ws.send_json({"type": "move", "version": 0, "move": line(a, b), "id": "m1"})
        answer = next(m for m in iter(a_ws.receive_json, None) if m["type"] == "result")
        move = next(m for m in iter(b_ws.receive_json, None) if m["type"] == "move")
        for seen in (answer["result"], move):  # the mover's result, the other's move frame
            assert seen["events"][0] == {"type": "line", "a": a, "b": b, "seat": 0}
            assert seen["view"]["turn"] == 1
        b_ws.send_json({"type": "move", "version": 1, "move": line(a, b), "id": "m2"})
        refusal = next(m for m in iter(b_ws.receive_json, None) if m["type"] == "error")
        assert refusal["id"] == "m2" and refusal["status"] == 422
        assert refusal["error"]["code"] == "exists"


# --- statistics against the computer -------------------------------------------------


def play_out(player: Any, game: dict[str, Any]) -> dict[str, Any]:
    """Plays the human's side to the end: a closing line when there is one, else the
    first legal line."""
    body = game
    while not body["view"]["over"]:
        a, b = closing(body["view"]) or legal(body["view"])[0]
        body = player.move(game["id"], body["version"], line(a, b)).json()
        assert "error" not in body, body
    return body


@pytest.mark.slow
def test_stats_per_level_count_draws_apart(alice: Any, bob: Any) -> None:
    assert alice.get("/api/stats/triangles").json() == {"game": "triangles", "stats": {}}
    results: dict[str, list[int | None]] = {"easy": [], "medium": []}
    seen_draw = False
    for n in range(1, 41):
        level = "easy" if n % 2 else "medium"
        game = alice.new_game("triangles", number=f"{n:08d}-a", params={"opponent": level})
        end = play_out(alice, game)
        results[level].append(end["view"]["winner"])
        seen_draw = seen_draw or end["view"]["winner"] is None
        if n >= 6 and seen_draw:
            break
    game = computer_game(alice, "hard")
    alice.move(game["id"], 0, {"type": "resign"})

    stats = alice.get("/api/stats/triangles").json()["stats"]
    for level, winners in results.items():
        assert stats[level] == {
            "wins": winners.count(0),
            "losses": winners.count(1),
            "draws": winners.count(None),
        }
    assert stats["hard"] == {"wins": 0, "losses": 1, "draws": 0}
    assert seen_draw, "no draw in 40 games: pick other numbers"
    # Games between people and unfinished games are not counted; nor are other players'.
    computer_game(alice, "easy")
    alice.new_game("triangles", params={"opponent": "human"})
    assert alice.get("/api/stats/triangles").json()["stats"] == stats
    assert bob.get("/api/stats/triangles").json()["stats"] == {}
