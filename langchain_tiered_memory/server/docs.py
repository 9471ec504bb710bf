"""Interactive API docs served from this machine: Swagger UI works offline.

FastAPI's default ``/docs`` loads Swagger UI from a CDN, so it is blank without network. The
assets come from the ``swagger-ui-bundle`` package (part of the ``server`` extra) and are served
under ``/docs/assets``. ReDoc has no such package, so ``/redoc`` is not offered.
"""

from __future__ import annotations

import logging
from pathlib import Path

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html, get_swagger_ui_oauth2_redirect_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

__all__ = ["mount_docs"]

logger = logging.getLogger("langchain_tiered_memory")
_ASSETS = "/docs/assets"


def _asset_dir() -> Path | None:
    try:
        import swagger_ui_bundle  # type: ignore[import-untyped]
    except ImportError:
        return None
    return Path(swagger_ui_bundle.swagger_ui_path)


def mount_docs(app: FastAPI, *, title: str) -> bool:
    """Serve Swagger UI at ``/docs`` with local assets; False when they are not installed."""
    assets = _asset_dir()
    if assets is None or not (assets / "swagger-ui-bundle.js").is_file():
        logger.warning(
            "swagger-ui-bundle is not installed: /docs is off "
            "(pip install 'langchain-tiered-memory[server]')"
        )
        return False
    app.mount(_ASSETS, StaticFiles(directory=assets), name="swagger-ui")
    redirect = "/docs/oauth2-redirect"

    @app.get("/docs", include_in_schema=False)
    def swagger() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=app.openapi_url or "/openapi.json",
            title=f"{title} — API",
            swagger_js_url=f"{_ASSETS}/swagger-ui-bundle.js",
            swagger_css_url=f"{_ASSETS}/swagger-ui.css",
            swagger_favicon_url=f"{_ASSETS}/favicon-32x32.png",
            oauth2_redirect_url=redirect,
        )

    @app.get(redirect, include_in_schema=False)
    def oauth2_redirect() -> HTMLResponse:
        return get_swagger_ui_oauth2_redirect_html()

    return True
