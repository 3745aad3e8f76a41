"""coach: the stored reviews of people's moves, and matches "with hints"

Revision ID: 0006
Revises: 0005
"""
from alembic import op
import sqlalchemy as sa


revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('matches') as batch:
        batch.add_column(sa.Column('hints', sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_table('move_reviews',
    sa.Column('match_id', sa.String(length=32), nullable=False),
    sa.Column('ply', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('action', sa.String(length=128), nullable=False),
    sa.Column('best', sa.String(length=128), nullable=True),
    sa.Column('value', sa.Float(), nullable=True),
    sa.Column('best_value', sa.Float(), nullable=True),
    sa.Column('loss', sa.Float(), nullable=True),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('match_id', 'ply')
    )


def downgrade() -> None:
    op.drop_table('move_reviews')
    with op.batch_alter_table('matches') as batch:
        batch.drop_column('hints')
