"""arenas and arena_players: arena tournaments (app/arenas.py); games.arena_id ties a
game to the arena that paired it (its standings are computed from those games).

Revision ID: 0012_arenas
Revises: 0011_honour_pace
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012_arenas"
down_revision: str | None = "0011_honour_pace"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "arenas",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("engine", sa.String(length=24), nullable=False),
        sa.Column("clock", sa.String(length=12), nullable=False),
        sa.Column("minutes", sa.Integer(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("key", sa.String(length=24), nullable=True),
        sa.Column("schedule", sa.String(length=16), nullable=True),
        sa.Column("schedule_key", sa.String(length=48), nullable=True),
        sa.Column("created_by", sa.String(length=32), nullable=True),
        sa.Column("starts_ms", sa.BigInteger(), nullable=False),
        sa.Column("ends_ms", sa.BigInteger(), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("started_told", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.ForeignKeyConstraint(["created_by"], ["players.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("schedule_key"),
    )
    op.create_index("ix_arenas_ends", "arenas", ["ends_ms"], unique=False)
    op.create_table(
        "arena_players",
        sa.Column("arena_id", sa.String(length=16), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("joined_ms", sa.BigInteger(), nullable=False),
        sa.Column("paused", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["arena_id"], ["arenas.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("arena_id", "player_id"),
    )
    op.create_index("ix_arena_players_player", "arena_players", ["player_id"], unique=False)
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("arena_id", sa.String(length=16), nullable=True))
        batch.create_index("ix_games_arena", ["arena_id", "started_ms"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_arena")
        batch.drop_column("arena_id")
    op.drop_index("ix_arena_players_player", table_name="arena_players")
    op.drop_table("arena_players")
    op.drop_index("ix_arenas_ends", table_name="arenas")
    op.drop_table("arenas")
