"""games.too_fast: a finished daily game whose moves came faster than a person plays
(app/honour.py) is kept but left off its day's board of honour. Games finished before
this migration are left on it (false).

Revision ID: 0011_honour_pace
Revises: 0010_earned_ratings
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011_honour_pace"
down_revision: str | None = "0010_earned_ratings"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column("too_fast", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("too_fast")
