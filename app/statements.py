"""The statements of every turn, compiled by SQLAlchemy once per dialect and run on the driver's cursor.

A move request reads the match's row and writes the move: four statements. Run through
SQLAlchemy (cache key, execution context, result object) each cost 17 to 45 µs of Python, and a
move's writes about 90 µs in all; the same SQL on the driver's cursor takes about 20 µs
(``sqlite3``, measured with the statements below). ``Statement`` keeps what SQLAlchemy decides (the
dialect's SQL and parameter style, each column type's conversion of values in and out) and skips
the rest. It runs on a connection of SQLAlchemy's (``session.connection()``), inside its
transaction: committing and rolling back stay the session's.

Only plain statements: named ``bindparam``s and literal values, no ``IN`` lists.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, cast

from sqlalchemy.engine import Connection
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler


@dataclass
class _Plan:
    """A statement as one dialect runs it."""
    sql: str
    order: tuple[str, ...] | None  # positional parameter styles: the names in order
    defaults: dict[str, Any]  # literal values of the statement (``status = 'active'``)
    binders: dict[str, Callable]  # name -> the type's conversion of a value for the driver
    columns: tuple[str, ...]  # selected column names
    types: tuple  # and their types, as the dialect has them
    readers: tuple[Callable | None, ...] | None = None
    """Per column, the type's conversion of a value from the driver (set at the first run: some
    depend on the type the driver reports)."""


class Statement:
    def __init__(self, statement: ClauseElement):
        self.statement = statement
        self._plans: dict[str, _Plan] = {}

    def _plan(self, dialect) -> _Plan:
        plan = self._plans.get(dialect.name)
        if plan is None:
            compiled = cast(SQLCompiler, self.statement.compile(dialect=dialect))
            binders = {}
            for name, bind in compiled.binds.items():
                convert = bind.type.dialect_impl(dialect).bind_processor(dialect)
                if convert is not None:
                    binders[name] = convert
            selected = getattr(self.statement, "selected_columns", ())
            plan = self._plans[dialect.name] = _Plan(
                compiled.string, tuple(compiled.positiontup or ()) if compiled.positional else None,
                dict(compiled.params), binders, tuple(c.key for c in selected),
                tuple(c.type.dialect_impl(dialect) for c in selected))
        return plan

    @staticmethod
    def _parameters(plan: _Plan, values: dict):
        given = {**plan.defaults, **values}
        for name, convert in plan.binders.items():
            given[name] = convert(given[name])
        return given if plan.order is None else tuple(given[name] for name in plan.order)

    @staticmethod
    def _cursor(connection: Connection):
        driver = connection.connection.dbapi_connection
        if driver is None:
            raise RuntimeError("the connection is closed")
        return connection.dialect, driver.cursor()

    def rows(self, connection: Connection, **values) -> list[dict]:
        """The selected rows, each as a dict of its columns."""
        dialect, cursor = self._cursor(connection)
        plan = self._plan(dialect)
        try:
            cursor.execute(plan.sql, self._parameters(plan, values))
            fetched = cursor.fetchall()
            if plan.readers is None:
                plan.readers = tuple(t.result_processor(dialect, d[1]) for t, d in zip(plan.types, cursor.description))
        finally:
            cursor.close()
        names, readers = plan.columns, plan.readers
        return [{name: value if read is None else read(value) for name, read, value in zip(names, readers, row)}
                for row in fetched]

    def first(self, connection: Connection, **values) -> dict | None:
        found = self.rows(connection, **values)
        return found[0] if found else None

    def run(self, connection: Connection, **values) -> int:
        """Run it once; the number of rows it changed."""
        dialect, cursor = self._cursor(connection)
        plan = self._plan(dialect)
        try:
            cursor.execute(plan.sql, self._parameters(plan, values))
            return cursor.rowcount
        finally:
            cursor.close()

    def run_many(self, connection: Connection, rows: list[dict]) -> None:
        """Run it once for each dict of values in ``rows``."""
        dialect, cursor = self._cursor(connection)
        plan = self._plan(dialect)
        try:
            cursor.executemany(plan.sql, [self._parameters(plan, r) for r in rows])
        finally:
            cursor.close()
