"""Errors the API returns: ``{"error": {"code", "message", ...}}`` with a stable code."""

from __future__ import annotations

from typing import Any

from engines.core.protocol import BadParams, EngineError, IllegalMove

# Engine codes that are about who may act rather than about the rules.
FORBIDDEN_CODES = frozenset({"not_your_turn"})


class AppError(Exception):
    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        details: dict[str, Any] | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.details = details or {}
        self.extra = extra or {}  # top-level keys beside "error", e.g. the current state

    def body(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.details:
            error["details"] = self.details
        return {"error": error, **self.extra}


def from_engine(error: EngineError) -> AppError:
    """Map an engine error: BadParams → 400, BadMove/IllegalMove → 422 (403 for turns)."""
    if isinstance(error, BadParams):
        status = 400
    elif isinstance(error, IllegalMove) and error.code in FORBIDDEN_CODES:
        status = 403
    else:  # BadMove, IllegalMove
        status = 422
    return AppError(status, error.code, error.message, error.details)


def not_found() -> AppError:
    return AppError(404, "game_not_found", "no such game")
