"""The process's log: text lines by default (``make run``), or with ``LOG_FORMAT=json``
one JSON object per line, uvicorn's own lines included (README "Operating it").

Each line written while a request or socket is served carries that request's fields
(``request_id``, ``method``, ``route``, ``game_id``, ``player``), from ``REQUEST``, a
context variable the request observer (``app/observe.py``) sets: asyncio copies it into
every task the request starts, and a line is stamped when it is logged, in the task
that logs it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import logging.config
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from starlette.types import Scope

from app.config import Settings


@dataclass
class RequestContext:
    request_id: str
    method: str
    scope: Scope = field(repr=False)
    player: str | None = None  # a short keyed hash of the player's id, never the id

    def fields(self) -> dict[str, Any]:
        """The request's fields; route and game are known once the request is routed."""
        found: dict[str, Any] = {"request_id": self.request_id, "method": self.method}
        route = self.scope.get("route")
        if route is not None:
            found["route"] = getattr(route, "path", None)
        game_id = self.scope.get("path_params", {}).get("game_id")
        if game_id:
            found["game_id"] = game_id
        if self.player:
            found["player"] = self.player
        return found


REQUEST: ContextVar[RequestContext | None] = ContextVar("request", default=None)

# Fields a log record may carry besides its message (``extra=``), in this order.
EXTRA_FIELDS = (
    "request_id", "method", "route", "path", "status", "duration_ms", "game_id", "player",
    "code", "client",
)  # fmt: skip


def player_tag(secret: str, player_id: str | None) -> str | None:
    """Ten hex digits that tell one player's lines from another's (keyed, so the log
    never holds what the cookie holds, nor anything that leads back to it)."""
    if not player_id:
        return None
    return hmac.new(secret.encode(), player_id.encode(), hashlib.sha256).hexdigest()[:10]


class RequestFields(logging.Filter):
    """Stamps a record with the fields of the request being served, if any."""

    def filter(self, record: logging.LogRecord) -> bool:
        context = REQUEST.get()
        if context is not None:
            for name, value in context.fields().items():
                if not hasattr(record, name):
                    setattr(record, name, value)
        return True


class SocketLines(logging.Filter):
    """Drops uvicorn's own lines per socket (accepted, open, closed): the app writes one
    line per socket, with its route, close code and request id."""

    MESSAGES = ('%s - "WebSocket %s"', "connection open", "connection closed")

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.msg if isinstance(record.msg, str) else ""
        return record.levelno > logging.INFO or not message.startswith(self.MESSAGES)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in EXTRA_FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                line[name] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


class TextFormatter(logging.Formatter):
    """``time level logger: message``, with the request id when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        request_id = getattr(record, "request_id", None)
        return f"{text} [{request_id}]" if request_id else text


def logging_config(settings: Settings) -> dict[str, Any]:
    """A ``logging.config.dictConfig`` for the app and for uvicorn (``log_config``)."""
    formatter: dict[str, Any] = (
        {"()": JsonFormatter}
        if settings.log_format == "json"
        else {"()": TextFormatter, "fmt": "%(asctime)s %(levelname)s %(name)s: %(message)s"}
    )
    level = settings.log_level.upper()
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request": {"()": RequestFields}, "sockets": {"()": SocketLines}},
        "formatters": {"default": formatter},
        "handlers": {
            "default": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
                "formatter": "default",
                "filters": ["request"],
            }
        },
        "loggers": {
            # uvicorn's loggers write through the same handler; its access lines are
            # replaced by the app's (app.access), which know the route and the request id.
            "uvicorn": {"handlers": ["default"], "level": level, "propagate": False},
            "uvicorn.error": {"level": level, "filters": ["sockets"]},
            "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": False},
        },
        "root": {"handlers": ["default"], "level": level},
    }


def configure(settings: Settings) -> None:
    """The log for ``settings``; Python's warnings go through it too (as py.warnings)."""
    logging.config.dictConfig(logging_config(settings))
    logging.captureWarnings(True)
