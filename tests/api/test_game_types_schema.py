"""The served games' views and events in the OpenAPI document (``app/wire/game_schema.py``):
every engine of the registry has its ``<Game>View`` and ``<Game>Event`` and its own
``<Game>Snapshot`` (and the other answers that carry a view), unions discriminated by
``game``; a game served besides the registry's (the fixture game) joins them; and what
the server sends is valid by them, an undeclared key not."""

from __future__ import annotations

import json
import random
from typing import Any

from jsonschema_rs import Draft202012Validator
from pydantic import TypeAdapter

from app.config import Settings
from app.main import create_app
from app.wire.answers import GAME_TYPE
from app.wire.game_schema import REF, game_title
from engines.core.base import BaseEngine
from engines.registry import ENGINES, served
from tests.engines.test_typed_views import candidates
from tests.fixtures.games.clocktally import ENGINE as CLOCKTALLY
from tests.fixtures.games.lampsout import ENGINE as LAMPSOUT
from tests.fixtures.games.lampsout import LampsOut

PER_GAME = ("Snapshot", "CreatedGame", "LoadedGame", "MoveResult", "Verified", "StateFrame")


def document(settings: Settings, engines: Any = None) -> dict[str, Any]:
    return create_app(settings, engines=engines).openapi()


def validator(doc: dict[str, Any], component: str) -> Draft202012Validator:
    return Draft202012Validator({"$ref": REF.format(model=component),
                                 "components": doc["components"]})  # fmt: skip


def test_every_game_of_the_registry_has_its_types(settings: Settings) -> None:
    doc = document(settings)
    schemas = doc["components"]["schemas"]
    assert GAME_TYPE not in json.dumps(doc)  # every marked place was typed
    for name, engine in ENGINES.items():
        title = game_title(name)
        view = TypeAdapter(engine.view_type).json_schema(ref_template=REF)
        view.pop("$defs", None)
        assert schemas[f"{title}View"] == view
        assert schemas[f"{title}View"]["additionalProperties"] is False
        assert schemas[f"{title}Event"]["discriminator"]["propertyName"] == "type"
        for model in PER_GAME:
            one = schemas[f"{title}{model}"]
            assert one["properties"]["game"]["const"] == name
            assert one["properties"]["view"]["$ref"] == REF.format(model=f"{title}View")
    for model in PER_GAME:
        union = schemas[model]
        assert union["discriminator"] == {
            "propertyName": "game",
            "mapping": {name: REF.format(model=f"{game_title(name)}{model}") for name in ENGINES},
        }
    assert schemas["PairsMoveResult"]["properties"]["events"]["items"] == {
        "$ref": REF.format(model="PairsEvent")
    }
    # A frame without a game field: any served game's view and events.
    move_frame = schemas["MoveFrame"]["properties"]
    assert move_frame["view"]["anyOf"] == [
        {"$ref": REF.format(model=f"{game_title(name)}View")} for name in ENGINES
    ]
    assert "LampsoutView" not in schemas


def test_a_game_served_besides_the_registry_joins_the_document(settings: Settings) -> None:
    schemas = document(settings, served(LAMPSOUT, CLOCKTALLY))["components"]["schemas"]
    assert {"LampsoutView", "LampsoutEvent", "LampsoutToggled", "LampsoutSnapshot"} <= set(
        schemas
    )
    assert {"ClocktallyView", "ClocktallyClock", "ClocktallyEvent", "ClocktallyStateFrame"} <= (
        set(schemas)
    )
    assert schemas["Snapshot"]["discriminator"]["mapping"]["lampsout"] == REF.format(
        model="LampsoutSnapshot"
    )
    only = document(settings, {"lampsout": LAMPSOUT})["components"]["schemas"]
    assert "PairsView" not in only and only["MoveFrame"]["properties"]["view"] == {
        "$ref": REF.format(model="LampsoutView")
    }


def test_the_views_and_events_of_every_game_are_valid_by_the_document(
    settings: Settings,
) -> None:
    doc = document(settings)
    for name, engine in ENGINES.items():
        views, events = validator(doc, f"{game_title(name)}View"), validator(
            doc, f"{game_title(name)}Event"
        )
        rng = random.Random(name)
        state = engine.new_game(engine.parse_params({}), 7)
        for _ in range(12):
            view = json.loads(json.dumps(engine.view(state, None)))
            assert list(views.iter_errors(view)) == [], name
            assert not views.is_valid({**view, "undeclared": 1})
            mover = engine.to_move(state)
            if mover is None:
                break
            for raw in candidates(engine, state, view, rng):
                try:
                    state, happened = engine.apply(state, engine.parse_move(raw), 1000, mover)
                except Exception:
                    continue
                for event in json.loads(json.dumps(happened)):
                    assert list(events.iter_errors(event)) == [], (name, event)
                break


def test_the_answers_of_a_game_are_valid_by_its_own_schemas(
    make_client: Any, players: Any
) -> None:
    client = make_client(served(LAMPSOUT))
    doc = client.get("/openapi.json").json()
    alice = players(client, "alice")[0]
    created = alice.new_game("lampsout")
    assert validator(doc, "CreatedGame").is_valid(created)
    assert validator(doc, "LampsoutCreatedGame").is_valid(created)
    assert not validator(doc, "PairsCreatedGame").is_valid(created)
    lamp = created["view"]["lamps"].index(True)
    moved = alice.move(created["id"], created["version"], {"type": "press", "lamp": lamp})
    assert moved.status_code == 200, moved.text
    result = moved.json()
    assert result["events"][0] == {"type": "toggled", "lamp": lamp}
    assert list(validator(doc, "MoveResult").iter_errors(result)) == []
    loaded = client.get(f"/api/games/{created['id']}").json()
    assert list(validator(doc, "LoadedGame").iter_errors(loaded)) == []
    # A key the engine does not declare would break the published contract.
    assert not validator(doc, "MoveResult").is_valid(
        {**result, "view": {**result["view"], "secret": 1}}
    )


class Undeclared(LampsOut):
    """The fixture game under another name, declaring nothing: BaseEngine's defaults."""

    name = "plain_game"
    view_type = BaseEngine.view_type
    event_type = BaseEngine.event_type


def test_a_game_that_declares_nothing_is_published_as_json_objects(settings: Settings) -> None:
    schemas = document(settings, served(Undeclared()))["components"]["schemas"]
    assert schemas["PlainGameView"] == {"type": "object", "additionalProperties": True}
    assert schemas["PlainGameEvent"] == {"type": "object", "additionalProperties": True}
    assert schemas["PlainGameSnapshot"]["properties"]["game"]["const"] == "plain_game"
