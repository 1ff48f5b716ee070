"""A player's second tab posts a seek while another transaction is pairing their first
tab's seek (README "Quick pairing": one real-time game at a time from the pool).

The pairing transaction (another player's POST, or a poll's re-read of the pool) is held
just before its commit; the second tab's POST starts and, on PostgreSQL, is let go once
it waits on a lock. Whatever it does then, the player must end in that one game: the
second tab is sent to it, and the third player's seek stays open. (It paired the second
tab with the third player before: the "already playing" check read before the pairing
committed.) On SQLite the writers take turns, so the second tab runs after the commit.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest
from sqlalchemy import or_, select, text

from app.models import Game, Player, Seek
from app.upsert import insert_ignore

CLOCK = "3+2"


class HeldPairing:
    """Wraps ``store.transaction``: the first transaction of ``pairer``'s task that made a
    game waits before its commit until ``release`` is set (``held`` is set then)."""

    def __init__(self, store: Any, monkeypatch: pytest.MonkeyPatch) -> None:
        self.held = asyncio.Event()
        self.release = asyncio.Event()
        self.pairer: asyncio.Task[Any] | None = None
        original = store.transaction

        @asynccontextmanager
        async def transaction() -> AsyncIterator[Any]:
            async with original() as session:
                yield session
                made_game = any(isinstance(row, Game) for row in session.identity_map.values())
                if made_game and asyncio.current_task() is self.pairer and not self.held.is_set():
                    self.held.set()
                    await self.release.wait()

        monkeypatch.setattr(store, "transaction", transaction)


async def add_open_seek(store: Any, player_id: str, now_ms: int) -> Seek:
    """A seek in the pool as if posted at the same moment as the others (it found the
    pool empty too)."""
    seek = Seek(
        id=f"open-{player_id[:8]}",
        player_id=player_id,
        engine="triangles",
        clock=CLOCK,
        rated=False,
        created_ms=now_ms,
        expires_ms=now_ms + 60_000,
    )
    async with store.transaction() as session:
        await session.execute(insert_ignore(session, Player, {"id": player_id, "created_ms": 0}))
        session.add(seek)
    return seek


async def blocked_on_a_lock(store: Any) -> bool:
    """Whether a transaction of this database waits on a lock (PostgreSQL). SQLite's
    writers take turns in the process: the second tab cannot run before the commit."""
    async with store.sessions() as session:
        if session.bind.dialect.name != "postgresql":
            return True
        waiting = await session.scalar(
            text(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE datname = current_database() AND wait_event_type = 'Lock'"
            )
        )
    return bool(waiting)


async def until(condition: Callable[[], Awaitable[bool]]) -> None:
    async with asyncio.timeout(10):
        while not await condition():
            await asyncio.sleep(0.005)


async def nobody() -> bool:
    return False


@pytest.mark.parametrize("pairer", ["post", "pool"])
def test_a_second_tab_joins_the_game_its_first_tab_is_being_paired_into(
    make_client: Any, players: Any, clock: Any, monkeypatch: pytest.MonkeyPatch, pairer: str
) -> None:
    client = make_client()
    p, q, r = players(client, "p", "q", "r")
    services = client.app.state.services
    store, seeks = services.store, services.seeks
    first_tab = p.post("/api/seeks", json={"game": "triangles", "clock": CLOCK}).json()
    assert first_tab["status"] == "waiting"
    held = HeldPairing(store, monkeypatch)

    async def race() -> tuple[Any, Any]:
        if pairer == "post":  # q posts and takes p's waiting seek (the oldest)
            clock.advance(1)
            await add_open_seek(store, r.id, clock.now_ms())
            pairing = seeks.post(q.id, "testclient", "triangles", CLOCK, False)
        else:  # q's poll finds p's older seek waiting too and matches the pool
            clock.advance(1)
            q_seek = await add_open_seek(store, q.id, clock.now_ms())
            clock.advance(1)
            await add_open_seek(store, r.id, clock.now_ms())
            pairing = seeks.poll(q_seek.id, q.id, 0, nobody)
        held.pairer = asyncio.create_task(pairing)
        await until(lambda: _set(held.held, held.pairer))
        second_tab = asyncio.create_task(seeks.post(p.id, "testclient", "triangles", CLOCK, False))
        await until(lambda: _done_or_blocked(second_tab, store))
        held.release.set()
        return await held.pairer, await second_tab

    paired, second = client.portal.call(race)
    assert paired.status == "paired" and paired.game_id
    assert (second.status, second.game_id, second.seek_id) == ("paired", paired.game_id, None)

    async def stored() -> tuple[list[tuple[str, str | None]], list[str], str | None]:
        async with store.sessions() as session:
            games = (
                await session.execute(
                    select(Game.owner_id, Game.guest_id).where(
                        or_(Game.owner_id == p.id, Game.guest_id == p.id)
                    )
                )
            ).all()
            still_open = await session.scalars(select(Seek.player_id).where(Seek.game_id.is_(None)))
            first = await session.scalar(
                select(Seek.game_id).where(Seek.id == first_tab["seek_id"])
            )
            return [tuple(g) for g in games], list(still_open), first

    games, still_open, first_tab_game = client.portal.call(stored)
    assert [sorted(g) for g in games] == [sorted([p.id, q.id])]  # p: one game, with q
    assert first_tab_game == paired.game_id
    assert still_open == [r.id]  # r's seek was not taken by p's second tab


async def _set(event: asyncio.Event, task: asyncio.Task[Any] | None) -> bool:
    if task is not None and task.done():
        task.result()  # the pairer failed before it paired: show why
        raise AssertionError("the pairer finished without making a game")
    return event.is_set()


async def _done_or_blocked(task: asyncio.Task[Any], store: Any) -> bool:
    return task.done() or await blocked_on_a_lock(store)
