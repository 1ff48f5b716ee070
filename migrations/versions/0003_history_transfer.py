"""games.guest_id and history indexes; transfers (device transfer codes)

A player's history is the games they own or joined: ``guest_id`` names the second human
of a two-player game (it was only inside the ``seats`` JSON), filled here for the games
already played; both lookups are indexed by start time, the history's order.

Revision ID: 0003_history_transfer
Revises: 0002_rematch
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003_history_transfer"
down_revision: str | None = "0002_rematch"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BACKFILL_SLICE = 1000
RESERVED = (None, "computer")


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("guest_id", sa.String(length=32), nullable=True))
        batch.create_index("ix_games_owner_started", ["owner_id", "started_ms"], unique=False)
        batch.create_index("ix_games_guest_started", ["guest_id", "started_ms"], unique=False)
    _backfill_guests()
    op.create_table(
        "transfers",
        sa.Column("code_hash", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("expires_ms", sa.BigInteger(), nullable=False),
        sa.Column("used_ms", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("code_hash"),
    )


def _backfill_guests() -> None:
    """Name the second human of every existing game (read in slices of the primary key:
    the same on SQLite and PostgreSQL, where JSON functions differ)."""
    games = sa.table(
        "games",
        sa.column("id", sa.String),
        sa.column("owner_id", sa.String),
        sa.column("guest_id", sa.String),
        sa.column("seats", sa.JSON),
    )
    connection = op.get_bind()
    last = ""
    while True:
        rows = connection.execute(
            sa.select(games.c.id, games.c.owner_id, games.c.seats)
            .where(games.c.id > last)
            .order_by(games.c.id)
            .limit(BACKFILL_SLICE)
        ).all()
        if not rows:
            return
        for game_id, owner_id, seats in rows:
            guest = next((s for s in seats or [] if s not in (*RESERVED, owner_id)), None)
            if guest is not None:
                connection.execute(
                    games.update().where(games.c.id == game_id).values(guest_id=guest)
                )
        last = rows[-1][0]


def downgrade() -> None:
    op.drop_table("transfers")
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_guest_started")
        batch.drop_index("ix_games_owner_started")
        batch.drop_column("guest_id")
