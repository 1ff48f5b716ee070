"""The ASGI application object for uvicorn: ``uvicorn app.asgi:app``.

Served this way, the app cannot tell which address it binds, so it needs SECRET (or
``python -m app``, which decides before importing this module).
"""

import gc
import sys

from app.config import MissingSecret, get_settings
from app.db import DatabaseUnreachable, wait_for_database
from app.main import create_app

try:
    app = create_app()
    wait_for_database(get_settings())
except (MissingSecret, DatabaseUnreachable) as error:
    sys.exit(f"error: {error}")

# Garbage collection tuned for a server that holds many open sockets. Each socket keeps a
# few hundred live objects (coroutines, frames, queues); with CPython's default
# thresholds, short-lived per-move objects were promoted so fast that full collections
# over a thousand sockets' objects ran every 2 s and stalled every game on the process
# for 250-300 ms (bench/online.py, 500 matches). Young collections now run 70 times less
# often, so far fewer objects outlive them, and the objects made at start-up (modules,
# routes, table metadata) are left out of every collection.
gc.collect()
gc.freeze()
gc.set_threshold(50_000, 20, 10)
