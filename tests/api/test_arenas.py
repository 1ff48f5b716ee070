"""Arena tournaments over the API: making one (and every refusal), the list, private
arenas, joining, pausing, pairing (never two games at once, never the last opponent while
another is free), berserk, standings computed from the stored games (read back by a fresh
app), the arena's end, the snapshot's arena and the arena socket."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from app.arena_director import ArenaDirector
from app.fair_play import PLACEMENT_GAMES
from engines.core.arena import ArenaGame, ArenaResult, result_of, score_sheet
from tests.qualify import next_line
from tests.rating_rows import set_rating

MINUTE = 60_000


@pytest.fixture
def client(make_client: Any) -> Any:
    return make_client()


def named(players: Any, client: Any, *names: str) -> list[Any]:
    made = players(client, *names)
    for player, name in zip(made, names, strict=True):
        assert player.put("/api/me", json={"name": name.title()}).status_code == 200
    return made


def make_arena(player: Any, **body: Any) -> dict[str, Any]:
    response = player.post(
        "/api/arenas", json={"game": "triangles", "clock": "1+1", "minutes": 30, **body}
    )
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def error_code(response: Any) -> str:
    return response.json()["error"]["code"]  # type: ignore[no-any-return]


def wait_for(read: Callable[[], Any], until: Callable[[Any], bool], timeout: float = 10) -> Any:
    """Read until the answer satisfies ``until`` (the pairing runs in the background)."""
    deadline = time.monotonic() + timeout
    while True:
        value = read()
        if until(value):
            return value
        assert time.monotonic() < deadline, f"never came: {value}"
        time.sleep(0.02)


def arena_of(player: Any, arena_id: str, **params: Any) -> dict[str, Any]:
    response = player.get(f"/api/arenas/{arena_id}", params=params)
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def paired(player: Any, arena_id: str) -> str:
    arena = wait_for(lambda: arena_of(player, arena_id), lambda a: a["me"]["game_id"])
    return str(arena["me"]["game_id"])


def both_draw(pair: tuple[Any, Any], game_id: str) -> None:
    """Each player draws a first line (a game nobody played in is aborted)."""
    seat_of = {p.get(f"/api/games/{game_id}").json()["seat"]: p for p in pair}
    for _ in range(2):
        game = pair[0].get(f"/api/games/{game_id}").json()
        mover = seat_of[game["view"]["turn"]]
        line = next_line(mover._ok_get, game_id)
        assert mover.move(game_id, game["version"], line).status_code == 200


def resign(player: Any, game_id: str) -> None:
    game = player.get(f"/api/games/{game_id}").json()
    response = player.move(game_id, game["version"], {"type": "resign"})
    assert response.status_code == 200, response.text


def test_making_an_arena_and_its_refusals(client: Any, players: Any, clock: Any) -> None:
    (alice,) = named(players, client, "alice")
    (anon,) = players(client, "anon")
    arena = make_arena(alice, rated=False)
    assert arena["status"] == "running" and arena["starts_at"] == clock.ms
    assert arena["ends_at"] == clock.ms + 30 * MINUTE
    assert arena["game"] == "triangles" and arena["clock"] == "1+1" and arena["minutes"] == 30
    assert arena["standings"] == [] and arena["link"] is None and arena["schedule"] is None
    assert arena["me"] == {"joined": False, "paused": False, "game_id": None}

    body = {"game": "triangles", "clock": "1+1", "minutes": 30}
    cases = [
        (anon, body, 403, "name_required"),
        (alice, {**body, "minutes": 2}, 422, "bad_minutes"),
        (alice, {**body, "minutes": 121}, 422, "bad_minutes"),
        (alice, {**body, "clock": "1d"}, 400, "bad_clock"),
        (alice, {**body, "clock": "none"}, 400, "bad_clock"),
        (alice, {**body, "starts_at": clock.ms + 8 * 24 * 60 * MINUTE}, 422, "bad_start"),
        (alice, {**body, "starts_at": clock.ms - 10 * MINUTE}, 422, "bad_start"),
        (alice, {**body, "game": "pairs"}, 404, "no_arenas"),
        (alice, {**body, "game": "chess"}, 404, "unknown_game"),
        (alice, {**body, "extra": 1}, 422, "invalid_request"),
    ]
    for who, sent, status, code in cases:
        response = who.post("/api/arenas", json=sent)
        assert (response.status_code, error_code(response)) == (status, code), sent
    assert alice.get("/api/arenas/nope").status_code == 404
    assert error_code(alice.get("/api/arenas/nope")) == "arena_not_found"


def test_the_list_and_a_private_arena(client: Any, players: Any, clock: Any) -> None:
    alice, bob = named(players, client, "alice", "bob")
    later = make_arena(alice, starts_at=clock.ms + 60 * MINUTE, minutes=45, rated=True)
    assert later["status"] == "upcoming"
    private = make_arena(alice, private=True)
    assert private["link"] == f"/arenas/{private['id']}?key=" + private["link"].split("=")[1]
    key = private["link"].split("key=")[1]

    listed = bob.get("/api/arenas").json()["arenas"]
    assert [a["id"] for a in listed] == [later["id"]]  # the private one is not listed
    assert listed[0]["rated"] is True and listed[0]["players"] == 0

    assert error_code(bob.get(f"/api/arenas/{private['id']}")) == "arena_private"
    assert bob.get(f"/api/arenas/{private['id']}", params={"key": "x" * 16}).status_code == 403
    assert arena_of(bob, private["id"], key=key)["id"] == private["id"]
    refused = bob.post(f"/api/arenas/{private['id']}/join")
    assert (refused.status_code, error_code(refused)) == (403, "arena_private")
    joined = bob.post(f"/api/arenas/{private['id']}/join", params={"key": key})
    assert joined.status_code == 200 and joined.json()["me"]["joined"] is True
    # Once in, the arena is theirs to open without the key (their games link back to it).
    assert arena_of(bob, private["id"])["me"]["joined"] is True
    (carol,) = named(players, client, "carol")
    assert error_code(carol.get(f"/api/arenas/{private['id']}")) == "arena_private"


def test_join_pair_pause_and_come_back(client: Any, players: Any) -> None:
    alice, bob, carol = named(players, client, "alice", "bob", "carol")
    arena = make_arena(alice)
    arena_id = arena["id"]
    assert alice.post(f"/api/arenas/{arena_id}/join").json()["me"]["joined"] is True
    assert bob.post(f"/api/arenas/{arena_id}/join").status_code == 200
    game_id = paired(alice, arena_id)
    assert paired(bob, arena_id) == game_id
    game = alice.get(f"/api/games/{game_id}").json()
    assert game["arena"] == {"id": arena_id} and game["status"] == "active"
    assert game["view"]["berserk_allowed"] is True and game["params"]["clock"] == "1+1"

    # Carol joins while they play: nobody is free for her, so she waits.
    assert carol.post(f"/api/arenas/{arena_id}/join").status_code == 200
    time.sleep(0.3)
    assert arena_of(carol, arena_id)["me"]["game_id"] is None
    standings = arena_of(carol, arena_id)["standings"]
    assert [(s["name"], s["playing"], s["you"]) for s in standings] == [
        ("Alice", True, False),
        ("Bob", True, False),
        ("Carol", False, True),
    ]

    # Bob pauses; the game ends; Alice is paired with Carol, not with Bob again.
    assert bob.post(f"/api/arenas/{arena_id}/pause").json()["me"]["paused"] is True
    both_draw((alice, bob), game_id)
    resign(bob, game_id)
    second = paired(carol, arena_id)
    assert second != game_id and paired(alice, arena_id) == second
    assert arena_of(bob, arena_id)["me"] == {"joined": True, "paused": True, "game_id": None}
    assert error_code(carol.post("/api/arenas/nope/pause")) == "arena_not_found"
    (dave,) = named(players, client, "dave")
    assert error_code(dave.post(f"/api/arenas/{arena_id}/pause")) == "not_in_arena"

    rows = {s["name"]: s for s in arena_of(alice, arena_id)["standings"]}
    assert rows["Alice"]["score"] == 2 and rows["Bob"]["score"] == 0
    assert rows["Alice"]["games"] == [
        {"game_id": game_id, "result": "win", "points": 2, "fire": False, "berserk": False}
    ]
    assert rows["Bob"]["paused"] is True

    # Back from the pause, Bob waits: Alice and Carol are both playing.
    assert bob.post(f"/api/arenas/{arena_id}/join").json()["me"]["paused"] is False


def test_never_two_games_at_once_and_never_the_last_opponent(client: Any, players: Any) -> None:
    names = ["p1", "p2", "p3", "p4"]
    everyone = named(players, client, *names)
    arena_id = make_arena(everyone[0])["id"]
    for player in everyone:
        assert player.post(f"/api/arenas/{arena_id}/join").status_code == 200
    first = {player.id: paired(player, arena_id) for player in everyone}
    assert len(set(first.values())) == 2  # two games, each player in exactly one
    opponent = {}
    for player in everyone:
        game = player.get(f"/api/games/{first[player.id]}").json()
        others = [p for p in everyone if p is not player and first[p.id] == first[player.id]]
        assert len(others) == 1 and game["seats"]
        opponent[player.id] = others[0].id
    # Both games end: nobody meets the same opponent again while others are free.
    done = set()
    for player in everyone:
        if first[player.id] not in done:
            resign(player, first[player.id])
            done.add(first[player.id])
    again = {
        p.id: wait_for(lambda p=p: arena_of(p, arena_id)["me"]["game_id"],
                       lambda g, p=p: g not in (None, first[p.id]))
        for p in everyone
    }  # fmt: skip
    for player in everyone:
        partner = [q.id for q in everyone if q is not player and again[q.id] == again[player.id]]
        assert partner != [opponent[player.id]]


def test_berserk(client: Any, players: Any) -> None:
    alice, bob = named(players, client, "alice", "bob")
    arena_id = make_arena(alice)["id"]
    for player in (alice, bob):
        player.post(f"/api/arenas/{arena_id}/join")
    game_id = paired(alice, arena_id)
    game = alice.get(f"/api/games/{game_id}").json()
    seat = game["seat"]
    answer = alice.post(f"/api/games/{game_id}/berserk")
    assert answer.status_code == 200, answer.text
    result = answer.json()
    assert result["view"]["berserk"][seat] is True
    assert result["view"]["clock"]["left_ms"][seat] == 30_000
    assert result["events"] == [{"type": "berserk", "seat": seat}]
    again = alice.post(f"/api/games/{game_id}/berserk")
    assert (again.status_code, error_code(again)) == (422, "already_berserk")
    outsider = players(client, "zed")[0]
    assert error_code(outsider.post(f"/api/games/{game_id}/berserk")) == "not_seated"

    plain = alice.new_game("triangles", params={"opponent": "easy"})
    refused = alice.post(f"/api/games/{plain['id']}/berserk")
    assert (refused.status_code, error_code(refused)) == (404, "no_arenas")
    assert alice.post("/api/games/nope/berserk").status_code == 404
    # a berserk game is the arena's: a player cannot make one, nor a numbered one
    arena_like = {"opponent": "online", "clock": "1+1", "berserk": True}
    for body in (
        {"game": "triangles", "params": dict(arena_like)},
        {"game": "triangles", "number": plain["number"], "params": dict(arena_like)},
    ):
        made = alice.post("/api/games", json=body)
        assert (made.status_code, error_code(made)) == (400, "bad_params"), made.text
        del body["params"]["berserk"]  # the same game without it is made
        assert alice.post("/api/games", json=body).status_code == 201


def test_the_standings_are_the_stored_games(
    client: Any, players: Any, make_client: Any, clock: Any
) -> None:
    """Points from a fresh app (nothing in memory) equal the points recomputed from each
    stored game's outcome; a game ending after the arena counts for nothing; the arena
    ends on time and refuses joins."""
    alice, bob = named(players, client, "alice", "bob")
    arena_id = make_arena(alice, minutes=3)["id"]
    for player in (alice, bob):
        player.post(f"/api/arenas/{arena_id}/join")
    games = []
    for _ in range(3):
        game_id = wait_for(
            lambda: arena_of(alice, arena_id)["me"]["game_id"], lambda g: g not in (None, *games)
        )
        games.append(game_id)
        both_draw((alice, bob), game_id)
        clock.advance(1000)  # the next game starts later (the standings' order)
        resign(bob, game_id)  # Alice wins three: the third on fire
    fourth = wait_for(
        lambda: arena_of(alice, arena_id)["me"]["game_id"], lambda g: g not in (None, *games)
    )
    games.append(fourth)
    # Resigned before anyone drew a line: aborted, it scores nothing (and the fire stays).
    for player in (alice, bob):
        player.post(f"/api/arenas/{arena_id}/pause")
    clock.advance(1000)
    resign(alice, fourth)
    # A last game, begun 10 s before the end and resigned 10 s after it: it counts for
    # nothing (its end is past the arena's).
    clock.advance(170_000)
    for player in (alice, bob):
        player.post(f"/api/arenas/{arena_id}/join")
    last = wait_for(
        lambda: arena_of(alice, arena_id)["me"]["game_id"], lambda g: g not in (None, *games)
    )
    both_draw((alice, bob), last)
    clock.advance(20_000)
    resign(alice, last)
    assert alice.post(f"/api/arenas/{arena_id}/join").status_code == 409

    fresh = make_client()
    reader = players(fresh, "reader")[0]
    arena = wait_for(lambda: arena_of(reader, arena_id), lambda a: a["status"] == "over")
    rows = {row["name"]: row for row in arena["standings"]}
    assert [g["points"] for g in rows["Alice"]["games"]] == [2, 2, 4, 0]
    assert [g["fire"] for g in rows["Alice"]["games"]] == [False, False, True, False]
    assert rows["Alice"]["score"] == 8 and rows["Alice"]["fire"] is True
    assert [g["result"] for g in rows["Bob"]["games"]] == ["loss", "loss", "loss", "aborted"]
    assert rows["Bob"]["score"] == 0 and [g["game_id"] for g in rows["Bob"]["games"]] == games

    # The same points, recomputed from each stored game's outcome.
    for row in arena["standings"]:
        sheet = []
        for line in row["games"]:
            stored = reader.get(f"/api/games/{line['game_id']}").json()
            seat = 0 if stored["players"][0]["name"] == row["name"] else 1
            movers = frozenset({0, 1}) if line["game_id"] != fourth else frozenset()
            result = result_of(stored["outcome"]["winner"], seat, movers)
            sheet.append(ArenaGame(result, line["berserk"], False))
        assert score_sheet(sheet).score == row["score"]
        assert all(line["game_id"] != last for line in row["games"])
    assert arena["standings"][0]["name"] == "Alice" and arena["standings"][0]["rank"] == 1
    late = alice.post(f"/api/arenas/{arena_id}/join")
    assert (late.status_code, error_code(late)) == (409, "arena_over")
    assert ArenaResult.WIN.value == "win"


def test_the_arena_socket(client: Any, players: Any) -> None:
    alice, bob = named(players, client, "alice", "bob")
    arena_id = make_arena(alice)["id"]
    alice.post(f"/api/arenas/{arena_id}/join")
    with alice.websocket(f"/ws/arenas/{arena_id}") as socket:
        first = socket.receive_json()
        assert first["type"] == "standings" and first["arena"]["me"]["joined"] is True
        bob.post(f"/api/arenas/{arena_id}/join")
        frames = [socket.receive_json() for _ in range(3)]
        told = [f for f in frames if f["type"] == "paired"]
        assert told and told[0]["game_id"] == paired(bob, arena_id)
        socket.send_text('{"type": "ping"}')
        while (frame := socket.receive_json())["type"] != "pong":
            assert frame["type"] == "standings"
    with bob.websocket(f"/ws/arenas/{arena_id}") as socket:
        first = socket.receive_json()["arena"]  # what the API answers, as this viewer sees it
        read = arena_of(bob, arena_id)
        assert {**first, "server_ms": 0} == {**read, "server_ms": 0}
        assert [row["you"] for row in first["standings"]].count(True) == 1
    with pytest.raises(Exception):  # noqa: B017 (the close comes as the client's error)
        with alice.websocket("/ws/arenas/nope") as socket:
            socket.receive_json()


def test_a_silent_arena_socket_is_closed(
    client: Any, players: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("app.sockets.SILENT_S", 0.3)
    alice = named(players, client, "alice")[0]
    arena_id = make_arena(alice)["id"]
    with alice.websocket(f"/ws/arenas/{arena_id}") as socket:
        assert socket.receive_json()["type"] == "standings"
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                socket.receive_json()
        assert closed.value.code == 4408


def test_the_site_runs_its_own_arenas(make_client: Any, players: Any, settings: Any) -> None:
    settings.arena_hourly = "1+1/27"
    settings.arena_evening = "3+2/60"
    client = make_client()
    (viewer,) = players(client, "viewer")
    listed = wait_for(
        lambda: viewer.get("/api/arenas").json()["arenas"],
        lambda arenas: {a["schedule"] for a in arenas} == {"hourly", "evening"},
    )
    hourly = [a for a in listed if a["schedule"] == "hourly"]
    assert [a["clock"] for a in hourly] == ["1+1", "1+1"]
    assert hourly[1]["starts_at"] - hourly[0]["starts_at"] == 60 * MINUTE
    assert all(a["minutes"] == 27 for a in hourly)
    second = make_client()  # another process makes each one only once
    (other,) = players(second, "other")
    time.sleep(0.3)
    ids = [a["id"] for a in other.get("/api/arenas").json()["arenas"]]
    assert len(ids) == len(set(ids)) == len(listed)


def test_games_started_in_the_same_millisecond_keep_the_order_they_were_played(
    client: Any, players: Any, clock: Any, make_client: Any
) -> None:
    """Alice resigns each game at once (aborted, over in the millisecond it began) and is
    paired again in that same millisecond: the arena orders her games by start, then by
    end, so the sheets and the pairing's "last opponent" read them as played, not by id
    (four such pairs: a chance of 1 in 16 that ids alone would pass)."""
    alice, bob = named(players, client, "alice", "bob")
    arena_id = make_arena(alice)["id"]
    for player in (alice, bob):
        player.post(f"/api/arenas/{arena_id}/join")
    played: list[str] = []

    def next_game() -> str:
        game_id = wait_for(
            lambda: arena_of(alice, arena_id)["me"]["game_id"], lambda g: g not in (None, *played)
        )
        played.append(game_id)
        return str(game_id)

    for _ in range(4):
        resign(alice, next_game())  # no line drawn: aborted, begun and over at once
        won = next_game()  # paired in the same millisecond
        both_draw((alice, bob), won)
        clock.advance(1000)
        resign(bob, won)
    next_game()  # under way: stored, on no sheet yet
    # Read back by a fresh app: nothing of the play in its memory, the rows as stored.
    fresh = make_client()
    (reader,) = players(fresh, "reader")
    rows = fresh.portal.call(fresh.app.state.services.store.arena_games, arena_id)
    assert [row.id for row in rows] == played
    sheet = {row["name"]: row for row in arena_of(reader, arena_id)["standings"]}["Alice"]
    assert [line["game_id"] for line in sheet["games"]] == played[:-1]
    assert [line["points"] for line in sheet["games"]] == [0, 2, 0, 2, 0, 4, 0, 4]


def test_performance_counts_each_opponent_s_rating_when_they_played(
    client: Any, players: Any, make_client: Any, database_url: str
) -> None:
    """A rated arena: Alice (1700) beats Bob (1500); then Bob's bullet rating moves on to
    2400 elsewhere. The standings, read by a fresh app, still rate the win against the
    1500 Bob had: performance is the opponent's rating as the game stored it + 500 for a
    win, - 500 for a loss (it read the opponent's rating of the moment)."""
    alice, bob = named(players, client, "alice", "bob")
    for player, name, rating in ((alice, "Alice", 1700.0), (bob, "Bob", 1500.0)):
        player.ready_for_rated(name)
        set_rating(database_url, player.id, "bullet", games=PLACEMENT_GAMES, rating=rating)
    arena_id = make_arena(alice, rated=True)["id"]
    for player in (alice, bob):
        assert player.post(f"/api/arenas/{arena_id}/join").status_code == 200
    game_id = paired(alice, arena_id)
    both_draw((alice, bob), game_id)
    resign(bob, game_id)
    ratings = alice.get(f"/api/games/{game_id}").json()["outcome"]["ratings"]
    assert [seat["before"] for seat in ratings["seats"]] in ([1700.0, 1500.0], [1500.0, 1700.0])
    for player in (alice, bob):
        player.post(f"/api/arenas/{arena_id}/pause")
    set_rating(database_url, bob.id, "bullet", games=PLACEMENT_GAMES + 1, rating=2400.0)

    fresh = make_client()
    (reader,) = players(fresh, "reader")
    rows = {row["name"]: row for row in arena_of(reader, arena_id)["standings"]}
    assert (rows["Alice"]["performance"], rows["Bob"]["performance"]) == (2000, 1200)


def aborted_on_the_first_line(client: Any, players: Any, clock: Any) -> tuple[str, str, Any, Any]:
    """Alice and Bob paired in an arena, and their game aborted on seat 0's first-line
    clock: (arena id, game id, seat 0's player, the other), once seat 0 reads as paused."""
    alice, bob = named(players, client, "alice", "bob")
    arena_id = make_arena(alice)["id"]
    for player in (alice, bob):
        player.post(f"/api/arenas/{arena_id}/join")
    game_id = paired(alice, arena_id)
    first = next(p for p in (alice, bob) if p.get(f"/api/games/{game_id}").json()["seat"] == 0)
    other = bob if first is alice else alice
    clock.advance(21_000)  # seat 0's 20 s for a first line run out: the sweeper aborts it
    wait_for(lambda: arena_of(first, arena_id)["me"]["paused"], lambda paused: paused)
    return arena_id, game_id, first, other


def test_a_player_who_never_moves_is_paused(client: Any, players: Any, clock: Any) -> None:
    """A game aborted on a player's first-line clock pauses that player (an empty chair
    is not paired again until it joins again); the opponent stays in."""
    arena_id, game_id, first, other = aborted_on_the_first_line(client, players, clock)
    assert arena_of(other, arena_id)["me"] == {"joined": True, "paused": False, "game_id": None}
    rows = {row["you"]: row for row in arena_of(first, arena_id)["standings"]}
    assert rows[True]["games"][0]["result"] == "aborted" and rows[True]["score"] == 0


def test_an_absent_player_is_paused_before_the_arena_pairs_again(
    client: Any, players: Any, clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pause of a player whose game aborted on their first-line clock is written before
    the director pairs again: with the write held up for half a second (five of the
    director's turns here), nobody is paired meanwhile, where the empty chair and its
    opponent, both free, would have been given a new game at once."""
    store = client.app.state.services.arenas.store
    write_pause = store.pause_arena

    async def slow_pause(arena_id: str, player_id: str) -> bool:
        await asyncio.sleep(0.5)
        return bool(await write_pause(arena_id, player_id))

    monkeypatch.setattr(store, "pause_arena", slow_pause)
    arena_id, game_id, first, other = aborted_on_the_first_line(client, players, clock)
    assert arena_of(first, arena_id)["me"] == {"joined": True, "paused": True, "game_id": None}
    assert arena_of(other, arena_id)["me"] == {"joined": True, "paused": False, "game_id": None}
    games = client.portal.call(client.app.state.services.store.arena_games, arena_id)
    assert [row.id for row in games] == [game_id]  # the aborted game alone: no other made


class HeldTurns(ArenaDirector):
    """A director whose turns each wait for the test to let them end."""

    def __init__(self, arenas: Any) -> None:
        super().__init__(arenas)
        self.entered: asyncio.Queue[int] = asyncio.Queue()
        self.let_end: asyncio.Queue[None] = asyncio.Queue()
        self.turns = 0

    async def schedule(self) -> None:
        pass

    async def turn(self) -> None:
        self.turns += 1
        self.entered.put_nowait(self.turns)
        await self.let_end.get()


async def test_a_wake_or_a_stop_during_a_turn_is_not_lost() -> None:
    """A game's end while the director pairs makes it pair again at once, and a shutdown
    while it pairs ends it at once: neither waits out the pairing interval (a minute here;
    the wake was cleared after each turn, and a shutdown waited a whole interval)."""
    arenas = SimpleNamespace(settings=SimpleNamespace(arena_pair_every_ms=60_000),
                             wake=asyncio.Event())
    director = HeldTurns(arenas)
    running = asyncio.create_task(director.run_forever())
    assert await asyncio.wait_for(director.entered.get(), 5) == 1
    arenas.wake.set()  # a game of an arena ended here
    director.let_end.put_nowait(None)
    assert await asyncio.wait_for(director.entered.get(), 5) == 2
    director.stop()
    director.let_end.put_nowait(None)
    await asyncio.wait_for(running, 5)
    assert director.turns == 2
