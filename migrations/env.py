"""Alembic environment: the URL comes from the caller's config (app.db.migrate) or PARLOUR_DATABASE_URL.

One migration at a time, however many processes start at once: the whole upgrade runs in one
transaction that first takes a lock, so a second process waits, then finds the schema at head
and does nothing. On PostgreSQL the lock is a transaction-level advisory lock; on SQLite the
transaction begins EXCLUSIVE (the driver's own transaction handling switched off, so DDL is
inside it too). Either way an upgrade is all or nothing.
"""
from alembic import context
from sqlalchemy import create_engine, event, pool, text

from app.models import Base
from app.settings import get_settings

config = context.config
url = config.get_main_option("sqlalchemy.url") or get_settings().database_url

MIGRATION_LOCK = 0x7061726C6F7572
"""The PostgreSQL advisory lock key held while migrating ("parlour" in ASCII)."""
SQLITE_WAIT_S = 600
"""How long a process waits on SQLite for another's migration (the driver's busy timeout)."""


def _engine():
    if not url.startswith("sqlite"):
        return create_engine(url, poolclass=pool.NullPool)
    engine = create_engine(url, poolclass=pool.NullPool, connect_args={"timeout": SQLITE_WAIT_S})

    @event.listens_for(engine, "connect")
    def _driver_transactions_off(dbapi_connection, _record):
        dbapi_connection.isolation_level = None

    @event.listens_for(engine, "begin")
    def _begin_exclusive(connection):
        connection.exec_driver_sql("BEGIN EXCLUSIVE")

    return engine


def run() -> None:
    if context.is_offline_mode():
        context.configure(url=url, target_metadata=Base.metadata, literal_binds=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = _engine()
    with engine.connect() as connection, connection.begin():
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        # Alembic sees the transaction begun here as the caller's and runs every step inside it.
        context.configure(connection=connection, target_metadata=Base.metadata,
                          render_as_batch=connection.dialect.name == "sqlite")
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


run()
