"""learners that heal: each client's bounded weight per box, learned games (and their quarantine),
the canary's verdict on snapshots, and each learner's last good table

Revision ID: 0010
Revises: 0009
"""
from alembic import op
import sqlalchemy as sa


revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('live_agents') as batch:
        batch.add_column(sa.Column('good_snapshot', sa.Integer(), nullable=True))
        batch.add_column(sa.Column('good_game', sa.Integer(), nullable=False, server_default='0'))
        batch.add_column(sa.Column('restores', sa.Integer(), nullable=False, server_default='0'))
    with op.batch_alter_table('live_snapshots') as batch:
        batch.add_column(sa.Column('passed', sa.Boolean(), nullable=True))
        batch.add_column(sa.Column('canary', sa.JSON(), nullable=True))
    op.create_table('learn_weights',
    sa.Column('agent', sa.String(length=96), nullable=False),
    sa.Column('client', sa.String(length=32), nullable=False),
    sa.Column('box', sa.String(length=128), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['agent'], ['live_agents.agent'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('agent', 'client', 'box')
    )
    op.create_table('learned_games',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('agent', sa.String(length=96), nullable=False),
    sa.Column('match_id', sa.String(length=32), nullable=True),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('quarantined_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('quarantine', sa.String(length=200), nullable=True),
    sa.ForeignKeyConstraint(['agent'], ['live_agents.agent'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_learned_games_agent_id', 'learned_games', ['agent', 'id'])


def downgrade() -> None:
    op.drop_index('ix_learned_games_agent_id', 'learned_games')
    op.drop_table('learned_games')
    op.drop_table('learn_weights')
    with op.batch_alter_table('live_snapshots') as batch:
        batch.drop_column('canary')
        batch.drop_column('passed')
    with op.batch_alter_table('live_agents') as batch:
        batch.drop_column('restores')
        batch.drop_column('good_game')
        batch.drop_column('good_snapshot')
