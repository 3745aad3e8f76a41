"""A schema fuzz of the whole OpenAPI (schemathesis), on SQLite and on PostgreSQL
(PARLOUR_TEST_POSTGRES_URL, which .ci/run sets; skipped when unset): for a bounded number of
generated requests per operation, in every phase (examples, boundary values, fuzzing) and in both
directions, no 5xx, every answer matches its documented status, headers and schema, the server
accepts every request the schema calls valid and refuses every request it calls invalid, and a
405 lists exactly the methods its path takes."""
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

schemathesis = pytest.importorskip("schemathesis")

from app.main import create_app  # noqa: E402
from tests.api.test_postgres import empty_postgres  # noqa: E402

from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.specs.openapi.checks import (  # noqa: E402
    allow_header_conformance, content_type_conformance, negative_data_rejection, positive_data_acceptance,
    response_schema_conformance, status_code_conformance)

CHECKS = [not_a_server_error, status_code_conformance, response_schema_conformance, content_type_conformance,
          positive_data_acceptance, negative_data_rejection, allow_header_conformance]
POSTGRES = os.environ.get("PARLOUR_TEST_POSTGRES_URL")
BOUNDED = settings(max_examples=10, deadline=None, derandomize=True, database=None,
                   suppress_health_check=list(HealthCheck))


def fuzzed(url: str):
    """The app's schema, its requests sent to the app in process. The app starts (and migrates
    its database) at its first request, not here: collecting the tests touches no database."""
    app = create_app(url, preload=False)
    schema = schemathesis.openapi.from_dict(app.openapi())
    schema.app, schema.location = app, "/openapi.json"
    return schema.exclude(path_regex=r"/events$")  # streams: tests/api/test_streams.py


@pytest.fixture(scope="module", autouse=True)
def thinking_helper():
    """The searching AIs' helper process, started before the first request: started by a
    request on a loaded machine it took seconds (a process at low priority importing the
    agents), and a generated match with a searching seat timed out waiting for it."""
    from app.services import thinking
    thinking.start(wait=True)
    yield
    thinking.stop()


@fuzzed(f"sqlite:///{Path(tempfile.mkdtemp(prefix='parlour-fuzz-')) / 'fuzz.db'}").parametrize()
@BOUNDED
def test_the_api_holds_for_generated_requests_on_sqlite(case):
    case.call_and_validate(checks=CHECKS)


@pytest.fixture(scope="module")
def emptied_postgres():
    empty_postgres(POSTGRES)


if POSTGRES:
    @fuzzed(POSTGRES).parametrize()
    @BOUNDED
    def test_the_api_holds_for_generated_requests_on_postgres(case, emptied_postgres):
        case.call_and_validate(checks=CHECKS)
else:
    @pytest.mark.skip(reason="set PARLOUR_TEST_POSTGRES_URL to fuzz on PostgreSQL")
    def test_the_api_holds_for_generated_requests_on_postgres():
        pass
