"""games.rated_ms: when a game changed its players' ratings (None: it did not). The same
two players change each other's ratings at most a few times a day; the index finds their
recent rated games from either seat order.

Revision ID: 0006_fair_play
Revises: 0005_seeks
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006_fair_play"
down_revision: str | None = "0005_seeks"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("rated_ms", sa.BigInteger(), nullable=True))
    op.create_index("ix_games_rated_pair", "games", ["owner_id", "guest_id", "rated_ms"])


def downgrade() -> None:
    op.drop_index("ix_games_rated_pair", table_name="games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rated_ms")
