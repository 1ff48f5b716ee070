"""Catalogs of every word a player reads, one per language, merged from several files.

The site's shared words are in ``static/i18n/<lang>.json``; each built-in game's words
(``games.<game>.*``, its replay's among them: ``games.<game>.replay.*``) are in its own
folder, ``static/i18n/games/<game>/<lang>.json``. ``catalog(lang)`` is their merge, the
one dictionary the templates (``t("key")``) and the tests read; build.mjs merges the same
files for the browser (each language whole, and a slice per game page).

A game packaged outside this repository (a plugin, a test's fixture game) keeps its words
in ``i18n/<lang>.json`` inside its package (the folder of the module that defines its
engine's class, beside its ``templates/``: app/game_pages.py), each key under
``games.<game>.``; the server adds them to the words of its templates when it serves that
game (``words(lang, package_catalogs(engines))``). The build does not know them.

A key written twice, in one file or in two, is an error (``DuplicateKey``), raised at
start-up (``check_catalogs``, from ``create_app``); the build refuses a key two files hold
too. The language is the ``lang`` cookie when set, else the best match of
Accept-Language, else English.
"""

from __future__ import annotations

import inspect
import json
import sys
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

LANGUAGES = ("en", "ru", "fr")
DEFAULT = "en"
CATALOG_DIR = Path(__file__).resolve().parent.parent / "static" / "i18n"
GAME_CATALOGS = CATALOG_DIR / "games"  # <game>/<lang>.json: a built-in game's words
PACKAGE_CATALOGS = "i18n"  # the folder, inside a game's package, of its <lang>.json
# A packaged game's catalogs: (its name, its package's i18n folder).
Packages = tuple[tuple[str, Path], ...]


class DuplicateKey(ValueError):
    """A catalog key written twice: JSON would keep the last, the other a dead copy."""


def catalog_files(lang: str) -> list[Path]:
    """The files of a language's catalog: the shared one, then each game's, by name."""
    games = sorted(path for path in GAME_CATALOGS.iterdir() if path.is_dir())
    return [CATALOG_DIR / f"{lang}.json", *(folder / f"{lang}.json" for folder in games)]


def read_words(path: Path) -> dict[str, str]:
    """One catalog file, refusing a key it writes twice."""

    def unique(pairs: list[tuple[str, str]]) -> dict[str, str]:
        seen: dict[str, str] = {}
        for key, text in pairs:
            if key in seen:
                raise DuplicateKey(f"{path}: {key!r} is written twice")
            seen[key] = text
        return seen

    data: dict[str, str] = json.loads(path.read_text("utf-8"), object_pairs_hook=unique)
    return data


def merge(files: list[Path]) -> dict[str, str]:
    """The words of these files in one dictionary; a key two files hold is refused."""
    merged: dict[str, str] = {}
    source: dict[str, Path] = {}
    for path in files:
        for key, text in read_words(path).items():
            if key in merged:
                raise DuplicateKey(f"{key!r} is in both {source[key]} and {path}")
            merged[key] = text
            source[key] = path
    return merged


@lru_cache
def catalog(lang: str) -> dict[str, str]:
    """Every word of the language: the shared catalog and each game's, merged."""
    return merge(catalog_files(lang))


@lru_cache
def package_folder(module: str) -> Path | None:
    """The ``i18n`` folder beside a module (the one that defines an engine's class), if
    there is one."""
    try:
        folder = Path(inspect.getfile(sys.modules[module])).parent / PACKAGE_CATALOGS
    except (KeyError, TypeError):  # no such module, or one with no file (a session's)
        return None
    return folder if folder.is_dir() else None


def package_catalogs(engines: Mapping[str, Any]) -> Packages:
    """The catalogs of the served games packaged outside this repository, by game name."""
    return tuple(
        (name, folder)
        for name, engine in engines.items()
        if (folder := package_folder(type(engine).__module__)) is not None
    )


def words(lang: str, packages: Packages = ()) -> dict[str, str]:
    """The language's catalog and the words of these packaged games."""
    return with_packages(lang, packages) if packages else catalog(lang)


@lru_cache
def with_packages(lang: str, packages: Packages) -> dict[str, str]:
    """``catalog(lang)`` and the packages' words: each package holds only its game's
    keys (``games.<game>.*``), and a key two files hold is refused."""
    for name, folder in packages:
        path = folder / f"{lang}.json"
        stray = [key for key in read_words(path) if not key.startswith(f"games.{name}.")]
        if stray:
            raise ValueError(f"{path}: {stray[0]!r} is not a word of games.{name}")
    return merge([*catalog_files(lang), *(folder / f"{lang}.json" for _, folder in packages)])


def check_catalogs(engines: Mapping[str, Any] | None = None) -> None:
    """Read every language's catalog once (at start-up), with the words of the served
    games packaged outside this repository: a duplicate key stops the app."""
    packages = package_catalogs(engines or {})
    for lang in LANGUAGES:
        words(lang, packages)


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
    """``t(key, **values)`` in one language (English where it has no such key), with the
    words of these packaged games."""

    def __init__(self, lang: str, packages: Packages = ()) -> None:
        self.lang = lang
        self.messages = words(lang, packages)
        self.fallback = words(DEFAULT, packages)

    def __call__(self, key: str, **values: Any) -> str:
        text = self.messages.get(key) or self.fallback.get(key) or key
        return text.format(**values) if values else text
