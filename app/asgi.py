"""The ASGI application object for uvicorn: ``uvicorn app.asgi:app``."""

import gc

from app.main import create_app

app = create_app()

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
