"""ratings of agents and people per game, and their history

Revision ID: 0003
Revises: 0001
"""
from alembic import op
import sqlalchemy as sa


revision = '0003'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('ratings',
    sa.Column('game', sa.String(length=32), nullable=False),
    sa.Column('player', sa.String(length=96), nullable=False),
    sa.Column('mu', sa.Float(), nullable=False),
    sa.Column('sigma', sa.Float(), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.Column('wins', sa.Float(), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('game', 'player')
    )
    op.create_table('rating_events',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('game', sa.String(length=32), nullable=False),
    sa.Column('player', sa.String(length=96), nullable=False),
    sa.Column('match_id', sa.String(length=32), nullable=True),
    sa.Column('tournament_id', sa.Integer(), nullable=True),
    sa.Column('mu', sa.Float(), nullable=False),
    sa.Column('sigma', sa.Float(), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('match_id', 'player')
    )
    op.create_index('ix_rating_events_game_player', 'rating_events', ['game', 'player', 'id'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_rating_events_game_player', table_name='rating_events')
    op.drop_table('rating_events')
    op.drop_table('ratings')
