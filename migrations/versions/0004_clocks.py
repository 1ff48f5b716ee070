"""games.deadline_ms: when the clock of the seat to move runs out (time controls);
ratings: Glicko-2 ratings per player, engine and pool (a time-control category)

Revision ID: 0004_clocks
Revises: 0003_history_transfer
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004_clocks"
down_revision: str | None = "0003_history_transfer"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("deadline_ms", sa.BigInteger(), nullable=True))
        batch.create_index("ix_games_deadline", ["deadline_ms"], unique=False)
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("engine", sa.String(length=24), nullable=False),
        sa.Column("pool", sa.String(length=24), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rd", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_ms", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("player_id", "engine", "pool"),
    )
    op.create_index("ix_ratings_board", "ratings", ["engine", "pool", "rating"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_ratings_board", table_name="ratings")
    op.drop_table("ratings")
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_deadline")
        batch.drop_column("deadline_ms")
