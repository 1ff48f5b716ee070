"""The games' own types in the OpenAPI document, from the engines the app serves.

A model's ``view`` and ``events`` are the engine's JSON, passed through unvalidated
(``app.wire.answers.View`` and ``Event``: their JSON schema only marks the place). Here
each served engine's declarations join the components, as ``<Game>View`` (its
``view_type``) and ``<Game>Event`` (its ``event_type``, a union discriminated by
``type``), with the TypedDicts they name (``PairsClock``, ``PairsRemoved`` …). Then every
model that carries a view or events:

- with a ``game`` field (``Snapshot``, ``CreatedGame``, ``LoadedGame``, ``MoveResult``,
  ``Verified``, ``Replay``, the socket's ``StateFrame``), is published once per game,
  ``<Game><Model>`` (``PairsSnapshot``: ``game`` is ``"pairs"``, ``view`` a
  ``PairsView``), and the model itself becomes their union, discriminated by ``game``;
- without one (the socket's ``MoveFrame``, a replay's ``ReplayStep``), gets the union of
  every game's views or events (``anyOf``): the game is the one its socket or replay
  names.

Nothing here runs when a game is played: the document is made once per app.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from typing import Annotated, Any, Union

from pydantic import Field, TypeAdapter
from pydantic.errors import PydanticUserError

from app.wire.answers import GAME_TYPE

REF = "#/components/schemas/{model}"


def game_title(name: str) -> str:
    """A game's name as the start of its types' names: ``pairs`` → ``Pairs``."""
    return "".join(part.capitalize() for part in name.split("_"))


def _schema(declaration: Any, components: dict[str, Any]) -> dict[str, Any]:
    """``declaration``'s JSON schema; the types it names join ``components`` (a name
    two games declare differently is a ValueError: one would hide the other)."""
    schema = TypeAdapter(declaration).json_schema(ref_template=REF, mode="serialization")
    for model, definition in schema.pop("$defs", {}).items():
        if components.setdefault(model, definition) != definition:
            raise ValueError(f"two declarations of the type {model!r} differ")
    return schema


def _event_schema(declaration: Any, components: dict[str, Any]) -> dict[str, Any]:
    """The events' union, discriminated by ``type`` when each member has a literal one."""
    try:
        discriminated = Annotated[Union[declaration], Field(discriminator="type")]  # noqa: UP007
        return _schema(discriminated, components)
    except (PydanticUserError, TypeError):
        return _schema(declaration, components)


def _declare(name: str, schema: dict[str, Any], components: dict[str, Any]) -> dict[str, str]:
    if components.setdefault(name, schema) != schema:
        raise ValueError(f"the component {name!r} is declared twice")
    return {"$ref": REF.format(model=name)}


def _replace(node: Any, typed: Callable[[str], dict[str, Any]]) -> Any:
    """``node`` with every marked place (``GAME_TYPE``) replaced by ``typed(kind)``,
    keeping its description."""
    if isinstance(node, dict):
        kind = node.get(GAME_TYPE)
        if kind is not None:
            replaced = dict(typed(kind))
            if "description" in node:
                replaced["description"] = node["description"]
            return replaced
        return {key: _replace(value, typed) for key, value in node.items()}
    if isinstance(node, list):
        return [_replace(value, typed) for value in node]
    return node


def _marked(node: Any) -> bool:
    if isinstance(node, dict):
        return GAME_TYPE in node or any(_marked(value) for value in node.values())
    if isinstance(node, list):
        return any(_marked(value) for value in node)
    return False


def publish_game_views(document: dict[str, Any], engines: Mapping[str, Any]) -> dict[str, Any]:
    """``document`` with the served games' views and events typed (module docstring)."""
    components: dict[str, Any] = document.setdefault("components", {}).setdefault("schemas", {})
    views: dict[str, dict[str, str]] = {}
    events: dict[str, dict[str, str]] = {}
    for name, engine in engines.items():
        title = game_title(name)
        views[name] = _declare(f"{title}View", _schema(engine.view_type, components), components)
        event_schema = _event_schema(engine.event_type, components)
        events[name] = _declare(f"{title}Event", event_schema, components)

    def any_game(kind: str) -> dict[str, Any]:
        refs = list((views if kind == "view" else events).values())
        return refs[0] if len(refs) == 1 else {"anyOf": refs}

    for model, schema in list(components.items()):
        if not _marked(schema):
            continue
        if schema.get("properties", {}).get("game", {}).get("type") == "string":
            components[model] = _per_game(model, schema, engines, views, events, components)
        else:
            components[model] = _replace(schema, any_game)
    return document


def _per_game(
    model: str,
    schema: dict[str, Any],
    games: Iterable[str],
    views: dict[str, dict[str, str]],
    events: dict[str, dict[str, str]],
    components: dict[str, Any],
) -> dict[str, Any]:
    """``model`` once per game, and their union discriminated by ``game``."""
    mapping: dict[str, str] = {}
    for name in games:
        title = game_title(name)

        def typed(kind: str, game: str = name) -> dict[str, Any]:
            return (views if kind == "view" else events)[game]

        one = _replace(copy.deepcopy(schema), typed)
        one["title"] = f"{title}{model}"
        one["properties"]["game"] = {"type": "string", "const": name, "title": "Game"}
        mapping[name] = _declare(f"{title}{model}", one, components)["$ref"]
    union: dict[str, Any] = {
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
        "discriminator": {"propertyName": "game", "mapping": mapping},
        "title": model,
    }
    if "description" in schema:
        union["description"] = schema["description"]
    return union
