"""Presence's own bookkeeping: which seats this process's sockets hold."""

from __future__ import annotations

import asyncio

from app.presence import LocalPresence


def test_a_seat_is_held_here_while_any_of_its_sockets_is_open() -> None:
    presence = LocalPresence()

    async def run() -> tuple[tuple[bool, bool], tuple[bool, bool, dict[tuple[str, int], int]]]:
        await presence.join([("g", 0, "c1"), ("g", 0, "c2"), ("g", 1, "c3")], 1000)
        await presence.join([("g", 0, "c1")], 1000)  # the same socket again: one lease
        await presence.leave([("g", 0, "c1")], 2000)
        one_left = (presence.held_here("g", 0), presence.held_here("g", 1))
        await presence.leave([("g", 0, "c2"), ("g", 0, "c2")], 2000)
        await presence.leave([("g", 1, "c9")], 2000)  # a socket that never joined
        none_left = (presence.held_here("g", 0), presence.held_here("g", 1), dict(presence.held))
        return one_left, none_left

    assert asyncio.run(run()) == ((True, True), (False, True, {("g", 1): 1}))
