"""``app.statements``: a statement run on the driver's cursor stores and reads values exactly as
SQLAlchemy's own execution does (JSON, times, booleans, None), on SQLite and, when
PARLOUR_TEST_POSTGRES_URL is set, on PostgreSQL."""
import os
from datetime import datetime, timezone

import pytest
from sqlalchemy import bindparam, insert, select, text, update

from app.db import make_engine, migrate, session_factory
from app.models import Match, Move
from app.statements import Statement

URLS = ["sqlite"] + (["postgresql"] if os.environ.get("PARLOUR_TEST_POSTGRES_URL") else [])

INSERT = Statement(insert(Move.__table__))
ROWS = Statement(select(Move.ply, Move.label, Move.explanation, Move.created_at)
                 .where(Move.match_id == bindparam("id")).order_by(Move.ply))
FINISH = Statement(update(Match.__table__).where(Match.id == bindparam("id"), Match.status == "active")
                   .values(status="finished", ending=bindparam("ending", type_=Match.ending.type)))


@pytest.fixture(params=URLS)
def sessions(request, tmp_path):
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'statements.db'}"
    else:
        url = os.environ["PARLOUR_TEST_POSTGRES_URL"]
        with make_engine(url).begin() as c:
            c.execute(text("DROP SCHEMA public CASCADE; CREATE SCHEMA public"))
    migrate(url)
    engine = make_engine(url)
    yield session_factory(engine)
    engine.dispose()


def test_values_go_in_and_come_out_as_sqlalchemy_has_them(sessions):
    when = datetime(2026, 11, 25, 18, 30, 5, 123456, tzinfo=timezone.utc)
    explanation = {"label": "value", "values": {"cell:4": 0.5, "cell:0": -1.0}, "labels": {"cell:4": "centre"}}
    with sessions() as s:
        s.add(Match(id="m1", game="tictactoe", options={}, seed=1, state={"board": "........."}, created_at=when))
        s.commit()
        INSERT.run_many(s.connection(), [
            {"match_id": "m1", "ply": 0, "seat": 0, "action": "cell:4", "label": "centre", "explanation": explanation,
             "created_at": when},
            {"match_id": "m1", "ply": 1, "seat": 1, "action": "cell:0", "label": "corner", "explanation": None,
             "created_at": when}])
        assert FINISH.run(s.connection(), id="m1", ending={"kind": "resigned", "seat": 1}) == 1
        assert FINISH.run(s.connection(), id="m1", ending=None) == 0  # no longer active: nothing changed
        s.commit()
    with sessions() as s:  # SQLAlchemy reads what the driver's cursor wrote
        stored = s.scalars(select(Move).order_by(Move.ply)).all()
        assert [(m.ply, m.label, m.explanation) for m in stored] == [(0, "centre", explanation), (1, "corner", None)]
        assert s.get(Match, "m1").ending == {"kind": "resigned", "seat": 1}
        ours = ROWS.rows(s.connection(), id="m1")
        theirs = [dict(r._mapping) for r in s.connection().execute(ROWS.statement, {"id": "m1"})]
    assert ours == theirs  # and the cursor reads what SQLAlchemy reads
    assert [r["explanation"] for r in ours] == [explanation, None]
    assert ours[0]["created_at"].replace(tzinfo=None) == when.replace(tzinfo=None)
    with sessions() as s:
        assert ROWS.first(s.connection(), id="nothing") is None
