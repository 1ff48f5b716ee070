"""The game socket's frames in the OpenAPI document: OpenAPI has no words for a WebSocket,
so its two unions go in as components (``ClientFrame``: what a client sends,
``ServerFrame``: what the server sends, each discriminated by ``type``) and the extension
``x-websockets`` names them for ``/ws/games/{game_id}`` (docs/wire.md)."""

from __future__ import annotations

from typing import Any

from app.wire.client_frames import CLIENT_FRAME
from app.wire.frames import SERVER_FRAME

REF = "#/components/schemas/{model}"
SOCKET_PATH = "/ws/games/{game_id}"


def union_schema(adapter: Any, name: str, mode: str, components: dict[str, Any]) -> None:
    """``adapter``'s JSON schema as component ``name``; the models it refers to join the
    components unless the REST routes published them already (the same models)."""
    schema = adapter.json_schema(ref_template=REF, mode=mode)
    for model, definition in schema.pop("$defs", {}).items():
        components.setdefault(model, definition)
    components[name] = schema


def publish_socket_frames(document: dict[str, Any]) -> dict[str, Any]:
    components = document.setdefault("components", {}).setdefault("schemas", {})
    union_schema(CLIENT_FRAME, "ClientFrame", "validation", components)
    union_schema(SERVER_FRAME, "ServerFrame", "serialization", components)
    document["x-websockets"] = {
        SOCKET_PATH: {
            "description": "live state, moves and results of one game (docs/wire.md)",
            "client": {"$ref": REF.format(model="ClientFrame")},
            "server": {"$ref": REF.format(model="ServerFrame")},
        }
    }
    return document


