"""``python -m app``: serve with uvicorn on HOST:PORT (default 127.0.0.1:8000)."""

from __future__ import annotations

import os

import uvicorn


def main() -> None:
    uvicorn.run(
        "app.asgi:app",
        host=os.environ.get("HOST", "127.0.0.1"),
        port=int(os.environ.get("PORT", "8000")),
        proxy_headers=True,
        ws_max_size=64 * 1024,
    )


if __name__ == "__main__":
    main()
