"""Ratings a script cannot buy (app/fair_play.py): where rated players were seen
(``rated_addresses``, keyed hashes of client addresses), whom each rating was earned
against (``rating_opponents``, counted in ``ratings.opponents``), and whether a counted
rated game was played by two players sharing an address (``games.shared_address``).

Revision ID: 0010_earned_ratings
Revises: 0009_push_subscriptions
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010_earned_ratings"
down_revision: str | None = "0009_push_subscriptions"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "rated_addresses",
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("address", sa.String(length=32), nullable=False),
        sa.Column("seen_ms", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("player_id", "address"),
    )
    op.create_index("ix_rated_addresses_address", "rated_addresses", ["address", "seen_ms"])
    op.create_table(
        "rating_opponents",
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("engine", sa.String(length=24), nullable=False),
        sa.Column("pool", sa.String(length=24), nullable=False),
        sa.Column("opponent_id", sa.String(length=32), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("player_id", "engine", "pool", "opponent_id"),
    )
    with op.batch_alter_table("ratings") as batch:
        batch.add_column(
            sa.Column("opponents", sa.Integer(), nullable=False, server_default="0")
        )
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("shared_address", sa.Boolean(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("shared_address")
    with op.batch_alter_table("ratings") as batch:
        batch.drop_column("opponents")
    op.drop_table("rating_opponents")
    op.drop_index("ix_rated_addresses_address", table_name="rated_addresses")
    op.drop_table("rated_addresses")
