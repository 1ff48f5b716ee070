"""seeks: quick pairing for online Triangles (a seek pool). An open seek has no game_id;
the pairing query reads the open seeks of one time control, oldest first.

Revision ID: 0005_seeks
Revises: 0004_clocks
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005_seeks"
down_revision: str | None = "0004_clocks"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "seeks",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("engine", sa.String(length=24), nullable=False),
        sa.Column("clock", sa.String(length=12), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("expires_ms", sa.BigInteger(), nullable=False),
        sa.Column("game_id", sa.String(length=16), nullable=True),
        sa.Column("paired_ms", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    # The pool: open seeks of one engine, time control and kind, oldest first.
    op.create_index(
        "ix_seeks_open",
        "seeks",
        ["engine", "clock", "rated", "created_ms"],
        unique=False,
        postgresql_where=sa.text("game_id IS NULL"),
        sqlite_where=sa.text("game_id IS NULL"),
    )
    op.create_index("ix_seeks_player", "seeks", ["player_id"], unique=False)
    op.create_index("ix_seeks_expires", "seeks", ["expires_ms"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_seeks_expires", table_name="seeks")
    op.drop_index("ix_seeks_player", table_name="seeks")
    op.drop_index("ix_seeks_open", table_name="seeks")
    op.drop_table("seeks")
