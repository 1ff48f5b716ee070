"""``python -m app.openapi_dump [PATH]``: the app's OpenAPI document (``/openapi.json``,
the socket's frames under ``x-websockets`` included) as JSON, to PATH or stdout.

The browser's types are generated from it (``make types``: openapi-typescript writes
``static/js/types/api.d.ts``, which ``tsc`` checks ``static/js`` against; docs/architecture.md,
"Types"). No server starts and nothing is stored: the document is the routes' and the
wire models', so it is made before the front end is built (the assets' manifest the app
reads at creation is an empty one of its own) and without the site's secret.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from app.assets import ASSETS_ENV, site_assets
from app.config import Settings

EMPTY_MANIFEST = {"version": "openapi", "pages": {}, "files": {}, "bundle": []}


def document() -> dict[str, Any]:
    """``create_app().openapi()`` with the built-in games, without a build or a secret."""
    from app.main import create_app

    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "manifest.json").write_text(json.dumps(EMPTY_MANIFEST), "utf-8")
        before = os.environ.get(ASSETS_ENV)
        os.environ[ASSETS_ENV] = folder
        site_assets.cache_clear()
        try:
            return create_app(Settings(secret="openapi-document")).openapi()
        finally:
            site_assets.cache_clear()
            if before is None:
                del os.environ[ASSETS_ENV]
            else:
                os.environ[ASSETS_ENV] = before


def main(argv: list[str]) -> int:
    text = json.dumps(document(), indent=1, ensure_ascii=False) + "\n"
    if len(argv) > 1:
        Path(argv[1]).write_text(text, "utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
