"""Static files under content-hashed URLs.

Every page names its scripts, styles and catalogs as ``/static/v/<hash>/<path>``, where
``<hash>`` is one hash of the whole static tree. One hash for the tree, not one per file,
because the scripts are ES modules that import each other by relative path: a module
loaded from ``/static/v/<hash>/js/…`` finds its imports under the same prefix, so a
change anywhere gives every file a new URL and no module can meet a stale neighbour.

URLs with the current hash never change content and are cached for a year, immutable;
anything else under ``/static`` (plain paths, or a hash from before a deploy) is served
from the current tree with ``no-cache``, so a browser revalidates it by ETag.

Under the current hash, files are also built once per process, in memory: scripts and
styles minified (rjsmin, rcssmin: comments and spaces go, a quarter of a page's weight),
and each game page gets its own slice of the catalog, ``i18n/<lang>/<game>.json``: every
key but the other games' and the lobby's. Plain ``/static/<path>`` serves the files as
written, for reading and debugging.

A stylesheet is written as a folder of parts, one per component (``css/site/`` holds
``01-tokens.css`` … ``18-quick-pairing.css``), and served as one file, ``css/site.css``: the
parts concatenated in name order, which is the cascade's order. One file, not a ``<link>``
per part, because a page would otherwise ask for some twenty stylesheets before it can paint;
and concatenation, not ``@import``, because imports load one after another. Plain
``/static/css/site.css`` serves the same concatenation unminified.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

import rcssmin
import rjsmin
from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
VERSIONED = "v/"
BUILD = b"rjsmin+rcssmin+catalog-slices+css-bundles/2"  # change when the build changes output
MINIFIERS = {".js": rjsmin.jsmin, ".css": rcssmin.cssmin}
MEDIA_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
}
PAGE_ONLY_KEYS = ("lobby.",)  # words that only the lobby shows


def tree_hash(directory: Path) -> str:
    """A short hash of the build and of every file's path and bytes under ``directory``."""
    digest = hashlib.sha256(BUILD)
    for path in sorted(p for p in directory.rglob("*") if p.is_file()):
        digest.update(path.relative_to(directory).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


class Assets:
    """The static tree's version and the URLs that carry it."""

    def __init__(self, directory: Path = STATIC_DIR) -> None:
        self.directory = directory
        self.version = tree_hash(directory)
        self.bundles = stylesheet_bundles(directory / "css")
        bundled = {path: rcssmin.cssmin(text).encode() for path, text in self.bundles.items()}
        self.built = {**minified(directory), **bundled, **catalog_slices(directory / "i18n")}

    def url(self, path: str) -> str:
        """The immutable URL of ``path`` (relative to the static directory)."""
        return f"/static/{VERSIONED}{self.version}/{path.lstrip('/')}"

    def catalog_url(self, lang: str, game: str | None = None) -> str:
        """The page's words: a game's slice of the catalog, or the whole of it."""
        sliced = f"i18n/{lang}/{game}.json"
        return self.url(sliced if game and sliced in self.built else f"i18n/{lang}.json")


def minified(directory: Path) -> dict[str, bytes]:
    """Every script and style, minified, by path relative to ``directory``."""
    built = {}
    for path in directory.rglob("*"):
        minify = MINIFIERS.get(path.suffix)
        if minify and path.is_file():
            text = minify(path.read_text("utf-8"))
            built[path.relative_to(directory).as_posix()] = text.encode()
    return built


def stylesheet_bundles(directory: Path) -> dict[str, str]:
    """``css/<name>.css``: the parts in ``css/<name>/``, concatenated in name order."""
    bundles = {}
    for folder in sorted(p for p in directory.iterdir() if p.is_dir()):
        if (directory / f"{folder.name}.css").exists():  # two sources for one URL
            raise ValueError(f"css/{folder.name}.css is both a file and a folder of parts")
        parts = sorted(folder.glob("*.css"))
        if parts:
            text = "\n".join(part.read_text("utf-8") for part in parts)
            bundles[f"css/{folder.name}.css"] = text
    return bundles


def catalog_slices(directory: Path) -> dict[str, bytes]:
    """``i18n/<lang>/<game>.json``: a language's catalog without the other games' words
    and the lobby's (a game page needs a third of the catalog)."""
    built = {}
    for path in directory.glob("*.json"):
        words: dict[str, str] = json.loads(path.read_text("utf-8"))
        games = {key.split(".")[1] for key in words if key.startswith("games.")}
        for game in games:
            others = tuple(f"games.{other}." for other in games - {game})
            kept = {k: v for k, v in words.items() if not k.startswith(others + PAGE_ONLY_KEYS)}
            text = json.dumps(kept, ensure_ascii=False, separators=(",", ":"))
            built[f"i18n/{path.stem}/{game}.json"] = text.encode()
    return built


@lru_cache
def site_assets() -> Assets:
    """The site's static tree, hashed once per process."""
    return Assets()


class StaticTree(StaticFiles):
    """``/static``: versioned paths cached for good, the rest revalidated."""

    def __init__(self, assets: Assets) -> None:
        super().__init__(directory=assets.directory)
        self.assets = assets

    async def get_response(self, path: str, scope: Scope) -> Response:
        cache = REVALIDATE
        if path.startswith(VERSIONED):
            version, _, path = path[len(VERSIONED) :].partition("/")
            if version == self.assets.version:
                cache = IMMUTABLE
                built = self.assets.built.get(path)
                if built is not None:
                    media_type = MEDIA_TYPES[Path(path).suffix]
                    return Response(built, media_type=media_type, headers={"cache-control": cache})
        bundle = self.assets.bundles.get(path)
        if bundle is not None and scope["method"] in ("GET", "HEAD"):
            return bundle_response(bundle, cache, Headers(scope=scope))
        response = await super().get_response(path, scope)
        if response.status_code in (200, 304):
            response.headers["Cache-Control"] = cache
        return response


def bundle_response(text: str, cache: str, request_headers: Headers) -> Response:
    """A stylesheet bundle as written, revalidated by an ETag of its bytes (it has no file
    of its own whose size and time StaticFiles could use)."""
    body = text.encode()
    etag = f'"{hashlib.sha256(body).hexdigest()[:16]}"'
    headers = {"cache-control": cache, "etag": etag}
    if etag in request_headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type=MEDIA_TYPES[".css"], headers=headers)
