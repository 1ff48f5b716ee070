"""/api/catalog has a schema in OpenAPI: the CatalogEntry keys every game has, typed."""

from __future__ import annotations

from typing import Any

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
    assert entry["required"] == ["name", "params", "score_order"]
    assert entry["additionalProperties"] is True  # each game's own facts pass through
    assert set(entry["properties"]) == {"name", "params", "score_order"}
    assert components["ScoreOrder"]["enum"] == ["higher", "lower"]
    param = components["CatalogParam"]
    assert param["required"] == ["choices", "default"]
    served = client.get("/api/catalog").json()["games"]
    assert [(g["name"], g["score_order"]) for g in served] == [
        (name, engine.score_order.value) for name, engine in ENGINES.items()
    ]
