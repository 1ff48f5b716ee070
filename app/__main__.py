"""``python -m app``: serve with uvicorn on HOST:PORT (default 127.0.0.1:8000).

Without SECRET, a loopback HOST gets a random secret made once in ``var/secret``; any
other HOST refuses to start (exit status 1, one line naming SECRET).
"""

from __future__ import annotations

import os
import sys

import uvicorn

from app.config import MissingSecret, get_settings, startup_secret


def main() -> None:
    host = os.environ.get("HOST", "127.0.0.1")
    settings = get_settings()
    try:
        # The app (app.asgi, imported by uvicorn in this process) reads these settings.
        settings.secret = startup_secret(settings, host)
    except MissingSecret as error:
        sys.exit(f"error: {error}")
    uvicorn.run(
        "app.asgi:app",
        host=host,
        port=int(os.environ.get("PORT", "8000")),
        proxy_headers=True,
        forwarded_allow_ips=settings.trusted_proxies,
        ws_max_size=64 * 1024,
        # Game frames are small: compressing each costs more CPU than it saves bytes.
        ws_per_message_deflate=False,
    )


if __name__ == "__main__":
    main()
