"""One player, two tabs, "Play online now" pressed in both at the same moment while two
others wait in the pool: the player ends up in one game, and both tabs are sent to it
(PostgreSQL runs the two posts on two connections at once; SQLite's writers take turns)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from sqlalchemy import delete, or_, select

from app.clock import SystemClock
from app.config import Settings
from app.db import make_engine
from app.hub import LocalHub
from app.limits import MemoryLimiter
from app.models import Game, GameStatus, Player, Seek
from app.presence import LocalPresence
from app.services import Services
from engines.registry import ENGINES
from tests.conftest import player_id_for

ROUNDS = 40


@pytest.fixture
async def svc(settings: Settings) -> AsyncIterator[Services]:
    db = make_engine(settings)
    generous = settings.model_copy(update={"limit_seeks_per_player_min": 1000})
    try:
        yield Services.build(
            db, LocalHub(), LocalPresence(), MemoryLimiter(), SystemClock(), ENGINES, generous
        )
    finally:
        await db.dispose()


async def active_games(settings: Settings, player_id: str) -> list[str]:
    """The player's active games, read on a connection of its own."""
    db = make_engine(settings)
    try:
        async with db.connect() as connection:
            rows = await connection.execute(
                select(Game.id).where(
                    or_(Game.owner_id == player_id, Game.guest_id == player_id),
                    Game.status == GameStatus.ACTIVE,
                )
            )
            return [row.id for row in rows]
    finally:
        await db.dispose()


async def test_two_tabs_seeking_at_once_make_one_game(
    svc: Services, settings: Settings
) -> None:
    seeker = player_id_for("seeker")
    doubled = 0
    for round_ in range(ROUNDS):
        # Two others wait (they posted at the same moment, so each found the pool empty).
        await waiting_seeks(svc, f"y{round_}", f"z{round_}")
        tabs = await asyncio.gather(
            svc.seeks.post(seeker, "10.1.0.1", "triangles", "3+2", False),
            svc.seeks.post(seeker, "10.1.0.1", "triangles", "3+2", False),
        )
        games = await active_games(settings, seeker)
        doubled += len(games) > 1
        assert len(games) == 1, (round_, games)
        assert [(tab.status, tab.game_id) for tab in tabs] == [("paired", games[0])] * 2
        for game_id in games:  # the game ends, and the seeker may seek again
            await svc.moves.play(game_id, seeker, 0, {"type": "resign"})
        await clear_pool(svc)
    assert doubled == 0


async def waiting_seeks(svc: Services, *names: str) -> None:
    now = svc.seeks.clock.now_ms()
    async with svc.store.transaction() as session:
        for name in names:
            player_id = player_id_for(name)
            session.add(Player(id=player_id, created_ms=now))
            await session.flush()
            session.add(
                Seek(
                    id=name, player_id=player_id, engine="triangles", clock="3+2", rated=False,
                    created_ms=now, expires_ms=now + 60_000, game_id=None, paired_ms=None,
                )
            )  # fmt: skip


async def clear_pool(svc: Services) -> None:
    async with svc.store.transaction() as session:
        await session.execute(delete(Seek))


async def test_a_player_in_a_correspondence_game_may_still_seek_a_blitz_one(
    svc: Services, settings: Settings
) -> None:
    seeker = player_id_for("seeker")
    await svc.seeks.post(player_id_for("pen-pal"), "10.0.0.1", "triangles", "1d", False)
    assert (await svc.seeks.post(seeker, "10.1.0.1", "triangles", "1d", False)).status == "paired"
    await svc.seeks.post(player_id_for("blitzer"), "10.0.0.2", "triangles", "3+2", False)
    blitz = await svc.seeks.post(seeker, "10.1.0.1", "triangles", "3+2", False)
    assert blitz.status == "paired"
    assert len(await active_games(settings, seeker)) == 2
