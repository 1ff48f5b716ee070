"""Migration 0007 rebuilds the games an earlier group commit zeroed on SQLite (state and
outcome stored as the integer 0) from their intact logs."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

from alembic import command
from alembic.config import Config

from app.clock import SystemClock
from app.config import Settings
from app.db import make_engine
from app.hub import LocalHub
from app.limits import MemoryLimiter
from app.presence import LocalPresence
from app.services import Services
from engines.registry import ENGINES
from tests.api.test_triangles_api import legal
from tests.conftest import ROOT, player_id_for

OWNER = player_id_for("owner")


async def play_games(settings: Settings) -> dict[str, dict[str, object]]:
    """Three human-vs-human Triangles games: two lines each, one resigned."""
    db = make_engine(settings)
    try:
        svc = Services.build(
            db, LocalHub(), LocalPresence(), MemoryLimiter(), SystemClock(), ENGINES, settings
        )
        engine = svc.catalog.engine("triangles")
        rows = {}
        for index in range(3):
            played, snapshot = await svc.lifecycle.create(
                OWNER, "127.0.0.1", "triangles", {"opponent": "human"}, None, None, False
            )
            view, version = dict(snapshot.view), snapshot.version
            for _ in range(2):
                a, b = legal(view)[0]
                line = {"type": "line", "a": a, "b": b}
                played = await svc.moves.play(snapshot.id, OWNER, version, line)
                view, version = engine.view(played.state, 0), played.game.version
            if index == 0:
                played = await svc.moves.play(snapshot.id, OWNER, version, {"type": "resign"})
            rows[snapshot.id] = {
                "state": engine.dump_state(played.state),
                "outcome": played.game.outcome,
            }
        return rows
    finally:
        await db.dispose()


def test_zeroed_rows_are_folded_again_from_their_logs(tmp_path: Path) -> None:
    path = tmp_path / "zeroed.sqlite3"
    config = Config(str(ROOT / "alembic.ini"))
    config.attributes["database_url"] = f"sqlite+aiosqlite:///{path}"
    # Games are played by today's code on today's schema, zeroed as the old group commit
    # left them, and the schema taken back to before 0007 (its later columns dropped,
    # the rows kept): upgrading again runs the rebuild on them.
    command.upgrade(config, "head")
    settings = Settings(database_url=f"sqlite+aiosqlite:///{path}", secret="test-secret")
    expected = asyncio.run(play_games(settings))
    with sqlite3.connect(path) as db:
        db.execute("UPDATE games SET state = 0")
        db.execute("UPDATE games SET outcome = 0 WHERE outcome IS NOT NULL")
    command.downgrade(config, "0006_fair_play")
    command.upgrade(config, "head")

    with sqlite3.connect(path) as db:
        stored = {
            game_id: {"state": json.loads(state), "outcome": outcome and json.loads(outcome)}
            for game_id, state, outcome in db.execute("SELECT id, state, outcome FROM games")
        }
    assert stored == expected
    resigned = [row["outcome"] for row in stored.values() if row["outcome"]]
    assert [o["reason"] for o in resigned] == ["resigned"]  # type: ignore[index]
