"""the schema

Revision ID: 0001
Revises: 
Create Date: 2026-11-21 22:28:28.259959
"""
from alembic import op
import sqlalchemy as sa


revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('live_agents',
    sa.Column('agent', sa.String(length=96), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.Column('origin', sa.String(length=16), nullable=False),
    sa.Column('reset_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('agent')
    )
    op.create_table('matches',
    sa.Column('id', sa.String(length=32), nullable=False),
    sa.Column('game', sa.String(length=32), nullable=False),
    sa.Column('options', sa.JSON(), nullable=False),
    sa.Column('seed', sa.BigInteger(), nullable=False),
    sa.Column('state', sa.JSON(), nullable=False),
    sa.Column('ply', sa.Integer(), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('ai_only', sa.Boolean(), nullable=False),
    sa.Column('delay_ms', sa.Integer(), nullable=False),
    sa.Column('paused', sa.Boolean(), nullable=False),
    sa.Column('steps', sa.Integer(), nullable=False),
    sa.Column('last_move_at', sa.Float(), nullable=False),
    sa.Column('rematch_of', sa.String(length=32), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_matches_created_at'), ['created_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_matches_finished_at'), ['finished_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_matches_game'), ['game'], unique=False)
        batch_op.create_index(batch_op.f('ix_matches_status'), ['status'], unique=False)

    op.create_table('tournaments',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('game', sa.String(length=32), nullable=False),
    sa.Column('players', sa.JSON(), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.Column('seed', sa.BigInteger(), nullable=False),
    sa.Column('options', sa.JSON(), nullable=False),
    sa.Column('result', sa.JSON(), nullable=False),
    sa.Column('seconds', sa.Float(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_tournaments_created_at'), ['created_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_tournaments_game'), ['game'], unique=False)

    op.create_table('learned_values',
    sa.Column('agent', sa.String(length=96), nullable=False),
    sa.Column('key', sa.String(length=128), nullable=False),
    sa.Column('value', sa.Float(), nullable=False),
    sa.ForeignKeyConstraint(['agent'], ['live_agents.agent'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('agent', 'key')
    )
    op.create_table('moves',
    sa.Column('match_id', sa.String(length=32), nullable=False),
    sa.Column('ply', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('action', sa.String(length=128), nullable=False),
    sa.Column('label', sa.String(length=256), nullable=False),
    sa.Column('explanation', sa.JSON(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('match_id', 'ply')
    )
    op.create_table('seats',
    sa.Column('match_id', sa.String(length=32), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=8), nullable=False),
    sa.Column('name', sa.String(length=64), nullable=False),
    sa.Column('agent', sa.String(length=64), nullable=True),
    sa.Column('level', sa.Integer(), nullable=True),
    sa.Column('token_hash', sa.String(length=64), nullable=True),
    sa.Column('score', sa.Float(), nullable=True),
    sa.Column('won', sa.Boolean(), nullable=True),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('match_id', 'seat')
    )
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_seats_agent'), ['agent'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_seats_agent'))

    op.drop_table('seats')
    op.drop_table('moves')
    op.drop_table('learned_values')
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_tournaments_game'))
        batch_op.drop_index(batch_op.f('ix_tournaments_created_at'))

    op.drop_table('tournaments')
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_matches_status'))
        batch_op.drop_index(batch_op.f('ix_matches_game'))
        batch_op.drop_index(batch_op.f('ix_matches_finished_at'))
        batch_op.drop_index(batch_op.f('ix_matches_created_at'))

    op.drop_table('matches')
    op.drop_table('live_agents')
