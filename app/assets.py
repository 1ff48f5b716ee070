"""The front end as built by ``build.mjs`` (esbuild), read from its manifest.

``node build.mjs`` (``make build``; ``make run`` and ``make test`` run it) writes
``static/dist/`` (``NOOK_ASSETS`` names another folder): one script and one stylesheet per
page, the chunks of code pages share, the catalogs (each language whole, and per game a
slice for its play page and one for its replay page: its words and the shared ones, not
the other games' nor the lobby's or /me's), the icons, each text file's brotli and gzip
forms, and ``manifest.json``, which names them. Every file's name carries the hash of
its content, so its URL, ``/static/dist/<file>``, never changes content and is cached for
a year, immutable. The manifest's ``version`` (a hash of every file's name) names the set: the
service worker's cache (app/pwa.py).

A page names its bundle (``page_bundle``: ``game-<game>``, ``replay-<game>``, ``lobby`` …)
and gets its stylesheet, its script and the chunks that script imports (preloaded, so the
browser asks for them all at once, not one import after another).

Anything else under ``/static`` is the source tree as written (``/static/js/core/api.js``,
for reading, debugging, and tests that import one module), served with ``no-cache`` so a
browser revalidates it by ETag.

Without a manifest the server does not start: it would serve pages without scripts.
"""

from __future__ import annotations

import base64
import json
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from starlette.datastructures import Headers
from starlette.responses import FileResponse, Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

ROOT = Path(__file__).resolve().parent.parent
STATIC_DIR = ROOT / "static"
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
BUILT = "dist/"  # /static/dist/<file>: the build's files
PACKED = (("br", ".br"), ("gzip", ".gz"))  # the build's compressed forms, the best first
ASSETS_ENV = "NOOK_ASSETS"  # the build's folder, when not static/dist (build.mjs reads it too)


class AssetsMissing(RuntimeError):
    """The front end was not built (or not where the server looks)."""


def assets_dir() -> Path:
    named = os.environ.get(ASSETS_ENV)
    return (ROOT / named).resolve() if named else STATIC_DIR / "dist"


@dataclass(frozen=True)
class PageAssets:
    """What a page links: its stylesheet, its script and the chunks the script imports."""

    css: str
    js: str | None
    preload: tuple[str, ...]
    lazy: dict[str, str]  # module (static/js/…) → the URL of the chunk it is imported in


class Assets:
    """The build's manifest: the set's version and each page's and file's URL."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory or assets_dir()
        path = self.directory / "manifest.json"
        try:
            manifest: dict[str, Any] = json.loads(path.read_text("utf-8"))
        except FileNotFoundError:
            raise AssetsMissing(
                f"{path} is missing: the front end is not built. Run `make build` "
                "(npm ci && node build.mjs, Node.js 18 or later) before starting the server."
            ) from None
        self.version: str = manifest["version"]
        self.files: dict[str, str] = manifest["files"]
        self.bundle: list[str] = manifest["bundle"]
        self.inlined: dict[str, str] = {}  # path → its data: URL (data_url)
        self.pages = {
            name: PageAssets(
                css=self.built_url(page["css"]),
                js=self.built_url(page["js"]) if page.get("js") else None,
                preload=tuple(self.built_url(chunk) for chunk in page.get("preload", ())),
                lazy={name: self.built_url(chunk) for name, chunk in page.get("lazy", {}).items()},
            )
            for name, page in manifest["pages"].items()
        }
        missing = [file for file in self.bundle if not (self.directory / file).is_file()]
        if missing:
            raise AssetsMissing(f"{path} names files that are not there: {missing[:3]}")

    @staticmethod
    def built_url(file: str) -> str:
        return f"/static/{BUILT}{file}"

    def url(self, path: str) -> str:
        """The immutable URL of a copied file (``icons/icon-192.png``, ``i18n/en.json``)."""
        return self.built_url(self.files[path.lstrip("/")])

    def data_url(self, path: str, media_type: str) -> str:
        """A small copied file as a ``data:`` URL, for a page to carry inline (the tab's
        icon: one request fewer on every first visit, for about 0.4 KB in the page)."""
        if path not in self.inlined:
            content = (self.directory / self.files[path]).read_bytes()
            self.inlined[path] = f"data:{media_type};base64,{base64.b64encode(content).decode()}"
        return self.inlined[path]

    def catalog_url(self, lang: str, bundle: str | None = None) -> str:
        """The words of a page (of bundle ``bundle``): a game's slice of the catalog for its
        play page (``game-<game>``) or its replay page (``replay-<game>``), else the whole."""
        kind, _, game = (bundle or "").partition("-")
        name = {"game": game, "replay": f"{game}.replay"}.get(kind)
        sliced = f"i18n/{lang}/{name}.json"
        return self.url(sliced if name and sliced in self.files else f"i18n/{lang}.json")

    def page(self, name: str) -> PageAssets:
        """A page's bundle; a game without one of its own (packaged outside this
        repository) gets the game page's shared one (``game``, ``replay``)."""
        return self.pages.get(name) or self.pages[name.partition("-")[0]]


