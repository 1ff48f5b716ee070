"""Games moved at the same moment are stored whole: every row read back from the
database (a new connection, nothing from this process's memory) holds the engine's own
state and outcome, on SQLite and PostgreSQL alike.

The group commit writes such moves in one statement (``app.commits``); on SQLite that
statement once cast its JSON values to SQLite's NUMERIC affinity, which turned every
state but the first into the integer 0 — invisible while the games sat in memory."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.clock import SystemClock
from app.config import Settings
from app.db import make_engine
from app.errors import AppError
from app.hub import LocalHub
from app.limits import MemoryLimiter
from app.presence import LocalPresence
from app.services import Services
from app.verify import replay_log
from engines.reference.tally import ENGINE as TALLY
from engines.registry import ENGINES
from tests.conftest import _clean, player_id_for
from tests.fixtures.games.lampsout import ENGINE as LAMPSOUT
from tests.profile import examples

OWNER = player_id_for("owner")


def services(db: AsyncEngine, settings: Settings) -> Services:
    engines = {**ENGINES, "tally": TALLY, "lampsout": LAMPSOUT}
    return Services.build(
        db, LocalHub(), LocalPresence(), MemoryLimiter(), SystemClock(), engines, settings
    )


async def stored_rows(settings: Settings, ids: list[str]) -> dict[str, dict[str, Any]]:
    """Each game's row as the database holds it, read on a connection of its own."""
    db = make_engine(settings)
    try:
        async with db.connect() as connection:
            rows = await connection.execute(
                text("SELECT id, version, state, status, outcome FROM games")
            )
            found = {row.id: row._asdict() for row in rows if row.id in ids}
            if db.dialect.name == "sqlite":
                kinds = await connection.execute(
                    text("SELECT id, typeof(state), typeof(outcome) FROM games")
                )
                for game_id, state_kind, outcome_kind in kinds:
                    if game_id in found:
                        found[game_id]["kinds"] = (state_kind, outcome_kind)
    finally:
        await db.dispose()
    return found


async def reloaded(settings: Settings, game_id: str) -> Any:
    """The game as a new process would serve it: its row and state loaded from storage."""
    db = make_engine(settings)
    try:
        fresh = services(db, settings)
        game = await fresh.store.game(game_id)
        engine = fresh.catalog.engine(game.engine)
        return game, engine.load_state(game.state)
    finally:
        await db.dispose()


@pytest.fixture
async def svc(settings: Settings) -> AsyncIterator[Services]:
    db = make_engine(settings)
    try:
        yield services(db, settings)
    finally:
        await db.dispose()


async def test_resigns_sent_together_are_each_stored_whole(
    svc: Services, settings: Settings
) -> None:
    """Eight human-vs-human Triangles games, one resign each, all at once."""
    ids = []
    for _ in range(8):
        _, snapshot = await svc.lifecycle.create(
            OWNER, "127.0.0.1", "triangles", {"opponent": "human"}, None, None, False
        )
        ids.append(snapshot.id)
    played = await asyncio.gather(
        *(svc.moves.play(game_id, OWNER, 0, {"type": "resign"}) for game_id in ids)
    )
    engine = svc.catalog.engine("triangles")
    expected = {p.game.id: p for p in played}
    rows = await stored_rows(settings, ids)
    assert sorted(rows) == sorted(ids)
    for game_id, row in rows.items():
        assert row["version"] == 1
        assert row["status"] == "over"
        state = row["state"] if isinstance(row["state"], dict) else json.loads(row["state"])
        assert state == engine.dump_state(expected[game_id].state)
        if "kinds" in row:
            assert row["kinds"] == ("text", "text")
        game, loaded = await reloaded(settings, game_id)
        assert game.outcome is not None and game.outcome["reason"] == "resigned"
        assert engine.view(loaded, 0)["over"] is True


