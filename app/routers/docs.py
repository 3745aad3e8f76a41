"""The API documents (Swagger UI at /docs, ReDoc at /redoc) from vendored files in
static/vendor, so they work offline and without inline script."""
from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

router = APIRouter(include_in_schema=False)

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Parlour API · {title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">{head}</head>
<body>{body}</body></html>"""


@router.get("/docs", response_class=HTMLResponse)
def swagger() -> str:
    return PAGE.format(title="Swagger UI",
                       head='<link rel="stylesheet" href="/static/vendor/swagger-ui/swagger-ui.css">',
                       body='<div id="swagger-ui"></div>'
                            '<script src="/static/vendor/swagger-ui/swagger-ui-bundle.js"></script>'
                            '<script src="/static/js/docs.js"></script>')


@router.get("/redoc", response_class=HTMLResponse)
def redoc() -> str:
    return PAGE.format(title="ReDoc", head="",
                       body='<redoc spec-url="/openapi.json"></redoc>'
                            '<script src="/static/vendor/redoc/redoc.standalone.js"></script>')
