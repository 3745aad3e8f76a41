"""``parlour serve``: migrate the database once, then start the workers (each loads the agents
and serves on HTTP). Each worker's start-up migrates too, which then finds nothing to do: a
worker started some other way (uvicorn's own command) is safe all the same, since migrations
take a lock (migrations/env.py)."""
from __future__ import annotations

import argparse
import os
import sys

from pydantic import ValidationError

from app.settings import get_settings


def main(argv: list[str]) -> int:
    import uvicorn

    from app.db import migrate

    parser = argparse.ArgumentParser(prog="parlour serve", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--workers", type=int, default=1,
                        help="server processes (use PostgreSQL via PARLOUR_DATABASE_URL for more than one)")
    args = parser.parse_args(argv)
    try:
        settings = get_settings()
    except ValidationError as err:  # a setting the server cannot run with: say which, and stop
        for problem in err.errors():
            message = problem["msg"].removeprefix("Value error, ")
            if not message.startswith("PARLOUR_"):
                message = f"PARLOUR_{str(problem['loc'][0]).upper()}: {message}"
            print(f"parlour serve: {message}", file=sys.stderr)
        return 2
    migrate(settings.database_url)
    os.environ["PARLOUR_WORKERS"] = str(args.workers)  # each process takes its share of the GET quota
    print(f"Parlour on http://{args.host}:{args.port}  (API docs at /docs)")
    # proxy_headers off: uvicorn would otherwise take X-Forwarded-For from 127.0.0.1 itself; the
    # client's address is the app's to work out, from PARLOUR_TRUSTED_PROXIES alone (app.addresses).
    uvicorn.run("app.main:app", host=args.host, port=args.port, workers=args.workers,
                log_level="info", access_log=False, proxy_headers=False)
    return 0
