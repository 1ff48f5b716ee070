"""The installable app: the web app manifest, the service worker and the offline page.

``/sw.js`` is ``static/js/sw.js`` (the worker's code) after one line that tells it what
to keep: the cache's name (``nook-<build version>``, so a deploy gets a cache of its own
and the old one is deleted when the new worker takes over), the shell to precache (the
build's files of that version, static/dist/manifest.json, but the other languages'
catalogs, and ``/offline``), and the player's language. It lives at the root, so its
scope is the whole site without a ``Service-Worker-Allowed`` header. A page registers
``/sw.js?lang=<its language>``, so a player who changes language gets a worker (and a
cache) of that language. It is never cached by HTTP: a browser checks it on every
navigation and a new deploy's bytes start the update (docs/pwa.md).
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from app import pages
from app.assets import STATIC_DIR, Assets, site_assets
from app.i18n import LANGUAGES, Translator, negotiate

router = APIRouter(include_in_schema=False)

CACHE_PREFIX = "nook-"
OFFLINE_PATH = "/offline"
WORKER_SOURCE = "js/sw.js"
# The manifest's colours: the page background of each theme (static/css/site/01-tokens.css).
THEME_COLOURS = {"light": "#f3f4f9", "dark": "#0e1120"}
ICONS = [
    {"src": "icons/icon-192.png", "sizes": "192x192", "type": "image/png", "purpose": "any"},
    {"src": "icons/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any"},
    {
        "src": "icons/icon-maskable-512.png",
        "sizes": "512x512",
        "type": "image/png",
        "purpose": "maskable",
    },
]


def language(request: Request) -> str:
    return negotiate(request.cookies.get("lang"), request.headers.get("accept-language"))


def manifest(assets: Assets, lang: str, theme: str | None, games: list[str]) -> dict[str, Any]:
    """The manifest in the player's language; its colours those of the player's chosen
    theme (the light one unless the theme cookie says dark: a manifest has one of each)."""
    t = Translator(lang)
    colour = THEME_COLOURS["dark" if theme == "dark" else "light"]
    return {
        "id": "/",
        "name": t("site.name"),
        "short_name": t("pwa.short_name"),
        "description": t("site.tagline"),
        "lang": lang,
        "start_url": "/?source=app",
        "scope": "/",
        "display": "standalone",
        "theme_color": colour,
        "background_color": colour,
        "icons": [{**icon, "src": assets.url(icon["src"])} for icon in ICONS],
        "shortcuts": [
            {
                "name": t(f"games.{game}.title"),
                "url": f"/play/{game}",
                "icons": [{"src": assets.url("icons/icon-192.png"), "sizes": "192x192"}],
            }
            for game in games
        ],
    }


def shell(assets: Assets, lang: str) -> list[str]:
    """What the worker precaches: the build's files of its version (static/dist/manifest.json:
    every page's script, chunks and stylesheet, the icons), of the catalogs only this
    language's (the whole one and each game's slice), and the offline page."""
    catalogs = (f"i18n/{lang}.json", f"i18n/{lang}/")
    others = {
        built
        for source, built in assets.files.items()
        if source.startswith("i18n/") and not source.startswith(catalogs)
    }
    kept = [assets.built_url(file) for file in assets.bundle if file not in others]
    return [offline_url(lang), *kept]


def offline_url(lang: str) -> str:
    return f"{OFFLINE_PATH}?lang={lang}"


def worker_script(assets: Assets, lang: str) -> str:
    config = {
        "cache": f"{CACHE_PREFIX}{assets.version}",
        "prefix": CACHE_PREFIX,
        "version": assets.version,
        "lang": lang,
        "offline": offline_url(lang),
        "icon": assets.url("icons/icon-192.png"),
        "shell": shell(assets, lang),
    }
    source = (STATIC_DIR / WORKER_SOURCE).read_text("utf-8")
    return f"self.NOOK = {json.dumps(config, separators=(',', ':'))};\n{source}"


@router.get("/manifest.webmanifest")
async def web_manifest(request: Request) -> Response:
    games = list(request.app.state.services.catalog.engines)
    body = manifest(site_assets(), language(request), request.cookies.get("theme"), games)
    return Response(
        json.dumps(body, ensure_ascii=False),
        media_type="application/manifest+json",
        headers={"cache-control": "no-cache", "vary": "cookie, accept-language"},
    )


@router.get("/sw.js")
async def service_worker(request: Request, lang: str | None = None) -> Response:
    """The worker of the page's language (``?lang=``, which the page registers it with:
    a new language is a new script, so the worker updates and keeps that catalog)."""
    return Response(
        worker_script(site_assets(), lang if lang in LANGUAGES else language(request)),
        media_type="text/javascript; charset=utf-8",
        headers={"cache-control": "no-cache, no-store", "vary": "cookie, accept-language"},
    )


@router.get(OFFLINE_PATH, response_class=HTMLResponse)
async def offline(request: Request, lang: str | None = None) -> HTMLResponse:
    """What the service worker shows for a page it has never kept, without a network (in
    the language it asks for: the worker's)."""
    chosen = lang if lang in LANGUAGES else None
    return pages.render(request, "offline.html", lang=chosen, page_name="offline")
