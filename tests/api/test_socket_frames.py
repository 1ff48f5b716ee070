"""The game socket's frames as the OpenAPI document publishes them (``ClientFrame``,
``ServerFrame``, ``x-websockets``): every frame a whole online game sends, to a player, to
the other and to a spectator, is valid by the published schema and by the server's own
union, and its kinds are the union's."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from jsonschema_rs import Draft202012Validator

from app.wire.frames import SERVER_FRAME


class Heard:
    """Every frame the test's sockets had, in order, and the kinds each socket had."""

    def __init__(self) -> None:
        self.frames: list[dict[str, Any]] = []
        self.kinds: defaultdict[Any, set[str]] = defaultdict(set)


def frames_until(ws: Any, kind: str, heard: Heard) -> dict[str, Any]:
    """Frames up to the first of ``kind`` (each kept in ``heard``); that one."""
    while True:
        frame: dict[str, Any] = ws.receive_json()
        heard.frames.append(frame)
        heard.kinds[ws].add(frame["type"])
        if frame["type"] == kind:
            return frame


def test_every_frame_of_a_whole_game_is_in_the_published_schema(
    client: Any, players: Any
) -> None:
    document = client.get("/openapi.json").json()
    assert document["x-websockets"]["/ws/games/{game_id}"]["server"] == {
        "$ref": "#/components/schemas/ServerFrame"
    }
    union = document["components"]["schemas"]["ServerFrame"]
    assert union["discriminator"]["propertyName"] == "type"
    published = Draft202012Validator({"$ref": "#/components/schemas/ServerFrame",
                                      "components": document["components"]})  # fmt: skip

    alice, bob, carol = players(client, "alice", "bob", "carol")
    game = alice.new_game("tally", params={"opponent": "online", "limit": 12})
    gid = game["id"]
    heard = Heard()
    with alice.websocket(f"/ws/games/{gid}") as a:
        frames_until(a, "state", heard)
        assert bob.post(f"/api/games/{gid}/join").status_code == 200
        frames_until(a, "joined", heard)
        with bob.websocket(f"/ws/games/{gid}") as b, carol.websocket(f"/ws/games/{gid}") as c:
            state = frames_until(b, "state", heard)
            frames_until(c, "state", heard)
            version, view = state["version"], state["view"]
            sockets = {0: a, 1: b}
            while not view["over"]:
                mover = sockets[view["turn"]]
                mover.send_json({"type": "move", "version": version, "id": version,
                                 "move": {"type": "add", "n": 3}})  # fmt: skip
                result = frames_until(mover, "result", heard)["result"]
                frames_until(c, "move", heard)
                version, view = result["version"], result["view"]
            a.send_json({"type": "move", "version": version, "id": "late",
                         "move": {"type": "add", "n": 1}})  # fmt: skip
            assert frames_until(a, "error", heard)["id"] == "late"
            b.send_json({"type": "ping"})
            frames_until(b, "pong", heard)
            assert alice.post(f"/api/games/{gid}/rematch", json={"action": "offer"}).is_success
            frames_until(b, "rematch", heard)
            # Alice's socket went on record when she came, and so did Bob's: Bob hears it in
            # a presence frame (at most one per game every 0.25 s), which may have come
            # among the game's frames above (on a busy machine) or be still to come.
            if "presence" not in heard.kinds[b]:
                frames_until(b, "presence", heard)
    kinds = {frame["type"] for frame in heard.frames}
    assert kinds == {"state", "joined", "presence", "result", "move", "error", "pong",
                     "rematch"}  # fmt: skip
    for frame in heard.frames:
        errors = [error.message for error in published.iter_errors(frame)]
        assert errors == [], (frame["type"], errors)
        assert SERVER_FRAME.validate_python(frame).type == frame["type"]


def test_the_client_frames_are_published_as_the_server_reads_them(client: Any) -> None:
    document = client.get("/openapi.json").json()
    schemas = document["components"]["schemas"]
    assert document["x-websockets"]["/ws/games/{game_id}"]["client"] == {
        "$ref": "#/components/schemas/ClientFrame"
    }
    assert sorted(schemas["ClientFrame"]["discriminator"]["mapping"]) == ["move", "ping", "sync"]
    move = schemas["MoveMessage"]
    assert set(move["required"]) == {"type", "version", "move"}
    assert move["properties"]["id"]["anyOf"][:2] == [{"type": "string"}, {"type": "integer"}]
