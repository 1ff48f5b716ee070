"""The server's clock, replaceable in tests."""

from __future__ import annotations

import datetime as dt
import re
import time
from typing import Protocol

from app.errors import AppError
from engines.core.errors import ErrorCode


class Clock(Protocol):
    def now_ms(self) -> int: ...


class SystemClock:
    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000


def today(clock: Clock) -> dt.date:
    """The server's date, in UTC (daily boards change at 00:00 UTC)."""
    return dt.datetime.fromtimestamp(clock.now_ms() / 1000, dt.UTC).date()


DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def parse_day(text: str) -> dt.date:
    """A calendar date written exactly ``YYYY-MM-DD`` (the one form dailies are keyed by),
    else 422 ``bad_date``."""
    try:
        if DATE.fullmatch(text):
            return dt.date.fromisoformat(text)
    except ValueError:
        pass
    raise AppError(ErrorCode.BAD_DATE, "a date is written YYYY-MM-DD")
