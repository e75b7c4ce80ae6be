"""Each rematch seat keeps the digests of the tokens of its person's seats in the games of the
chain of rematches before it (at most 16, newest first), not only in the game just before: a
person keeps one working link through rematches made while they were away. A seat's digest of
before becomes a list of one; a seat without one gets an empty list.

Revision ID: 0006
Revises: 0005
"""

import json

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"

SEATS = sa.table(
    "seats",
    sa.column("game_id", sa.String),
    sa.column("seat", sa.Integer),
    sa.column("previous_digest", sa.String),
    sa.column("previous_digests", sa.JSON),
)


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(
            sa.Column("previous_digests", sa.JSON, nullable=False, server_default="[]")
        )
    connection = op.get_bind()
    kept = connection.execute(
        sa.select(SEATS.c.game_id, SEATS.c.seat, SEATS.c.previous_digest).where(
            SEATS.c.previous_digest.is_not(None)
        )
    ).all()
    for game_id, seat, digest in kept:
        connection.execute(
            SEATS.update()
            .where(SEATS.c.game_id == game_id, SEATS.c.seat == seat)
            .values(previous_digests=[digest])
        )
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("previous_digest")


def downgrade() -> None:
    """Back to one digest a seat: the newest, its person's token in the game just before."""
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("previous_digest", sa.String(64), nullable=True))
    connection = op.get_bind()
    rows = connection.execute(sa.select(SEATS.c.game_id, SEATS.c.seat, SEATS.c.previous_digests))
    for game_id, seat, digests in rows.all():
        digests = json.loads(digests) if isinstance(digests, str) else digests
        if digests:
            connection.execute(
                SEATS.update()
                .where(SEATS.c.game_id == game_id, SEATS.c.seat == seat)
                .values(previous_digest=digests[0])
            )
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("previous_digests")
