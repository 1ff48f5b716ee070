"""The ASGI application object for uvicorn: ``uvicorn app.asgi:app``.

Served this way, the app cannot tell which address it binds, so it needs SECRET (or
``python -m app``, which decides before importing this module).
"""

import sys

from app.collector import tune_for_serving
from app.config import MissingSecret, get_settings
from app.db import DatabaseUnreachable, wait_for_database
from app.main import create_app

try:
    app = create_app()
    wait_for_database(get_settings())
except (MissingSecret, DatabaseUnreachable) as error:
    sys.exit(f"error: {error}")

tune_for_serving()
