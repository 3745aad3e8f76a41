"""endings: a match ended early says how (resigned by a seat, or abandoned)

Revision ID: 0005
Revises: 0004
"""
from alembic import op
import sqlalchemy as sa


revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('matches') as batch:
        batch.add_column(sa.Column('ending', sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('matches') as batch:
        batch.drop_column('ending')
