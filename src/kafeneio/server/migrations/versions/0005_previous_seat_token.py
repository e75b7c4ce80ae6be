"""The digest of the token of each rematch seat's person in the game before: their old seat
link opens their seat of the rematch too (that seat only), so that a player who was away when
the rematch was made finds their seat from their old link. Seats made before have none (null).

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("previous_digest", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("previous_digest")
