"""The API documents (Swagger UI at /docs, ReDoc at /redoc) from vendored files in
static/vendor, so they work offline and without inline script; and the site's icon at /favicon.ico."""
from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse

from app.db import ROOT

router = APIRouter(include_in_schema=False)

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Parlour API · {title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">{head}</head>
<body>{body}<script src="/static/js/heading-levels.js"></script></body></html>"""


@router.get("/docs", response_class=HTMLResponse)
def swagger() -> str:
    return PAGE.format(title="Swagger UI",
                       head='<link rel="stylesheet" href="/static/vendor/swagger-ui/swagger-ui.css">'
                            '<link rel="stylesheet" href="/static/css/docs.css">',
                       body='<div id="swagger-ui"></div>'
                            '<script src="/static/vendor/swagger-ui/swagger-ui-bundle.js"></script>'
                            '<script src="/static/js/docs.js"></script>')


@router.get("/redoc", response_class=HTMLResponse)
def redoc() -> str:
    return PAGE.format(title="ReDoc", head='<link rel="stylesheet" href="/static/css/docs.css">',
                       body='<main><redoc spec-url="/openapi.json"></redoc></main>'  # Swagger UI has its own
                            '<script src="/static/vendor/redoc/redoc.standalone.js"></script>')


@router.get("/favicon.ico", include_in_schema=False)
def favicon() -> FileResponse:
    """The site's icon (an SVG) where browsers look for it by default."""
    return FileResponse(Path(ROOT) / "static" / "favicon.svg", media_type="image/svg+xml")
