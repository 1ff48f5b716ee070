"""Catalogs of every word a player reads: static/i18n/{en,ru,fr}.json.

The same JSON files serve the templates (``t("key")``) and the browser (embedded in the
page as JSON data). The language is the ``lang`` cookie when set, else the best match of
Accept-Language, else English.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

LANGUAGES = ("en", "ru", "fr")
DEFAULT = "en"
CATALOG_DIR = Path(__file__).resolve().parent.parent / "static" / "i18n"


@lru_cache
def catalog(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((CATALOG_DIR / f"{lang}.json").read_text("utf-8"))
    return data


def negotiate(cookie: str | None, accept_language: str | None) -> str:
    if cookie in LANGUAGES:
        return cookie
    weighted: list[tuple[float, int, str]] = []
    for index, part in enumerate((accept_language or "").split(",")):
        tag, _, q = part.strip().partition(";q=")
        try:
            weight = float(q) if q else 1.0
        except ValueError:
            continue
        base = tag.split("-")[0].lower()
        if base in LANGUAGES:
            weighted.append((-weight, index, base))
    return min(weighted)[2] if weighted else DEFAULT


class Translator:
    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.messages = catalog(lang)
        self.fallback = catalog(DEFAULT)

    def __call__(self, key: str, **values: Any) -> str:
        text = self.messages.get(key) or self.fallback.get(key) or key
        return text.format(**values) if values else text
