"""When each action was written, so that the lobby tells games being played from games nobody
has moved in for a long time. Actions written before have none (null).

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"


def upgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.add_column(sa.Column("created", sa.DateTime, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("created")
