"""A lost database: answered with 503 ``database_unavailable`` (and Retry-After), logged
once per outage rather than with a traceback per request. The pool replaces its broken
connections by itself, so service resumes as soon as the database answers again."""

from __future__ import annotations

import logging
import time

from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from app.errors import AppError
from engines.core.errors import AppCode

log = logging.getLogger("app.db")

QUIET_S = 30.0  # failures this close together are one outage
# PostgreSQL's SQLSTATE classes for a server that cannot take the work now: 08 connection
# exception, 53 insufficient resources (too many connections, out of memory or disk),
# 57P operator intervention (shutting down, starting up). Retrying later is the answer.
UNAVAILABLE_SQLSTATES = ("08", "53", "57P")
RETRY_AFTER_S = 5


def is_outage(error: BaseException) -> bool:
    """True for errors that mean the database cannot be reached (not a bad query).
    A silent database shows as a timeout: the pool's (no connection free in time), or
    the builtin TimeoutError of a connect or statement that outlived its bound (asyncpg
    raises it unwrapped; it is an OSError too)."""
    if isinstance(error, OperationalError | InterfaceError | PoolTimeout | TimeoutError | OSError):
        return True
    if not isinstance(error, DBAPIError):
        return False
    sqlstate = str(getattr(error.orig, "sqlstate", None) or "")
    return error.connection_invalidated or sqlstate.startswith(UNAVAILABLE_SQLSTATES)


class OutageLog:
    """One per app (``Services.outages``; a process serves one): its own quiet time since
    its last failure, so one app's outage never silences another's."""

    def __init__(self) -> None:
        self.last_failure = -QUIET_S

    def unavailable(self, error: BaseException) -> AppError:
        """Log the start of an outage (one line), and the refusal to answer meanwhile."""
        now = time.monotonic()
        if now - self.last_failure >= QUIET_S:
            reason = type(getattr(error, "orig", None) or error).__name__
            log.error("database unavailable (%s); answering 503 until it is back", reason)
        self.last_failure = now
        return AppError(
            AppCode.DATABASE_UNAVAILABLE,
            "the game store is unavailable; try again in a few seconds",
            headers={"Retry-After": str(RETRY_AFTER_S)},
        )
