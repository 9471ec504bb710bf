"""REST API (FastAPI, the ``server`` extra): `create_app(store, tokens={token: namespace})`."""

from .app import create_app

__all__ = ["create_app"]
