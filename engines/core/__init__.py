"""The protocol every game engine implements, and the pieces they share."""

from engines.core.base import BaseEngine
from engines.core.errors import AppCode, ErrorCode
from engines.core.protocol import (
    BadMove,
    BadParams,
    Engine,
    EngineError,
    Event,
    IllegalMove,
    Outcome,
    RecordEntry,
    SeatKind,
)
from engines.core.rng import Rng

__all__ = [
    "AppCode",
    "BadMove",
    "BadParams",
    "BaseEngine",
    "Engine",
    "EngineError",
    "ErrorCode",
    "Event",
    "IllegalMove",
    "Outcome",
    "RecordEntry",
    "Rng",
    "SeatKind",
]
