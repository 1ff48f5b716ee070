"""The protocol every game engine implements, and the pieces they share."""

from engines.core.base import BaseEngine
from engines.core.errors import AppCode, ErrorCode
from engines.core.protocol import (
    BadMove,
    BadParams,
    CatalogEntry,
    Engine,
    EngineError,
    Event,
    IllegalMove,
    Outcome,
    RecordEntry,
    ScoreOrder,
    SeatKind,
    ViewBase,
)
from engines.core.rng import Rng

__all__ = [
    "AppCode",
    "BadMove",
    "BadParams",
    "BaseEngine",
    "CatalogEntry",
    "Engine",
    "EngineError",
    "ErrorCode",
    "Event",
    "IllegalMove",
    "Outcome",
    "RecordEntry",
    "Rng",
    "ScoreOrder",
    "SeatKind",
    "ViewBase",
]
