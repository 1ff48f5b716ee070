"""A process keeps its copy of a game current with the moves another process commits.

When two processes serve one match, each hears of the other's moves through the hub. The
published move carries its log entries (``HubMove.step``); a process that keeps the game
in memory replays them, so its own player's next move reads no row. Here the second
process is a ``LiveGames`` fed the very messages the playing app published (sent through
their JSON form, as Redis carries them), and what it holds is compared with the row the
database stored, read back on a connection of its own.
"""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from app.live import STATE_NOT_KEPT, LiveGames
from app.metrics import MOVE_GAME_READS
from app.wire import HUB_MESSAGE, HubMove
from engines.core.replay import replay
from engines.triangles import ENGINE as TRIANGLES
from tests.api.test_online import next_line
from tests.stored import stored


@pytest.fixture
def client(make_client: Any) -> Any:
    return make_client()


def published_moves(client: Any, monkeypatch: pytest.MonkeyPatch) -> list[HubMove]:
    """Every move the app publishes from now on, as another process reads it."""
    hub = client.app.state.services.hub
    heard: list[HubMove] = []
    publish = hub.publish

    async def recording(game_id: str, message: Any) -> None:
        if isinstance(message, HubMove):
            heard.append(HUB_MESSAGE.validate_json(message.model_dump_json()))  # type: ignore[arg-type]
        await publish(game_id, message)

    monkeypatch.setattr(hub, "publish", recording)
    return heard


def stored_row(settings: Any, game_id: str) -> tuple[Any, ...]:
    ((version, state, status, updated_ms, deadline_ms),) = stored(
        settings,
        "SELECT version, state, status, updated_ms, deadline_ms FROM games "
        f"WHERE id = '{game_id}'",
    )
    state = json.loads(state) if isinstance(state, str) else state
    return version, state, status, updated_ms, deadline_ms


def started_match(client: Any, players: Any, params: dict[str, Any]) -> tuple[Any, ...]:
    """Alice's online game that Bob has joined, and another process's copy of it, taken
    as it starts (as a join there keeps it): (alice, bob, game id, that copy)."""
    alice, bob = players(client, "alice", "bob")
    gid = alice.new_game("triangles", params=params)["id"]
    assert bob.post(f"/api/games/{gid}/join").status_code == 200
    services = client.app.state.services
    game = client.portal.call(services.store.game, gid)
    other = LiveGames(services.catalog)
    other.remember(game, TRIANGLES.load_state(game.state))
    return alice, bob, gid, other


