"""The games this server hosts, by name."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.errors import AppError
from engines.core.errors import AppCode
from engines.core.protocol import CatalogEntry, Engine

AnyEngine = Engine[Any, Any, Any]


class Catalog:
    def __init__(self, engines: Mapping[str, AnyEngine]) -> None:
        self.engines = dict(engines)

    def engine(self, name: str) -> AnyEngine:
        """The engine called ``name``, or a 404 ``unknown_game``."""
        engine = self.engines.get(name)
        if engine is None:
            raise AppError(AppCode.UNKNOWN_GAME, f"there is no game called {name[:40]!r}")
        return engine

    def __contains__(self, name: object) -> bool:
        return name in self.engines

    def rated(self) -> list[str]:
        """The games that offer rated play (a ``rated`` param)."""
        return [
            name for name, engine in self.engines.items() if "rated" in engine.describe()["params"]
        ]

    def describe(self) -> list[CatalogEntry]:
        return [engine.describe() for engine in self.engines.values()]
