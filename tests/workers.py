"""Each pytest-xdist worker gets stores of its own: a PostgreSQL database beside
DATABASE_URL's (``<name>_gw0``, made afresh) and a Redis database number (``/1`` for gw0,
``/2`` for gw1, …). The environment is rewritten before any test module is imported, so
every test, fixture and server process a test starts reads the worker's own URLs: one
worker's table cleaning or FLUSHDB never meets another's rows or keys. (Pub/sub channels
are shared by every Redis database, but ours are named by random game and seek ids.)"""

from __future__ import annotations

import os
from urllib.parse import urlsplit

from tests.servers import fresh_postgres_database


def worker_id() -> str | None:
    """"gw0", "gw1", … inside an xdist worker; None in a plain run."""
    return os.environ.get("PYTEST_XDIST_WORKER")


def isolate_stores() -> None:
    worker = worker_id()
    if worker is None:
        return
    number = int(worker.removeprefix("gw"))
    database_url = os.environ.get("DATABASE_URL", "")
    if database_url.startswith(("postgresql", "postgres:")):
        os.environ["DATABASE_URL"] = fresh_postgres_database(database_url, worker)
    redis_url = os.environ.get("REDIS_URL")
    if redis_url:
        os.environ["REDIS_URL"] = urlsplit(redis_url)._replace(path=f"/{number + 1}").geturl()