async def test_fewest_presses_finished_together_keep_the_lower_record(
    svc: Services, settings: Settings
) -> None:
    """Four games of one fewer-is-better board (tests/fixtures/games/lampsout), each with
    two more presses than the one before, finished by one player at the same moment: read
    back on a connection of its own, every game row holds its true number of presses and
    the record row the fewest (never negated), counted four times."""
    _, first = await svc.lifecycle.create(
        OWNER, "127.0.0.1", "lampsout", {"size": 6}, None, None, False
    )
    lamps = first.view["lamps"]
    lit = [i for i, on in enumerate(lamps) if on]
    # A lamp pressed twice changes nothing, and the game cannot end on it while another
    # lamp stays lit: a lit one when two are lit, else a dark one.
    wasted = lit[0] if len(lit) >= 2 else lamps.index(False)
    ids, versions, presses = [], [], []
    for waste in range(4):
        if waste == 0:
            snapshot = first
        else:
            _, snapshot = await svc.lifecycle.create(
                OWNER, "127.0.0.1", "lampsout", None, first.number, None, False
            )
        version = snapshot.version
        plan = [wasted] * (2 * waste) + lit
        for lamp in plan[:-1]:
            version = (
                await svc.moves.play(snapshot.id, OWNER, version, {"type": "press", "lamp": lamp})
            ).game.version
        ids.append(snapshot.id)
        versions.append(version)
        presses.append(len(plan))
    await asyncio.gather(
        *(
            svc.moves.play(game_id, OWNER, version, {"type": "press", "lamp": lit[-1]})
            for game_id, version in zip(ids, versions, strict=True)
        )
    )
    db = make_engine(settings)
    try:
        async with db.connect() as connection:
            scores = dict(
                (row.id, row.score)
                for row in await connection.execute(
                    text("SELECT id, score FROM games WHERE engine = 'lampsout'")
                )
            )
            records = (
                await connection.execute(
                    text(
                        "SELECT key, score, game_id, played FROM records"
                        " WHERE engine = 'lampsout' AND player_id = :owner"
                    ),
                    {"owner": OWNER},
                )
            ).all()
    finally:
        await db.dispose()
    assert scores == dict(zip(ids, presses, strict=True))
    assert [tuple(row) for row in records] == [("size6", len(lit), ids[0], 4)]


@st.composite
def rounds(draw: st.DrawFn) -> list[list[tuple[int, int, bool]]]:
    """Rounds of moves played at once: (game index, amount to add, sent at a stale version)."""
    return draw(
        st.lists(
            st.lists(
                st.tuples(st.integers(0, 5), st.integers(1, 3), st.booleans()),
                min_size=1,
                max_size=10,
            ),
            min_size=1,
            max_size=4,
        )
    )


@hypothesis_settings(
    max_examples=examples(15),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(plan=rounds())
def test_group_commit_stores_what_the_engine_says(settings: Settings, plan: Any) -> None:
    """Random batches through the group commit: each stored row equals the state the
    engine reaches by folding that game's stored log, and each acknowledged move is in it."""
    _clean(settings.database_url)
    asyncio.run(_drive(settings, plan))


async def _drive(settings: Settings, plan: list[list[tuple[int, int, bool]]]) -> None:
    db = make_engine(settings)
    try:
        svc = services(db, settings)
        ids = []
        for _ in range(6):
            _, snapshot = await svc.lifecycle.create(
                OWNER, "127.0.0.1", "tally", {"opponent": "human", "limit": 50}, None, None, False
            )
            ids.append(snapshot.id)
        versions = dict.fromkeys(ids, 0)
        acked: dict[str, int] = dict.fromkeys(ids, 0)
        for moves in plan:
            sent = [
                (ids[index], versions[ids[index]] - (1 if stale and versions[ids[index]] else 0), n)
                for index, n, stale in moves
            ]
            results = await asyncio.gather(
                *(
                    svc.moves.play(game_id, OWNER, version, {"type": "add", "n": n})
                    for game_id, version, n in sent
                ),
                return_exceptions=True,
            )
            for (game_id, _, _), result in zip(sent, results, strict=True):
                if isinstance(result, AppError):
                    assert result.code in {"stale_version", "game_over"}, result.code
                    continue
                assert not isinstance(result, BaseException), result
                acked[game_id] += 1
                versions[game_id] = max(versions[game_id], result.game.version)
    finally:
        await db.dispose()
    rows = await stored_rows(settings, ids)
    for game_id in ids:
        row = rows[game_id]
        if "kinds" in row:
            assert row["kinds"][0] == "text"
        game, state = await reloaded(settings, game_id)
        db = make_engine(settings)
        try:
            log = await services(db, settings).reads.log(game_id, OWNER)
        finally:
            await db.dispose()
        assert log.version == game.version == acked[game_id]
        folded = replay_log(TALLY, TALLY.params_of(state), game.seed, log.moves)
        assert TALLY.dump_state(folded) == game.state
        assert (game.outcome is None) == (TALLY.outcome(folded) is None)
