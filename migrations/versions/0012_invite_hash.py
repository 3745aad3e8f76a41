"""invite hash: a friend's seat keeps its invite token's digest apart from the seat's token, which
joining replaces (the invite's token is then good for nothing but a clear 409 on a second join).
Seats still open take their token's digest, which is their invite's.

Revision ID: 0012
Revises: 0011
"""
from alembic import op
import sqlalchemy as sa


revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('seats') as batch:
        batch.add_column(sa.Column('invite_hash', sa.String(length=64), nullable=True))
    op.execute("UPDATE seats SET invite_hash = token_hash WHERE invite = 'open'")


def downgrade() -> None:
    with op.batch_alter_table('seats') as batch:
        batch.drop_column('invite_hash')
