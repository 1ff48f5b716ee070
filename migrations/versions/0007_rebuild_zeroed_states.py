"""Rebuild the SQLite rows the group commit zeroed: before the fix, a batch of moves of
several games cast its JSON values to SQLite's NUMERIC affinity, and every state (and
outcome) of the batch but the first was stored as the integer 0. The log of each such
game is intact, so its state is folded again from it by the game's engine, exactly as a
replay does (the clock's tick, then the move, entry by entry), and its outcome with it.
PostgreSQL never had the fault: nothing to do there.

Revision ID: 0007_rebuild_zeroed_states
Revises: 0006_fair_play
"""

import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007_rebuild_zeroed_states"
down_revision: str | None = "0006_fair_play"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "sqlite":
        return
    from engines.registry import ENGINES  # the rules as they are now: the log's judge

    zeroed = bind.execute(
        sa.text(
            "SELECT id, engine, params, seed FROM games WHERE typeof(state) != 'text'"
            " OR (outcome IS NOT NULL AND typeof(outcome) != 'text')"
        )
    ).all()
    for game_id, name, params, seed in zeroed:
        engine = ENGINES.get(name)
        if engine is None:
            continue
        state = engine.new_game(engine.parse_params(json.loads(params)), seed)
        log = bind.execute(
            sa.text("SELECT seat, move, at_ms FROM moves WHERE game_id = :id ORDER BY ply"),
            {"id": game_id},
        )
        for seat, move, at_ms in log:
            state, _ = engine.tick(state, at_ms)
            if move is not None:
                state, _ = engine.apply(state, engine.parse_move(json.loads(move)), at_ms, seat or 0)
        outcome = engine.outcome(state)
        bind.execute(
            sa.text("UPDATE games SET state = :state, outcome = :outcome WHERE id = :id"),
            {
                "id": game_id,
                "state": json.dumps(engine.dump_state(state)),
                "outcome": None if outcome is None else json.dumps(outcome.to_json()),
            },
        )


def downgrade() -> None:
    """Nothing to undo: the rebuilt rows are what the log always said."""
