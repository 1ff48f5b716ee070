"""Migration 0003 names the second human of the games played before it (``guest_id``),
so a joined game is in its guest's history at once; and it goes back down cleanly."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from alembic import command
from alembic.config import Config

ROOT = Path(__file__).resolve().parents[2]


def test_guests_of_existing_games_are_filled_in(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    config = Config(str(ROOT / "alembic.ini"))
    config.attributes["database_url"] = f"sqlite+aiosqlite:///{path}"
    command.upgrade(config, "0002_rematch")
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO players VALUES ('alice', NULL, 0)")
        for game_id, seats in (
            ("joined", '["alice", "bob"]'),
            ("computer", '["alice", "computer"]'),
            ("rematch", '["bob", "alice"]'),
            ("waiting", '["alice", null]'),
            ("solo", '["alice"]'),
        ):
            db.execute(
                "INSERT INTO games (id, engine, params, seed, number, owner_id, seats, version,"
                " state, status, public, started_ms, updated_ms)"
                " VALUES (?, 'tally', '{}', 1, '00000001-t', 'alice', ?, 0, '{}', 'over', 0, 0, 0)",
                (game_id, seats),
            )
    command.upgrade(config, "head")
    with sqlite3.connect(path) as db:
        guests = dict(db.execute("SELECT id, guest_id FROM games").fetchall())
        indexes = {row[1] for row in db.execute("PRAGMA index_list('games')")}
    assert guests == {
        "joined": "bob",
        "computer": None,
        "rematch": "bob",
        "waiting": None,
        "solo": None,
    }
    assert {"ix_games_owner_started", "ix_games_guest_started"} <= indexes
    command.downgrade(config, "0002_rematch")
    with sqlite3.connect(path) as db:
        columns = {row[1] for row in db.execute("PRAGMA table_info('games')")}
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    assert "guest_id" not in columns and "transfers" not in tables
