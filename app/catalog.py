"""The games this server hosts, by name."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.errors import AppError
from engines.core.errors import AppCode
from engines.core.protocol import (
    ArenaPlay,
    ComputerPlayer,
    CostlySetup,
    Engine,
    OnlinePlay,
    Reviewer,
)

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

    def describe(self) -> list[dict[str, Any]]:
        """What /api/catalog serves: each engine's entry, with what the app discovers of
        its capabilities (``online_play``)."""
        return [entry(engine) for engine in self.engines.values()]


def entry(engine: AnyEngine) -> dict[str, Any]:
    """A game's catalog entry as the site serves it: ``describe()``, ``online_play`` and
    ``arenas``."""
    return {
        **engine.describe(),
        "online_play": online(engine) is not None,
        "arenas": arenas_of(engine) is not None,
    }


# --- capabilities: what a game can do beyond its rules, discovered from what it has ------
# (engines.core.protocol: a game has a capability by having its methods)


def online(engine: AnyEngine) -> OnlinePlay | None:
    """The game's online play (quick pairing), or None."""
    return engine if isinstance(engine, OnlinePlay) else None


def arenas_of(engine: AnyEngine) -> ArenaPlay | None:
    """The game's arena play (arena tournaments, berserk), or None."""
    return engine if isinstance(engine, ArenaPlay) else None


def reviewer(engine: AnyEngine) -> Reviewer | None:
    """The game's review of finished games, or None."""
    return engine if isinstance(engine, Reviewer) else None


def computer(engine: AnyEngine) -> ComputerPlayer | None:
    """The game's computer player (its COMPUTER seats), or None."""
    return engine if isinstance(engine, ComputerPlayer) else None


def costly(engine: AnyEngine, params: Any) -> bool:
    """Whether setting up a game with these params may take long (off the event loop)."""
    return isinstance(engine, CostlySetup) and engine.costly_setup(params)
