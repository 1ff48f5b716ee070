"""What a seek may name, in the OpenAPI document: the games this server serves that offer
online play, each with its own time controls. The request model (``SeekRequest``) cannot
say it, as the games are the ones the app is created with (``create_app(engines=...)``):
the document names them, one alternative per game, so a client (or a fuzzer) reading it
sends a seek the server accepts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.core.protocol import Engine, OnlinePlay


def seek_alternatives(engines: Mapping[str, Engine[Any, Any, Any]]) -> list[dict[str, Any]]:
    """One schema per online game: its name and its time controls; only a control with
    a clock can be rated (the server checks both too)."""
    alternatives = []
    for name, engine in engines.items():
        if not isinstance(engine, OnlinePlay):
            continue
        clocks = engine.describe().get("clocks") or {}
        untimed = [clock for clock, control in clocks.items() if control is None]
        alternative: dict[str, Any] = {
            "properties": {"game": {"const": name}, "clock": {"enum": list(clocks)}}
        }
        if untimed:
            alternative["if"] = {"properties": {"rated": {"const": True}}, "required": ["rated"]}
            alternative["then"] = {"properties": {"clock": {"not": {"enum": untimed}}}}
        alternatives.append(alternative)
    return alternatives


def publish_seek_games(
    document: dict[str, Any], engines: Mapping[str, Engine[Any, Any, Any]]
) -> dict[str, Any]:
    schema = document.get("components", {}).get("schemas", {}).get("SeekRequest")
    if schema is not None:
        alternatives = seek_alternatives(engines)
        # No game offers online play: no seek is valid, and the document says so.
        schema["oneOf"] = alternatives or [{"not": {}}]
    return document
