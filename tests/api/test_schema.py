"""The migrations build exactly the schema the models describe (nothing missing, nothing extra)."""
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from app.db import make_engine, migrate
from app.models import Base


def test_migrating_to_head_gives_the_models_schema(db_url):
    migrate(db_url)
    with make_engine(db_url).connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
