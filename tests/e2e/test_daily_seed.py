"""static/js/core/daily.js in Chromium: the browser's local date must be the calendar date of
its own time zone (the date the daily board is asked for; the server computes the seed), and
its FNV-1a hash (lobby avatar colours) agrees with engines/core/daily.py."""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from engines.core.daily import fnv1a32

pytestmark = pytest.mark.e2e

ZONES = [
    "UTC",
    "Pacific/Kiritimati",  # UTC+14
    "Pacific/Pago_Pago",  # UTC-11
    "Asia/Kolkata",  # +5:30
    "America/St_Johns",  # -3:30 / -2:30
    "Europe/Paris",
    "Australia/Lord_Howe",  # a half-hour DST shift
]


def run_daily(page: Any, body: str, arg: Any = None) -> Any:
    return page.evaluate(
        "async (arg) => { const m = await import('/static/js/core/daily.js'); " + body + " }", arg
    )


@pytest.fixture
def page(phone: Any) -> Any:
    page = phone.new_page()
    page.goto("/play/pairs")
    return page


def test_js_fnv1a32_matches_on_awkward_text(page: Any) -> None:
    texts = ["", "a", "pairs:2026-11-29", "\u0000", "ÿ" * 40, "𝄞", "x" * 1000, "Ё-ё"]
    assert run_daily(page, "return arg.map((t) => m.fnv1a32(t));", texts) == [
        fnv1a32(text) for text in texts
    ]


@pytest.mark.parametrize("zone", ZONES)
def test_local_date_is_the_date_of_the_browsers_zone(
    browser: Any, server_url: str, zone: str
) -> None:
    instants = [
        dt.datetime(2026, 11, 29, hour, minute, tzinfo=dt.UTC)
        for hour in (0, 9, 10, 11, 12, 13, 14, 23)
        for minute in (0, 29, 31, 59)
    ] + [
        dt.datetime(2026, 3, 29, 0, 30, tzinfo=dt.UTC),  # Europe's spring change
        dt.datetime(2026, 10, 4, 15, 45, tzinfo=dt.UTC),  # Lord Howe's
        dt.datetime(2024, 2, 29, 23, 59, tzinfo=dt.UTC),
        dt.datetime(2027, 1, 1, 0, 0, tzinfo=dt.UTC),
    ]
    context = browser.new_context(base_url=server_url, timezone_id=zone)
    try:
        page = context.new_page()
        page.goto("/play/pairs")
        millis = [int(instant.timestamp() * 1000) for instant in instants]
        found = run_daily(
            page,
            "return arg.map((ms) => { const d = m.localDate(new Date(ms));"
            " return d; });",
            millis,
        )
        expected = [instant.astimezone(ZoneInfo(zone)).date().isoformat() for instant in instants]
        assert found == expected
    finally:
        context.close()
