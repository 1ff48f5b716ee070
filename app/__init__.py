"""The web server: thin adapters between HTTP/WebSocket, storage, pub/sub and the engines."""

import time

LOADING_SINCE = time.monotonic()
"""When this process began loading the app: the start-up wait for the database
(app.asgi) counts from here, since loading the app takes a second or two itself."""
