"""/api/catalog has a schema in OpenAPI: the CatalogEntry keys every game has, typed."""

from __future__ import annotations

from typing import Any

from engines.core.protocol import OnlinePlay
from engines.registry import ENGINES


def test_the_catalog_is_typed_in_openapi(make_client: Any) -> None:
    client = make_client(None)  # the registry's games
    schema = client.get("/openapi.json").json()
    answer = schema["paths"]["/api/catalog"]["get"]["responses"]["200"]["content"]
    assert answer["application/json"]["schema"] == {"$ref": "#/components/schemas/GameCatalog"}
    components = schema["components"]["schemas"]
    games = components["GameCatalog"]["properties"]["games"]
    assert games["items"] == {"$ref": "#/components/schemas/CatalogGame"}
    entry = components["CatalogGame"]
    # The keys every game has, and what the app discovers of its capabilities.
    assert entry["required"] == ["name", "params", "score_order", "online_play", "arenas"]
    assert entry["additionalProperties"] is True  # each game's own facts pass through
    assert set(entry["properties"]) == {"name", "params", "score_order", "online_play", "arenas"}
    assert components["ScoreOrder"]["enum"] == ["higher", "lower"]
    param = components["CatalogParam"]
    assert param["required"] == ["choices", "default"]
    served = client.get("/api/catalog").json()["games"]
    assert [(g["name"], g["score_order"], g["online_play"]) for g in served] == [
        (name, engine.score_order.value, isinstance(engine, OnlinePlay))
        for name, engine in ENGINES.items()
    ]
