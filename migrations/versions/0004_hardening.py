"""hardening: learners as origin + overlay, snapshots, the learning limit, match control tokens

Revision ID: 0004
Revises: 0003
"""
from alembic import op
import sqlalchemy as sa


revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('matches') as batch:
        batch.add_column(sa.Column('client', sa.String(length=32), nullable=True))
        batch.add_column(sa.Column('control_hash', sa.String(length=64), nullable=True))
        batch.add_column(sa.Column('learning', sa.JSON(), nullable=True))
    op.create_table('live_snapshots',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('agent', sa.String(length=96), nullable=False),
    sa.Column('origin', sa.String(length=16), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.Column('reset_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('reason', sa.String(length=32), nullable=False),
    sa.Column('values', sa.Integer(), nullable=False),
    sa.Column('overlay', sa.LargeBinary(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['agent'], ['live_agents.agent'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_live_snapshots_agent', 'live_snapshots', ['agent'])
    op.create_table('learn_events',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('agent', sa.String(length=96), nullable=False),
    sa.Column('client', sa.String(length=32), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_learn_events_agent_client_at', 'learn_events', ['agent', 'client', 'at'])
    # A learner's rows used to hold its whole table; they stay valid as an overlay (a row overrides
    # the origin's value), so nothing is rewritten.


def downgrade() -> None:
    op.drop_index('ix_learn_events_agent_client_at', 'learn_events')
    op.drop_table('learn_events')
    op.drop_index('ix_live_snapshots_agent', 'live_snapshots')
    op.drop_table('live_snapshots')
    with op.batch_alter_table('matches') as batch:
        batch.drop_column('learning')
        batch.drop_column('control_hash')
        batch.drop_column('client')
