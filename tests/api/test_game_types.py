"""The OpenAPI document publishes every served game's moves and params from its engine's
declarations (app/wire/game_types.py): ``<Game>Move``, a union discriminated by ``type``,
and ``<Game>Params``; the request fields that carry them are ``anyOf`` those of the
games the app serves, and a bad move is still answered with the engine's own code."""

from __future__ import annotations

from typing import Any

from app.wire.game_schema import game_title
from engines.core.codec import move_codec
from engines.registry import ENGINES, served
from tests.api.test_errors import error
from tests.fixtures.games.lampsout import ENGINE as LAMPSOUT

REF = "#/components/schemas/{}"


def refs(schema: dict[str, Any]) -> list[str]:
    return [member["$ref"] for member in schema["anyOf"] if "$ref" in member]


def check_games(document: dict[str, Any], engines: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    moves, params = [], []
    for name, engine in engines.items():
        prefix = game_title(name)
        move = schemas[f"{prefix}Move"]
        tags = move_codec(engine.move_type).tags
        if len(tags) > 1:
            assert move["discriminator"]["propertyName"] == "type"
            assert set(move["discriminator"]["mapping"]) == set(tags)
            mapping = move["discriminator"]["mapping"]
            members = [schemas[ref.rsplit("/", 1)[1]] for ref in mapping.values()]
        else:
            members = [move]
        for member in members:
            assert "type" in member["required"]  # a move always says its type
            assert member["properties"]["type"]["const"] in tags
        assert schemas[f"{prefix}Params"]["type"] == "object"
        moves.append(REF.format(f"{prefix}Move"))
        params.append(REF.format(f"{prefix}Params"))
    assert refs(schemas["MoveRequest"]["properties"]["move"]) == moves
    assert refs(schemas["MoveMessage"]["properties"]["move"]) == moves  # the socket's frame
    for holder in ("CreateGame", "VerifyRequest"):
        given = schemas[holder]["properties"]["params"]
        assert refs(given) == params and {"type": "null"} in given["anyOf"]
    entry = schemas["VerifyEntry"]["properties"]["move"]  # a submitted log: null, a tick
    assert refs(entry) == moves and {"type": "null"} in entry["anyOf"]
    client_frame = document["x-websockets"]["/ws/games/{game_id}"]["client"]["$ref"]
    assert client_frame == REF.format("ClientFrame")


def test_every_registered_game_has_its_move_and_params(make_client: Any) -> None:
    document = make_client().get("/openapi.json").json()  # the registry's games
    check_games(document, dict(ENGINES))
    schemas = document["components"]["schemas"]
    # The choices a game declares are the schema's.
    assert schemas["PairsParams"]["properties"]["size"]["enum"] == ["beginner", "classic", "long"]
    line = schemas["TrianglesLineMove"]
    assert line["properties"]["a"]["type"] == "integer" and line["required"] == ["type", "a", "b"]
    cell = schemas["PairsPairMove"]["properties"]["a"]
    assert (cell["type"], cell["minItems"], cell["maxItems"]) == ("array", 2, 2)


def test_a_game_served_from_outside_is_published_too(make_client: Any) -> None:
    engines = served(LAMPSOUT)
    document = make_client(engines).get("/openapi.json").json()
    check_games(document, engines)
    press = document["components"]["schemas"]["LampsoutMove"]
    assert press["properties"]["type"]["const"] == "press"
    size = document["components"]["schemas"]["LampsoutParams"]["properties"]["size"]
    assert size["enum"] == [4, 6]


def test_a_bad_move_gets_the_engines_code_not_a_validation_error(make_client: Any) -> None:
    client = make_client()
    game = client.post("/api/games", json={"game": "pairs"}).json()
    url = f"/api/games/{game['id']}/moves"
    for move, code in (
        ({"type": "swap"}, "unknown_move"),
        ({}, "unknown_move"),
        ({"type": "pair", "a": [0, "1"], "b": [0, 2]}, "bad_cell"),
        ({"type": "pair", "a": [0, 1]}, "bad_cell"),
    ):
        assert error(client.post(url, json={"version": 0, "move": move})) == (422, code)
    refused = client.post("/api/games", json={"game": "pairs", "params": {"size": "huge"}})
    assert error(refused) == (400, "bad_size")
