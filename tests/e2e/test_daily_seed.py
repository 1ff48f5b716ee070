"""The daily seed, computed twice: static/js/core/daily.js in Chromium and
engines/core/daily.py must agree for many games × dates, and the browser's local date must
be the calendar date of its own time zone (that is the date the daily board is for)."""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from engines.core.daily import daily_seed, fnv1a32

pytestmark = pytest.mark.e2e

GAMES = ["pairs", "blocks", "triangles", "blocks/shapes48", "", "été", "漢字-ゲーム", "🧩"]
START = dt.date(2024, 1, 1)
DATES = [(START + dt.timedelta(days=n)).isoformat() for n in range(0, 3 * 366, 3)] + [
    "2024-02-29",
    "2026-11-29",
    "2028-02-29",
    "1999-12-31",
    "2000-01-01",
    "2099-12-31",
]
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


def test_js_and_python_give_the_same_daily_seed(page: Any) -> None:
    cases = [[game, date] for game in GAMES for date in DATES]
    assert len(cases) > 2500
    seeds = run_daily(page, "return arg.map(([g, d]) => m.dailySeed(g, d));", cases)
    assert seeds == [daily_seed(game, date) for game, date in cases]
    # daily_seed parses the date; the JS side takes the text as it is: compare the raw hash too.
    hashes = run_daily(page, "return arg.map(([g, d]) => m.fnv1a32(`${g}:${d}`));", cases)
    assert hashes == [fnv1a32(f"{game}:{date}") for game, date in cases]
    assert all(0 <= seed < 100_000_000 for seed in seeds)


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
            " return [d, m.dailySeed('pairs', d)]; });",
            millis,
        )
        expected = [instant.astimezone(ZoneInfo(zone)).date().isoformat() for instant in instants]
        assert [date for date, _ in found] == expected
        assert [seed for _, seed in found] == [daily_seed("pairs", date) for date in expected]
    finally:
        context.close()
