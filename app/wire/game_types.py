"""Each served game's moves and params in the OpenAPI document, from its engine's
declarations (``engine.move_type``, ``engine.params_type``; ``engines.core.codec``).

Components ``<Game>Move`` (a union discriminated by ``type``) and ``<Game>Params`` for
every engine the app serves (``create_app(engines=...)``), with the classes they name
named by the game and the kind (``PairsPairMove``, ``TrianglesLineMove``: games share
class names, and a game's events may be named like its moves). A move
is published where a request carries one (``MoveRequest.move``, the socket's
``MoveMessage.move``) as ``anyOf`` the games' moves (their ``type`` names overlap, so each
game's union is discriminated inside it; ``VerifyEntry.move`` also null, a clock tick),
and ``CreateGame.params`` and ``VerifyRequest.params`` as ``anyOf`` their params. The
models themselves take any JSON object there: the engine reads it and refuses a bad one
with its own code (``bad_move``, ``unknown_move``, ``bad_cell`` ...), which the route's
generic ``invalid_request`` would hide.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.wire.game_schema import game_title
from engines.core.codec import move_codec, params_codec
from engines.core.protocol import Engine

REF = "#/components/schemas/{model}"


def game_components(engines: Mapping[str, Engine[Any, Any, Any]]) -> dict[str, Any]:
    """``<Game>Move`` and ``<Game>Params`` of every engine, and what they refer to."""
    components: dict[str, Any] = {}
    for engine in engines.values():
        prefix = game_title(engine.name)
        for suffix, codec in (
            ("Move", move_codec(engine.move_type)),
            ("Params", params_codec(engine.params_type)),
        ):
            schema, defs = codec.json_schema(prefix, suffix)
            components.update(defs)
            components[prefix + suffix] = {**schema, "title": prefix + suffix}
    return components


def publish_game_moves(
    document: dict[str, Any], engines: Mapping[str, Engine[Any, Any, Any]]
) -> dict[str, Any]:
    """The games' components, and the request fields that carry a move or params."""
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    for name, body in game_components(engines).items():
        if schemas.get(name, body) != body:  # a game's class named like a wire model
            raise ValueError(f"a game's component {name} would replace another schema")
        schemas[name] = body
    prefixes = [game_title(name) for name in engines]
    move = {
        "anyOf": [{"$ref": REF.format(model=f"{p}Move")} for p in prefixes],
        "title": "Move",
        "description": "a move of the game: its `<Game>Move`",
    }
    for holder in ("MoveRequest", "MoveMessage"):
        if holder in schemas:
            schemas[holder]["properties"]["move"] = dict(move)
    if "VerifyEntry" in schemas:  # a submitted log's move, or null for a clock tick
        tick = {"anyOf": [*move["anyOf"], {"type": "null"}]}
        schemas["VerifyEntry"]["properties"]["move"] = {
            **schemas["VerifyEntry"]["properties"]["move"],
            **tick,
        }
    params = [{"$ref": REF.format(model=f"{p}Params")} for p in prefixes]
    for holder in ("CreateGame", "VerifyRequest"):
        if holder in schemas:
            published = schemas[holder]["properties"]["params"]
            schemas[holder]["properties"]["params"] = {
                **published,
                "anyOf": [*params, {"type": "null"}],
                "description": published.get("description")
                or "the game's params (`<Game>Params`); missing ones at their defaults",
            }
    return document
