"""A game's record data (Souvlaki Wars: its card set) and engine version, so that the server
rebuilds each game from exactly the record it started, on any machine.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("engine", sa.Integer, nullable=False, server_default="1"))
        batch.add_column(sa.Column("record_data", sa.JSON, nullable=False, server_default="{}"))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("record_data")
        batch.drop_column("engine")
