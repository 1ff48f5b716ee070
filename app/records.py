"""Players' records and the daily board of honour, from finished games only.

A record is written in the same transaction as the move that finished the game, so a
record always points at a game the server played to its end.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import Game, Player, Record
from app.upsert import insert_ignore
from engines.core.protocol import RecordEntry


def better(entry: RecordEntry, record: Record) -> bool:
    """Points first (higher wins), then time (lower wins)."""
    return (entry.score, -entry.time_ms) > (record.score, -record.time_ms)


async def update_record(
    session: AsyncSession, player_id: str, game: Game, entry: RecordEntry, now_ms: int
) -> None:
    await session.execute(
        insert_ignore(
            session,
            Record,
            {
                "player_id": player_id,
                "engine": game.engine,
                "key": entry.key,
                "score": entry.score,
                "time_ms": entry.time_ms,
                "game_id": game.id,
                "played": 0,
                "updated_ms": now_ms,
            },
        )
    )
    record = await session.scalar(
        select(Record)
        .where(Record.player_id == player_id, Record.engine == game.engine, Record.key == entry.key)
        .with_for_update()
    )
    assert record is not None
    first = record.played == 0
    if not entry.again:
        record.played += 1
    if first or better(entry, record):
        record.score, record.time_ms, record.game_id = entry.score, entry.time_ms, game.id
        record.updated_ms = now_ms


async def list_records(
    session: AsyncSession, player_id: str, engine: str | None
) -> list[dict[str, Any]]:
    query = select(Record).where(Record.player_id == player_id).order_by(Record.engine, Record.key)
    if engine is not None:
        query = query.where(Record.engine == engine)
    return [
        {
            "game": r.engine,
            "key": r.key,
            "score": r.score,
            "time_ms": r.time_ms,
            "game_id": r.game_id,
            "played": r.played,
        }
        for r in (await session.execute(query)).scalars()
    ]


async def board_of_honour(
    session: AsyncSession, engine: str, date: str, limit: int = 20
) -> list[dict[str, Any]]:
    rows = await session.execute(
        select(Game.id, Game.score, Game.outcome, Player.name)
        .join(Player, Player.id == Game.owner_id)
        .where(Game.engine == engine, Game.daily == date, Game.status == "over")
        .order_by(Game.score.desc(), Game.updated_ms)
        .limit(limit)
    )
    return [
        {
            "rank": rank,
            "name": name,
            "score": score,
            "time_ms": (outcome or {}).get("time_ms", 0),
            "game_id": game_id,
        }
        for rank, (game_id, score, outcome, name) in enumerate(rows.all(), start=1)
    ]


async def computer_stats(session: AsyncSession, player_id: str, engine: str) -> dict[str, Any]:
    """Wins, losses and draws against the computer, per level (the ``opponent`` param)."""
    rows = await session.execute(
        select(Game.params, Game.seats, Game.outcome).where(
            Game.owner_id == player_id, Game.engine == engine, Game.status == "over"
        )
    )
    stats: dict[str, dict[str, int]] = {}
    for params, seats, outcome in rows.all():
        if "computer" not in seats or player_id not in seats or not outcome:
            continue
        level = str(params.get("opponent", "computer"))
        tally = stats.setdefault(level, {"wins": 0, "losses": 0, "draws": 0})
        winner = outcome.get("winner")
        if winner is None:
            tally["draws"] += 1
        elif seats[winner] == player_id:
            tally["wins"] += 1
        else:
            tally["losses"] += 1
    return stats