def page_bundle(template: str, game: str | None) -> str:
    """The bundle of a page rendered from ``template``: ``game-<game>`` for a game's play
    page, ``replay-<game>`` for its replay page, else the template's name (``lobby``)."""
    name = template.removesuffix(".html")
    if name == "replay" or name.endswith(".replay"):
        return f"replay-{game}"
    if name.startswith("games/"):
        return f"game-{game}"
    return name


@lru_cache
def site_assets() -> Assets:
    """The site's build, read once per process."""
    return Assets()


class StaticTree(StaticFiles):
    """``/static``: the build's files cached for good, the sources revalidated."""

    def __init__(self, assets: Assets) -> None:
        super().__init__(directory=STATIC_DIR)
        self.assets = assets
        self.built = StaticFiles(directory=assets.directory)

    async def get_response(self, path: str, scope: Scope) -> Response:
        if path.startswith(BUILT):
            response = await self.built.get_response(path[len(BUILT) :], scope)
            cache = REVALIDATE if path == f"{BUILT}manifest.json" else IMMUTABLE
            if isinstance(response, FileResponse) and response.status_code == 200:
                response = self.packed(response, Headers(scope=scope))
                if cache == IMMUTABLE:  # never revalidated: its validators are bytes for nothing
                    del response.headers["etag"], response.headers["last-modified"]
        else:
            response = await super().get_response(path, scope)
            cache = REVALIDATE
        if response.status_code in (200, 304):
            response.headers["Cache-Control"] = cache
        return response

    def packed(self, response: FileResponse, request: Headers) -> FileResponse:
        """The build's compressed form of a file (``<file>.br``, ``.gz``) the browser takes,
        made once by build.mjs at the best level: nothing is compressed per request."""
        packed = [(name, Path(f"{response.path}{suffix}")) for name, suffix in PACKED]
        packed = [(name, path) for name, path in packed if path.is_file()]
        if not packed:
            return response
        taken = accepted_encodings(request.get("accept-encoding", ""))
        for name, path in packed:
            if name in taken:
                headers = {"content-encoding": name, "vary": "Accept-Encoding"}
                kind = response.media_type
                return FileResponse(path, media_type=kind, headers=headers, stat_result=path.stat())
        return response  # as built (app/main.py's CompressMiddleware adds its Vary)


def accepted_encodings(header: str) -> set[str]:
    """The codings an ``Accept-Encoding`` header takes (those not refused with ``q=0``, nor
    with a weight that is no number)."""
    taken = set()
    for item in header.split(","):
        name, _, params = item.strip().partition(";")
        weight = params.replace(" ", "").lower().removeprefix("q=") or "1"
        try:
            if float(weight) > 0:
                taken.add(name.strip().lower())
        except ValueError:
            continue
    return taken
