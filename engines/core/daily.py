"""The daily seed: one formula, written again in static/js/core/daily.js.

The browser computes the player's local date; both sides turn ``"<game>:<YYYY-MM-DD>"``
into a seed with 32-bit FNV-1a (easy to write exactly in JavaScript with Math.imul),
reduced to the 8 digits of a game number. Tests run the JS version against this one.
"""

from __future__ import annotations

import datetime as dt

from engines.core.errors import ErrorCode
from engines.core.numbers import SEED_LIMIT
from engines.core.protocol import BadParams

FNV_OFFSET = 0x811C9DC5
FNV_PRIME = 0x01000193


def fnv1a32(text: str) -> int:
    h = FNV_OFFSET
    for byte in text.encode("utf-8"):
        h = ((h ^ byte) * FNV_PRIME) & 0xFFFFFFFF
    return h


def daily_seed(game: str, date: str) -> int:
    """The seed of ``game``'s daily board on ``date`` (ISO ``YYYY-MM-DD``)."""
    return fnv1a32(f"{game}:{parse_date(date).isoformat()}") % SEED_LIMIT


def parse_date(date: str) -> dt.date:
    try:
        return dt.date.fromisoformat(date)
    except (TypeError, ValueError):
        raise BadParams(
            ErrorCode.BAD_DATE, f"{str(date)[:20]!r} is not a date like 2026-11-29"
        ) from None
