"""The ASGI application object for uvicorn: ``uvicorn app.asgi:app``.

Served this way, the app cannot tell which address it binds, so it needs SECRET (or
``python -m app``, which decides before importing this module).
"""

import sys

from app import LOADING_SINCE
from app.collector import tune_for_serving
from app.config import MissingSecret, get_settings
from app.db import DatabaseUnreachable, wait_for_database
from app.main import create_app

# A database that does not answer ends the process within the README's 15 s: this long
# from when loading began, and the interpreter's exit (under a second) after it.
STARTUP_WAIT_S = 14.0

try:
    app = create_app()
    wait_for_database(get_settings(), STARTUP_WAIT_S, since=LOADING_SINCE)
except (MissingSecret, DatabaseUnreachable) as error:
    sys.exit(f"error: {error}")

tune_for_serving()
