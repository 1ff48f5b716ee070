"""Records and score order: the SQL that ranks games by an engine's ``ScoreOrder`` (boards
of honour, daily ranks) and a player's record table, kept in the transaction of the move
that finished a game."""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import Game, Record
from app.upsert import insert_ignore
from engines.core.protocol import RecordEntry, ScoreOrder


def best_score_first(order: ScoreOrder) -> ColumnElement[Any]:
    """Games by score, the better first by the engine's ``order`` (SQL)."""
    return Game.score.desc() if order is ScoreOrder.HIGHER else Game.score.asc()


def scores_better_than(order: ScoreOrder, score: int) -> ColumnElement[bool]:
    """Games whose score beats ``score`` by the engine's ``order`` (SQL)."""
    return Game.score > score if order is ScoreOrder.HIGHER else Game.score < score


def better(entry: RecordEntry, record: Record, order: ScoreOrder) -> bool:
    """Score first (the better by the engine's ``order``), then time (lower wins)."""
    mine = order.rank_key(entry.score, entry.time_ms)
    return mine < order.rank_key(record.score, record.time_ms)


async def update_record(
    session: AsyncSession,
    player_id: str,
    game: Game,
    entry: RecordEntry,
    now_ms: int,
    order: ScoreOrder,
) -> None:
    """Count a finished game on the player's record table and keep it if it is the best.
    Runs in the transaction of the move that finished it, so a record always points at a
    game the server played to its end."""
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
    if first or better(entry, record, order):
        record.score, record.time_ms, record.game_id = entry.score, entry.time_ms, game.id
        record.updated_ms = now_ms
