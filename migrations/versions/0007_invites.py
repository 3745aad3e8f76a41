"""invites: a seat can be a friend's (invite open or taken) and remembers the joiner's hashed address

Revision ID: 0007
Revises: 0006
"""
from alembic import op
import sqlalchemy as sa


revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('seats') as batch:
        batch.add_column(sa.Column('invite', sa.String(length=8), nullable=True))
        batch.add_column(sa.Column('client', sa.String(length=32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('seats') as batch:
        batch.drop_column('client')
        batch.drop_column('invite')
