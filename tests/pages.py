"""Reading a served page the way its script does."""

from __future__ import annotations

import json
import re
from typing import Any

PAGE_JSON = re.compile(r'<script type="application/json" id="page-config">(.*?)</script>', re.S)


def page_json(html: str) -> dict[str, Any]:
    """The page's JSON (`<script id="page-config">`): what the server hands its script."""
    match = PAGE_JSON.search(html)
    assert match, "no page JSON"
    return dict(json.loads(match.group(1)))
