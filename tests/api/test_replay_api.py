"""Replays (GET /api/games/{id}/replay) and verification (POST /api/verify) of real games:
every game kind is played through the API, then replayed ply by ply against the engine
and the stored state, and its log is verified (and tampered with)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from engines.blocks import ENGINE as BLOCKS
from engines.core.protocol import EngineError
from engines.core.replay import replay as fold_log
from engines.pairs import ENGINE as PAIRS
from engines.pairs.search import find_pair
from engines.registry import ENGINES
from engines.triangles import ENGINE as TRIANGLES
from tests.conftest import FakeClock

STEP_MS = 1_500


@pytest.fixture
def client(make_client: Any) -> Any:
    return make_client()  # the real registry (alice_bob, from conftest, plays on it)


def error(response: Any) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


def log_of(player: Any, game_id: str) -> dict[str, Any]:
    response = player.get(f"/api/games/{game_id}/log")
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def state_from_log(player: Any, game_id: str) -> tuple[Any, Any, list[dict[str, Any]]]:
    log = log_of(player, game_id)
    engine = ENGINES[log["game"]]
    params = engine.parse_params(log["params"])
    return engine, fold_log(engine, params, log["seed"], log["moves"]), log["moves"]


def blocks_move(state: Any) -> dict[str, Any]:
    """The first placement the rules accept (or ``finish`` when none is left)."""
    for piece in range(3):
        for row in range(10):
            for col in range(10):
                move = {"type": "place", "piece": piece, "row": row, "col": col}
                try:
                    BLOCKS.apply(state, BLOCKS.parse_move(move), 0)
                except EngineError:
                    continue
                return move
    return {"type": "finish"}


def pairs_move(state: Any) -> dict[str, Any]:
    grid = state.grid
    pair = find_pair(grid, state.tiles)
    assert pair is not None
    a, b = pair
    return {"type": "pair", "a": list(divmod(a, grid.cols)), "b": list(divmod(b, grid.cols))}


def triangles_move(state: Any) -> dict[str, Any]:
    return TRIANGLES.dump_move(TRIANGLES.computer_move(state))


KINDS: dict[str, tuple[dict[str, Any], Any, int]] = {
    # game: (create body, the next move for a state, moves to play at most)
    "blocks": ({"params": {"ruleset": "classic10"}}, blocks_move, 14),
    "pairs": ({"params": {"size": "beginner", "mode": "timed"}}, pairs_move, 400),
    "triangles": (
        {"params": {"field": "phone", "stars": 24, "opponent": "easy"}},
        triangles_move,
        400,
    ),
}


def play(player: Any, clock: FakeClock, game: str, moves: int | None = None) -> dict[str, Any]:
    """A game of ``game`` played through the API (each move ``STEP_MS`` after the last)
    until it ends or ``moves`` moves were made; returns its creation answer."""
    body, next_move, most = KINDS[game]
    created = player.new_game(game, **body)
    version, view = created["version"], created["view"]
    for _ in range(most if moves is None else moves):
        if view["over"]:
            break
        _, state, _ = state_from_log(player, created["id"])
        clock.advance(STEP_MS)
        response = player.move(created["id"], version, next_move(state))
        assert response.status_code == 200, response.text
        version, view = response.json()["version"], response.json()["view"]
    if game == "blocks" and moves is None:
        response = player.move(created["id"], version, {"type": "finish"})
        assert response.status_code == 200, response.text
    return created


def replay(player: Any, game_id: str, ply: int | None = None, **query: Any) -> Any:
    params = {**query, **({} if ply is None else {"ply": ply})}
    return player.get(f"/api/games/{game_id}/replay", params=params)


def stored(client: Any, game_id: str) -> Any:
    services = client.app.state.services
    return client.portal.call(services.store.game, game_id)


@pytest.mark.parametrize("game", list(KINDS))
def test_replay_every_ply_equals_the_engine_and_the_end_the_stored_state(
    client: Any, alice_bob: Any, clock: FakeClock, game: str
) -> None:
    alice, _ = alice_bob
    created = play(alice, clock, game)
    engine, _, entries = state_from_log(alice, created["id"])
    row = stored(client, created["id"])
    assert row.status == "over"
    plies = len(entries)
    assert plies == row.version > 2
    params = engine.parse_params(row.params)
    for ply in (0, 1, plies // 2, plies):
        expected = fold_log(engine, params, row.seed, entries[:ply])
        body = replay(alice, created["id"], ply).json()
        assert (body["ply"], body["plies"]) == (ply, plies)
        assert body["view"] == json.loads(json.dumps(engine.view(expected, body["seat"])))
        assert (body["events"] == []) == (ply == 0)
    # The end, replayed, is the stored state exactly (and what the game answers).
    services = client.app.state.services
    replayed = client.portal.call(services.replays.replayed, row, engine, alice.id, "testclient")
    assert engine.dump_state(replayed.states[-1]) == row.state
    last = replay(alice, created["id"]).json()
    assert last["ply"] == plies
    assert last["view"] == alice.get(f"/api/games/{created['id']}").json()["view"]


def test_events_are_what_the_move_at_that_ply_produced(alice_bob: Any, clock: FakeClock) -> None:
    alice, _ = alice_bob
    created = play(alice, clock, "blocks", moves=3)
    engine, _, entries = state_from_log(alice, created["id"])
    params = BLOCKS.parse_params(log_of(alice, created["id"])["params"])
    before = fold_log(engine, params, log_of(alice, created["id"])["seed"], entries[:1])
    _, events = BLOCKS.apply(before, BLOCKS.parse_move(entries[1]["move"]), entries[1]["at_ms"], 0)
    body = replay(alice, created["id"], 2).json()
    assert body["events"] == events
    assert body["events"][0]["type"] == "placed"
    assert body["events"][0]["points"] > 0


def test_timeline_lists_every_ply_with_its_scores(alice_bob: Any, clock: FakeClock) -> None:
    alice, _ = alice_bob
    created = play(alice, clock, "triangles")
    entries = log_of(alice, created["id"])["moves"]
    body = replay(alice, created["id"], 0, timeline="true").json()
    steps = body["timeline"]
    assert [step["ply"] for step in steps] == list(range(1, len(entries) + 1))
    assert [step["move"] for step in steps] == [entry["move"] for entry in entries]
    assert [step["seat"] for step in steps] == [entry["seat"] for entry in entries]
    last = replay(alice, created["id"]).json()["view"]
    assert steps[-1]["scores"] == last["scores"]
    middle = len(entries) // 2
    assert (
        steps[middle - 1]["scores"] == replay(alice, created["id"], middle).json()["view"]["scores"]
    )
    assert replay(alice, created["id"], 0).json()["timeline"] is None


def test_a_running_game_is_its_players_only(alice_bob: Any, clock: FakeClock) -> None:
    alice, bob = alice_bob
    created = play(alice, clock, "blocks", moves=2)
    assert replay(alice, created["id"], 1).status_code == 200
    assert error(replay(bob, created["id"], 1)) == (403, "replay_forbidden")
    response = alice.move(created["id"], 2, {"type": "finish"})
    assert response.status_code == 200, response.text
    assert replay(bob, created["id"], 1).status_code == 200  # finished: anyone's


def test_the_log_of_a_running_game_follows_the_replay_rule(
    alice_bob: Any, client: Any, clock: FakeClock
) -> None:
    alice, bob = alice_bob
    created = play(alice, clock, "blocks", moves=2)  # the seed tells every piece to come
    log = f"/api/games/{created['id']}/log"
    assert isinstance(log_of(alice, created["id"])["seed"], int)
    assert error(bob.get(log)) == (403, "replay_forbidden")
    assert error(bob.get(log, params={"from": 1, "limit": 1})) == (403, "replay_forbidden")
    client.cookies.clear()
    assert error(client.get(log)) == (403, "replay_forbidden")  # no cookie: a stranger too
    assert error(bob.get("/api/games/no-such-game/log")) == (404, "game_not_found")
    clock.advance(STEP_MS)
    assert alice.move(created["id"], 2, {"type": "finish"}).status_code == 200
    assert [m["ply"] for m in log_of(bob, created["id"])["moves"]] == [1, 2, 3]  # over: anyone's


def test_anyone_may_replay_a_running_online_game(alice_bob: Any, players: Any) -> None:
    alice, bob = alice_bob
    created = alice.new_game(
        "triangles", params={"field": "phone", "stars": 24, "opponent": "online"}
    )
    assert bob.post(f"/api/games/{created['id']}/join").status_code == 200
    response = alice.move(created["id"], 0, triangles_move(state_from_log(alice, created["id"])[1]))
    assert response.status_code == 200, response.text
    body = replay(bob, created["id"], 1).json()
    assert (body["ply"], body["plies"]) == (1, 1)
    assert body["view"]["lines"] == response.json()["view"]["lines"]
    (carol,) = players(alice.client, "carol")
    assert [m["ply"] for m in log_of(carol, created["id"])["moves"]] == [1]  # a spectator


def test_replay_errors(alice_bob: Any, clock: FakeClock) -> None:
    alice, _ = alice_bob
    created = play(alice, clock, "blocks", moves=2)
    assert error(replay(alice, "no-such-game", 0)) == (404, "game_not_found")
    response = replay(alice, created["id"], 3)
    assert error(response) == (422, "bad_ply")
    assert response.json()["error"]["details"] == {"plies": 2}
    assert error(replay(alice, created["id"], -1)) == (422, "invalid_request")
    assert error(replay(alice, created["id"], "x")) == (422, "invalid_request")


def test_a_replay_is_kept_and_a_flood_of_new_ones_is_limited(
    client: Any, alice_bob: Any, clock: FakeClock
) -> None:
    alice, _ = alice_bob
    created = play(alice, clock, "blocks", moves=2)
    admission = client.app.state.services.admission
    admission.settings = admission.settings.model_copy(update={"limit_replays_per_player_min": 1})
    for ply in (0, 1, 2, 1, 0):  # one replay, then the kept states
        assert replay(alice, created["id"], ply).status_code == 200
    clock.advance(STEP_MS)
    assert alice.move(created["id"], 2, {"type": "finish"}).status_code == 200
    response = replay(alice, created["id"], 3)  # a new version: a new replay
    assert error(response) == (429, "rate_limited")
    assert "Retry-After" in response.headers


# --- verification ------------------------------------------------------------------------


def verify(player: Any, body: dict[str, Any]) -> Any:
    return player.post("/api/verify", json=body)


@pytest.mark.parametrize("game", list(KINDS))
def test_a_real_log_verifies_to_the_games_final_view_and_outcome(
    alice_bob: Any, clock: FakeClock, game: str
) -> None:
    alice, bob = alice_bob
    created = play(alice, clock, game)
    log = log_of(alice, created["id"])
    final = bob.get(f"/api/games/{created['id']}").json()
    body = {"game": game, "number": log["number"], "params": log["params"], "log": log["moves"]}
    response = verify(bob, body)
    assert response.status_code == 200, response.text
    assert response.json() == {
        "game": game,
        "number": log["number"],
        "plies": len(log["moves"]),
        "view": final["view"],
        "outcome": final["outcome"],
    }
    assert final["outcome"] is not None


def test_a_tampered_log_names_the_first_refused_ply(alice_bob: Any, clock: FakeClock) -> None:
    alice, _ = alice_bob
    created = play(alice, clock, "pairs")
    log = log_of(alice, created["id"])
    moves = [{k: v for k, v in entry.items() if k != "ply"} for entry in log["moves"]]
    moves[4] = {**moves[4], "move": moves[3]["move"]}  # the same pair twice: gone already
    body = {"game": "pairs", "number": log["number"], "params": log["params"], "log": moves}
    response = verify(alice, body)
    assert error(response) == (422, "illegal_log")
    details = response.json()["error"]["details"]
    assert details["ply"] == 5
    assert details["reason"] == "empty_cell"


def test_a_log_going_on_after_the_end_is_refused(alice_bob: Any, clock: FakeClock) -> None:
    alice, _ = alice_bob
    created = play(alice, clock, "triangles")
    log = log_of(alice, created["id"])
    moves = [*log["moves"], {"seat": 0, "move": {"type": "resign"}, "at_ms": 999_999}]
    response = verify(alice, {"game": "triangles", "number": log["number"], "log": moves})
    assert error(response) == (422, "illegal_log")
    assert response.json()["error"]["details"] == {
        "ply": len(moves),
        "reason": "game_over",
    }


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"game": "chess", "number": "00000001-a", "log": []}, (404, "unknown_game")),
        ({"game": "blocks", "number": "nonsense", "log": []}, (400, "bad_number")),
        ({"game": "blocks", "number": "00000001-a"}, (422, "invalid_request")),
        (
            {"game": "blocks", "number": "00000001-a", "log": [{"move": None}] * 5001},
            (422, "invalid_request"),
        ),
        (
            {"game": "blocks", "number": "00000001-a", "log": [{"move": {"type": "x"}}]},
            (422, "illegal_log"),
        ),
        (
            {"game": "blocks", "number": "00000001-a", "log": [{"seat": 3, "move": None}]},
            (422, "illegal_log"),
        ),
    ],
)
def test_verify_refusals(alice_bob: Any, body: dict[str, Any], expected: tuple[int, str]) -> None:
    alice, _ = alice_bob
    assert error(verify(alice, body)) == expected


def test_verify_an_empty_log_is_the_numbered_board(alice_bob: Any) -> None:
    alice, _ = alice_bob
    number = PAIRS.number(PAIRS.parse_params({"size": "beginner"}), 1234)
    body = verify(alice, {"game": "pairs", "number": number, "log": []}).json()
    params, seed = PAIRS.from_number(number)
    assert body["view"] == PAIRS.view(PAIRS.new_game(params, seed), None)
    assert (body["plies"], body["outcome"]) == (0, None)


def test_a_long_log_may_exceed_the_usual_body_limit(alice_bob: Any) -> None:
    alice, _ = alice_bob
    log = [{"seat": 0, "move": None, "at_ms": 1000 + i} for i in range(2000)]
    body = {"game": "blocks", "number": "00000001-a", "log": log}
    assert len(str(body)) > 64 * 1024  # over the limit of every other route
    response = verify(alice, body)
    assert response.status_code == 200, response.text
    assert response.json()["plies"] == 2000
    big = alice.post("/api/games", json={"game": "blocks", "params": {"x": "y" * 70_000}})
    assert error(big) == (413, "too_large")


def test_each_seat_replays_its_own_view_and_spectators_the_public_one(
    make_client: Any, players: Any
) -> None:
    """Hidden information stays hidden: with an engine whose views differ by seat (the
    reference engine's ``you``), a player replays their seat's view, anyone else the
    spectators' (none of the real games hides anything from a replay: their views are the
    same for every seat)."""
    from engines.reference.tally import ENGINE as TALLY

    client = make_client({"tally": TALLY})
    alice, bob, carol = players(client, "alice", "bob", "carol")
    created = alice.new_game("tally", params={"opponent": "online"})
    joined = bob.post(f"/api/games/{created['id']}/join")
    assert joined.status_code == 200, joined.text
    first = created["view"]["turn"]  # the tally's first mover comes from its seed
    movers = (alice, bob) if first == 0 else (bob, alice)
    for version, (mover, n) in enumerate(zip(movers, (2, 3), strict=True)):
        moved = mover.move(created["id"], version, {"type": "add", "n": n})
        assert moved.status_code == 200, moved.text
    log = log_of(alice, created["id"])
    state = fold_log(TALLY, TALLY.parse_params(log["params"]), log["seed"], log["moves"][:1])
    for player, seat in ((alice, 0), (bob, 1), (carol, None)):
        body = replay(player, created["id"], 1).json()
        assert body["seat"] == seat
        assert body["view"] == TALLY.view(state, seat)
        assert body["view"]["you"] == seat
    assert all(not engine.view_by_seat for engine in ENGINES.values())


def test_the_replay_page(alice_bob: Any, clock: FakeClock) -> None:
    alice, bob = alice_bob
    created = play(alice, clock, "pairs", moves=2)
    page = bob.get(f"/replay/{created['id']}")
    assert page.status_code == 200
    assert 'data-game="pairs"' in page.text
    assert re.search(r'<script type="module" src="/static/dist/js/replay-\w+\.js">', page.text)
    assert f'href="/g/{created["id"]}"' in page.text
    assert bob.get("/replay/no-such-game").status_code == 404


@pytest.mark.parametrize(
    ("game", "page_class", "box_class", "list_title"),
    [
        ("blocks", "blocks-page", "blocks-board", "Placements"),
        ("pairs", "pairs-page", "pairs-board board-box--fill", "Pairs"),
        ("triangles", "tri-page", "tri-board", "Lines"),
    ],
)
def test_the_replay_page_takes_each_games_look_from_its_own_template(
    alice_bob: Any, clock: FakeClock, game: str, page_class: str, box_class: str, list_title: str
) -> None:
    # templates/games/<game>.replay.html, not a table in app/pages.py or replay.html.
    alice, _ = alice_bob
    created = play(alice, clock, game, moves=1)
    page = alice.get(f"/replay/{created['id']}", headers={"accept-language": "en"}).text
    assert f'class="game-page {page_class} replay-page"' in page
    assert f'class="board-box {box_class} replay-board"' in page
    assert f'id="replay-list-title">{list_title}</h2>' in page
    assert ('class="theme-nebula"' in page) == (game == "triangles")


def test_a_running_game_replayed_again_extends_the_kept_states(
    client: Any, alice_bob: Any, clock: FakeClock
) -> None:
    alice, _ = alice_bob
    created = play(alice, clock, "blocks", moves=2)
    assert replay(alice, created["id"], 2).json()["plies"] == 2
    kept = client.app.state.services.replays.kept.get(created["id"])
    _, state, entries = state_from_log(alice, created["id"])
    clock.advance(STEP_MS)
    assert alice.move(created["id"], 2, blocks_move(state)).status_code == 200
    body = replay(alice, created["id"], 3, timeline="true").json()
    extended = client.app.state.services.replays.kept.get(created["id"])
    assert len(kept.states) == 3 and len(extended.states) == 4
    assert all(a is b for a, b in zip(extended.states[:3], kept.states, strict=True))
    _, state, entries = state_from_log(alice, created["id"])
    assert (body["plies"], body["view"]) == (3, BLOCKS.view(state, 0))
    assert [step["scores"] for step in body["timeline"]][-1] == [state.score]


def test_a_replay_names_who_held_each_seat(client: Any, alice_bob: Any, clock: FakeClock) -> None:
    """The replay page names the seats as the game did (issue 36: "Player 1 / Player 2"
    even against the computer): the replay carries each seat's holder, without ratings."""
    alice, _ = alice_bob
    assert alice.put("/api/me", json={"name": "François-Marie Dubois"}).status_code == 200
    created = play(alice, clock, "triangles", moves=2)
    answer = replay(alice, created["id"], 1)
    assert answer.status_code == 200, answer.text
    assert answer.json()["players"] == [
        {"kind": "player", "name": "François-Marie Dubois", "rating": None, "provisional": None},
        {"kind": "computer", "name": None, "rating": None, "provisional": None},
    ]
