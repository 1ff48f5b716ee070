"""The move path's SQL, built once (SQLAlchemy then reuses each compiled form instead of
building, hashing and coercing a new statement for every move). Only ``app.store`` runs
them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Integer, String, Table, bindparam, cast, column, insert, text, update, values

from app.db import json_text
from app.models import Game, Move

GAMES: Table = Game.__table__  # type: ignore[assignment]
MOVES: Table = Move.__table__  # type: ignore[assignment]
ADVANCE_GAME = update(GAMES).where(
    GAMES.c.id == bindparam("game_id"), GAMES.c.version == bindparam("seen")
)
APPEND_MOVES = insert(MOVES)
BATCH_COLUMNS = ("version", "state", "status", "outcome", "score", "updated_ms", "deadline_ms")
JSON_COLUMNS = ("state", "outcome")


# PostgreSQL: a batch of any size, one game or a hundred, in ONE statement (arrays, not a
# VALUES list, so it is compiled and prepared once; JSON goes as text and is cast): each
# game's guarded UPDATE and the log entries of the games it wrote. A statement is atomic
# on its own, so it runs outside a transaction block: one round trip, where BEGIN, UPDATE,
# INSERT and COMMIT took four (what a move at human pace, alone in its batch, paid).
# The arrays come through a MATERIALIZED CTE, out of the planner's sight: seeing them,
# it planned each execution anew for its arrays' lengths (a custom plan, 0.19 ms of
# PostgreSQL's CPU a move); not seeing them, every plan is the same and the prepared
# statement keeps one (the games still found by their primary key).
ADVANCE_MANY_PG = text(
    """
    WITH batch AS MATERIALIZED (
        SELECT CAST(:id AS VARCHAR[]) AS id, CAST(:seen AS INTEGER[]) AS seen,
            CAST(:version AS INTEGER[]) AS version, CAST(:state AS TEXT[]) AS state,
            CAST(:status AS VARCHAR[]) AS status, CAST(:outcome AS TEXT[]) AS outcome,
            CAST(:score AS BIGINT[]) AS score, CAST(:updated_ms AS BIGINT[]) AS updated_ms,
            CAST(:deadline_ms AS BIGINT[]) AS deadline_ms,
            CAST(:entry_game AS VARCHAR[]) AS entry_game,
            CAST(:entry_ply AS INTEGER[]) AS entry_ply,
            CAST(:entry_seat AS INTEGER[]) AS entry_seat,
            CAST(:entry_move AS TEXT[]) AS entry_move,
            CAST(:entry_at_ms AS BIGINT[]) AS entry_at_ms
    ), written AS (
        UPDATE games SET version = b.version, state = b.state::json, status = b.status,
            outcome = b.outcome::json, score = b.score, updated_ms = b.updated_ms,
            deadline_ms = b.deadline_ms
        FROM batch, unnest(
            batch.id, batch.seen, batch.version, batch.state, batch.status, batch.outcome,
            batch.score, batch.updated_ms, batch.deadline_ms
        ) AS b(id, seen, version, state, status, outcome, score, updated_ms, deadline_ms)
        WHERE games.id = b.id AND games.version = b.seen
        RETURNING games.id
    ), appended AS (
        INSERT INTO moves (game_id, ply, seat, move, at_ms)
        SELECT e.game_id, e.ply, e.seat, e.move::json, e.at_ms
        FROM batch, unnest(
            batch.entry_game, batch.entry_ply, batch.entry_seat, batch.entry_move,
            batch.entry_at_ms
        ) AS e(game_id, ply, seat, move, at_ms)
        WHERE e.game_id IN (SELECT id FROM written)
    )
    SELECT id FROM written
    """
)


def rows_of(batch: Sequence[Advance]) -> list[tuple[Any, ...]]:
    """A batch as rows of ``("id", "seen", *BATCH_COLUMNS)``."""
    return [(a.game.id, a.game.version, *(a.values[k] for k in BATCH_COLUMNS)) for a in batch]


def columns_of(batch: Sequence[Advance]) -> dict[str, list[Any]]:
    """A batch as one array per column (JSON as text), its games' and its log entries'
    (``entry_…``), for ``ADVANCE_MANY_PG``."""
    names = ("id", "seen", *BATCH_COLUMNS)
    transposed = zip(*rows_of(batch), strict=True)
    columns = {name: list(values) for name, values in zip(names, transposed, strict=True)}
    for name in JSON_COLUMNS:
        columns[name] = [None if v is None else json_text(v) for v in columns[name]]
    entries = [entry for advance in batch for entry in advance.entries]
    columns["entry_game"] = [e["game_id"] for e in entries]
    columns["entry_ply"] = [e["ply"] for e in entries]
    columns["entry_seat"] = [e["seat"] for e in entries]
    columns["entry_move"] = [None if e["move"] is None else json_text(e["move"]) for e in entries]
    columns["entry_at_ms"] = [e["at_ms"] for e in entries]
    return columns


def advance_many_statement(batch: Sequence[Advance]) -> Any:
    """The same for SQLite: ``WITH batch(…) AS (VALUES …) UPDATE … FROM batch``.

    JSON columns are assigned as the text they were bound as, never cast: SQLite gives
    ``CAST(… AS JSON)`` NUMERIC affinity, which turns a JSON object's text into 0."""
    listed = values(
        column("id", String),
        column("seen", Integer),
        *(column(key, GAMES.c[key].type) for key in BATCH_COLUMNS),
        name="batch",
    ).data(rows_of(batch))
    rows = listed.cte("batch")
    return (
        update(GAMES)
        .where(GAMES.c.id == rows.c.id, GAMES.c.version == rows.c.seen)
        .values(
            {
                key: rows.c[key] if key in JSON_COLUMNS else cast(rows.c[key], GAMES.c[key].type)
                for key in BATCH_COLUMNS
            }
        )
        .returning(GAMES.c.id)
    )


@dataclass(frozen=True)
class Advance:
    """One game's move waiting to be written: its row as the move saw it, the new
    column values and the log entries."""

    game: Game
    values: dict[str, Any]
    entries: list[dict[str, Any]]