def test_another_process_s_copy_follows_each_move_to_the_stored_row(
    client: Any, players: Any, settings: Any, clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    params = {"opponent": "online", "stars": 24, "clock": "3+2"}  # a deadline that moves
    alice, bob, gid, other = started_match(client, players, params)
    heard = published_moves(client, monkeypatch)

    version, followed = 0, 0
    while True:
        view = alice.get(f"/api/games/{gid}").json()
        if view["status"] == "over":
            break
        clock.advance(1_500)
        mover = (alice, bob)[view["view"]["turn"]]
        answer = mover.move(gid, version, next_line(alice, gid))
        assert answer.status_code == 200, answer.text
        version = answer.json()["version"]
        (published,) = heard
        heard.clear()
        other.follow(gid, published)
        kept = other.at_version(gid, version)
        if published.step is None:  # the game is over: nobody keeps it
            assert kept is None and len(other) == 0
            continue
        assert kept is not None
        row = stored_row(settings, gid)
        assert row[2] == "active"
        assert (kept.game.version, kept.game.status) == (row[0], row[2])
        assert (kept.game.updated_ms, kept.game.deadline_ms) == row[3:]
        assert TRIANGLES.dump_state(kept.state) == row[1]
        assert kept.game.state is STATE_NOT_KEPT  # the state object is the game
        with pytest.raises(LookupError, match="Live.state"):
            kept.game.state["lines"]
        followed += 1
    assert followed == version - 1 > 10  # every move but the last, which ended it


def test_a_copy_that_missed_a_move_is_dropped(
    client: Any, players: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob, gid, other = started_match(client, players, {"opponent": "online", "stars": 24})
    game = client.portal.call(client.app.state.services.store.game, gid)  # still at version 0
    heard = published_moves(client, monkeypatch)
    for version in (0, 1):
        mover = (alice, bob)[alice.get(f"/api/games/{gid}").json()["view"]["turn"]]
        assert mover.move(gid, version, next_line(alice, gid)).status_code == 200
    first, second = heard
    other.follow(gid, second)  # the first never arrived (Redis was down meanwhile)
    assert len(other) == 0  # so the next move here reads the row
    other.remember(game, TRIANGLES.load_state(game.state))
    other.follow(gid, first)
    assert other.at_version(gid, 1) is not None
    other.follow(gid, first)  # again, late (its move is in the copy): the copy stays
    assert other.at_version(gid, 1) is not None
    other.follow(gid, second)
    assert other.at_version(gid, 2) is not None
    # entries that do not add up to the versions named: no commit's, never replayed
    garbled = HubMove.model_construct(from_version=2, version=4, frames={}, step=second.step)
    other.follow(gid, garbled)
    assert len(other) == 0


def test_a_game_its_socket_loaded_is_kept_for_the_first_move(
    make_client: Any, players: Any
) -> None:
    """Another process (a second app on the same database) that has never seen the game:
    the socket's first state reads it, and the player's move then finds it in memory."""
    first = make_client()
    alice, bob = players(first, "alice", "bob")
    gid = alice.new_game("triangles", params={"opponent": "online", "stars": 24})["id"]
    assert bob.post(f"/api/games/{gid}/join").status_code == 200
    line = next_line(alice, gid)
    second = make_client()
    (alice,) = players(second, "alice")
    reads = {source: MOVE_GAME_READS.labels(source) for source in ("memory", "database")}
    before = {source: counter._value.get() for source, counter in reads.items()}
    with alice.websocket(f"/ws/games/{gid}") as socket:
        assert socket.receive_json()["type"] == "state"
        socket.send_json({"type": "move", "version": 0, "move": line, "id": 1})
        while (answer := socket.receive_json())["type"] != "result":
            pass
    assert answer["result"]["version"] == 1
    after = {source: counter._value.get() for source, counter in reads.items()}
    assert {source: after[source] - before[source] for source in reads} == {
        "memory": 1,
        "database": 0,
    }


def test_a_read_never_replaces_a_newer_copy(client: Any, players: Any) -> None:
    alice, bob = players(client, "alice", "bob")
    gid = alice.new_game("triangles", params={"opponent": "online", "stars": 24})["id"]
    assert bob.post(f"/api/games/{gid}/join").status_code == 200
    services = client.app.state.services
    read = client.portal.call(services.store.game, gid)
    assert alice.move(gid, 0, next_line(alice, gid)).status_code == 200
    newer = client.portal.call(services.store.game, gid)
    live = LiveGames(services.catalog)
    live.offer(newer, TRIANGLES.load_state(newer.state))
    live.offer(read, TRIANGLES.load_state(read.state))  # read before that move
    assert live.at_version(gid, 1) is not None and live.at_version(gid, 0) is None


def test_racing_moves_on_two_processes_leave_one_stored_game(
    make_client: Any, players: Any, settings: Any
) -> None:
    """The same line sent at the same version through two processes at once (two apps on
    one database, each keeping the game): one is written, the other refused 409; the row
    read back on a connection of its own is the replay of the stored log, and play goes
    on through the process that lost, whose copy either followed or was dropped."""
    first, second = make_client(), make_client()
    alice, bob = players(first, "alice", "bob")
    gid = alice.new_game("triangles", params={"opponent": "online", "stars": 24})["id"]
    assert bob.post(f"/api/games/{gid}/join").status_code == 200
    (alice_there,) = players(second, "alice")
    assert alice_there.get(f"/api/games/{gid}").status_code == 200  # kept there too
    line = next_line(alice, gid)
    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(lambda player: player.move(gid, 0, line), (alice, alice_there)))
    assert sorted(answer.status_code for answer in answers) == [200, 409]
    loser = (alice, alice_there)[[a.status_code for a in answers].index(409)]

    def stored_matches_its_log(version: int) -> None:
        ((stored_version, state),) = stored(
            settings, f"SELECT version, state FROM games WHERE id = '{gid}'"
        )
        state = json.loads(state) if isinstance(state, str) else state
        moves = stored(settings, f"SELECT seat, move, at_ms FROM moves WHERE game_id = '{gid}'")
        log = [
            {"seat": s, "move": json.loads(m) if isinstance(m, str) else m, "at_ms": at}
            for s, m, at in moves
        ]
        query = f"SELECT params, seed FROM games WHERE id = '{gid}'"
        ((raw_params, seed),) = stored(settings, query)
        raw_params = json.loads(raw_params) if isinstance(raw_params, str) else raw_params
        params = TRIANGLES.parse_params(raw_params)
        assert stored_version == version == len(log)
        assert TRIANGLES.dump_state(replay(TRIANGLES, params, seed, log)) == state

    stored_matches_its_log(1)
    (bob_on_loser,) = players(loser.client, "bob")
    answer = bob_on_loser.move(gid, 1, next_line(alice, gid))
    assert answer.status_code == 200, answer.text
    stored_matches_its_log(2)
