"""push_subscriptions: a player's Web Push subscriptions (one row per browser endpoint,
at most ten per player), read when a notice is sent.

Revision ID: 0009_push_subscriptions
Revises: 0008_reviews
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009_push_subscriptions"
down_revision: str | None = "0008_reviews"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "push_subscriptions",
        sa.Column("endpoint_hash", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("endpoint", sa.String(length=1024), nullable=False),
        sa.Column("p256dh", sa.String(length=128), nullable=False),
        sa.Column("auth", sa.String(length=64), nullable=False),
        sa.Column("kinds", sa.JSON(none_as_null=True), nullable=False),
        sa.Column("lang", sa.String(length=8), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("endpoint_hash"),
    )
    op.create_index(
        "ix_push_subscriptions_player", "push_subscriptions", ["player_id"], unique=False
    )


def downgrade() -> None:
    op.drop_index("ix_push_subscriptions_player", table_name="push_subscriptions")
    op.drop_table("push_subscriptions")
