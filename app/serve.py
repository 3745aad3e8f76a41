"""``parlour serve``: migrate the database, load the agents, serve on HTTP."""
from __future__ import annotations

import argparse
import os


def main(argv: list[str]) -> int:
    import uvicorn

    parser = argparse.ArgumentParser(prog="parlour serve", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--workers", type=int, default=1,
                        help="server processes (use PostgreSQL via PARLOUR_DATABASE_URL for more than one)")
    args = parser.parse_args(argv)
    os.environ["PARLOUR_WORKERS"] = str(args.workers)  # each process takes its share of the GET quota
    print(f"Parlour on http://{args.host}:{args.port}  (API docs at /docs)")
    uvicorn.run("app.main:app", host=args.host, port=args.port, workers=args.workers,
                log_level="info", access_log=False)
    return 0
