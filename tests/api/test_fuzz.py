"""A schema fuzz of the whole OpenAPI (schemathesis): for a bounded number of generated requests
per operation, no 5xx, and every answer matches its documented status and schema."""
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

schemathesis = pytest.importorskip("schemathesis")

from app.main import create_app  # noqa: E402

_db = Path(tempfile.mkdtemp(prefix="parlour-fuzz-")) / "fuzz.db"
app = create_app(f"sqlite:///{_db}", preload=False)
schema = schemathesis.openapi.from_asgi("/openapi.json", app)

from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.specs.openapi.checks import (  # noqa: E402
    content_type_conformance, response_schema_conformance, status_code_conformance)

CHECKS = [not_a_server_error, status_code_conformance, response_schema_conformance, content_type_conformance]


@schema.exclude(path_regex=r"/events$").parametrize()
@settings(max_examples=10, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
def test_the_api_holds_for_generated_requests(case):
    case.call_and_validate(checks=CHECKS)
