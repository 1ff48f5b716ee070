"""Presence messages are coalesced: at most one per game per interval from a process,
never two at once for one game, and always with the game's seat count."""

from __future__ import annotations

import asyncio

from app.presence import Throttle


async def settle(throttle: Throttle) -> None:
    while throttle.pending:
        await asyncio.gather(*list(throttle.pending.values()))


async def test_a_burst_of_changes_costs_two_announcements() -> None:
    said: list[tuple[str, int]] = []

    async def announce(game_id: str, seat_count: int) -> None:
        said.append((game_id, seat_count))

    throttle = Throttle(announce, interval_s=0.2)
    await throttle.changed("g", 2)
    await throttle.changed("other", 2)
    await asyncio.sleep(0.05)
    assert said == [("g", 2), ("other", 2)]  # the first at once; games are independent
    for _ in range(600):  # six hundred more sockets arriving within the interval
        await throttle.changed("g", 2)
    await asyncio.wait_for(settle(throttle), 2)
    assert said == [("g", 2), ("other", 2), ("g", 2)]  # folded into one
    assert throttle.pending == {} and throttle.seat_counts == {}


async def test_a_change_during_a_slow_announcement_is_announced_after_it() -> None:
    calls: list[tuple[str, int]] = []
    running = 0

    async def slow(game_id: str, seat_count: int) -> None:
        nonlocal running
        running += 1
        assert running == 1  # never two at once for one game
        calls.append((game_id, seat_count))
        await asyncio.sleep(0.1)  # a presence read over a slow Redis
        running -= 1

    throttle = Throttle(slow, interval_s=0.05)
    await throttle.changed("g", 2)
    await asyncio.sleep(0.05)
    await throttle.changed("g", 2)  # while the first is still reading
    await asyncio.wait_for(settle(throttle), 2)
    assert calls == [("g", 2), ("g", 2)]  # the seat count survives; no empty presence
