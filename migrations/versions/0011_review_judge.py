"""review judge: each stored verdict names the coach's level that gave it (verdicts stored before
have none, and are computed again when next asked for)

Revision ID: 0011
Revises: 0010
"""
from alembic import op
import sqlalchemy as sa


revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('move_reviews') as batch:
        batch.add_column(sa.Column('judge', sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('move_reviews') as batch:
        batch.drop_column('judge')
