"""Catalogs of every word a player reads, one per language, merged from several files.

The site's shared words are in ``static/i18n/<lang>.json``; each built-in game's words
(``games.<game>.*``, its replay's among them: ``games.<game>.replay.*``) are in its own
folder, ``static/i18n/games/<game>/<lang>.json``. ``catalog(lang)`` is their merge, the
one dictionary the templates (``t("key")``) and the tests read; build.mjs merges the same
files for the browser (each language whole, and a slice per game page). A key written
twice, in one file or in two, is an error (``DuplicateKey``), raised at start-up
(``check_catalogs``, from ``create_app``) and by the build. The language is the ``lang``
cookie when set, else the best match of Accept-Language, else English.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

LANGUAGES = ("en", "ru", "fr")
DEFAULT = "en"
CATALOG_DIR = Path(__file__).resolve().parent.parent / "static" / "i18n"
GAME_CATALOGS = CATALOG_DIR / "games"  # <game>/<lang>.json: a built-in game's words


class DuplicateKey(ValueError):
    """A catalog key written twice: JSON would keep the last, the other a dead copy."""


def catalog_files(lang: str) -> list[Path]:
    """The files of a language's catalog: the shared one, then each game's, by name."""
    games = sorted(path for path in GAME_CATALOGS.iterdir() if path.is_dir())
    return [CATALOG_DIR / f"{lang}.json", *(folder / f"{lang}.json" for folder in games)]


def read_words(path: Path) -> dict[str, str]:
    """One catalog file, refusing a key it writes twice."""

    def unique(pairs: list[tuple[str, str]]) -> dict[str, str]:
        words: dict[str, str] = {}
        for key, text in pairs:
            if key in words:
                raise DuplicateKey(f"{path}: {key!r} is written twice")
            words[key] = text
        return words

    data: dict[str, str] = json.loads(path.read_text("utf-8"), object_pairs_hook=unique)
    return data


def merge(files: list[Path]) -> dict[str, str]:
    """The words of these files in one dictionary; a key two files hold is refused."""
    words: dict[str, str] = {}
    source: dict[str, Path] = {}
    for path in files:
        for key, text in read_words(path).items():
            if key in words:
                raise DuplicateKey(f"{key!r} is in both {source[key]} and {path}")
            words[key] = text
            source[key] = path
    return words


@lru_cache
def catalog(lang: str) -> dict[str, str]:
    """Every word of the language: the shared catalog and each game's, merged."""
    return merge(catalog_files(lang))


def check_catalogs() -> None:
    """Read every language's catalog once (at start-up): a duplicate key stops the app."""
    for lang in LANGUAGES:
        catalog(lang)


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
