"""HTML pages: the lobby and the game pages (Jinja renders the shell; canvas draws games)."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from app.errors import AppError
from app.i18n import LANGUAGES, Translator, catalog, negotiate

TEMPLATES_DIR = Path(__file__).resolve().parent.parent / "templates"
templates = Jinja2Templates(directory=TEMPLATES_DIR)

router = APIRouter(include_in_schema=False)


def script_json(value: Any) -> str:
    # JSON inside <script type="application/json">: `</script>` or `<!--` must not end
    # or confuse the element, so <, > and & become \u escapes (still the same JSON).
    text = json.dumps(value, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


@lru_cache
def catalog_json(lang: str) -> str:
    """A language's whole catalog for the page's script, encoded once per process."""
    return script_json(catalog(lang))


def render(request: Request, template: str, status: int = 200, **page: Any) -> HTMLResponse:
    lang = negotiate(request.cookies.get("lang"), request.headers.get("accept-language"))

    context = {
        "lang": lang,
        "languages": LANGUAGES,
        "t": Translator(lang),
        "catalog_json": catalog_json(lang),
        "page_json": script_json(page),
        **page,
    }
    return templates.TemplateResponse(request, template, context, status_code=status)


def game_page(request: Request, game: str, **page: Any) -> HTMLResponse:
    engines = request.app.state.service.engines
    if game not in engines or not (TEMPLATES_DIR / "games" / f"{game}.html").exists():
        return render(request, "not_found.html", status=404, game=game)
    return render(request, f"games/{game}.html", game=game, **page)


@router.get("/", response_class=HTMLResponse)
async def lobby(request: Request) -> HTMLResponse:
    return render(request, "lobby.html", page_name="lobby")


@router.get("/play/{game}", response_class=HTMLResponse)
async def play(request: Request, game: str) -> HTMLResponse:
    return game_page(request, game)


@router.get("/play/{game}/{first}", response_class=HTMLResponse)
async def play_variant_or_number(request: Request, game: str, first: str) -> HTMLResponse:
    """``/play/pairs/41739205-b`` (a shared board) or ``/play/blocks/classic10`` (a variant)."""
    if first[:1].isdigit():
        return game_page(request, game, number=first)
    return game_page(request, game, variant=first)


@router.get("/play/{game}/{variant}/{number}", response_class=HTMLResponse)
async def play_variant_number(
    request: Request, game: str, variant: str, number: str
) -> HTMLResponse:
    return game_page(request, game, variant=variant, number=number)


@router.get("/daily/{game}", response_class=HTMLResponse)
async def daily(request: Request, game: str) -> HTMLResponse:
    return game_page(request, game, daily=True)


@router.get("/g/{game_id}", response_class=HTMLResponse)
async def resume(request: Request, game_id: str) -> HTMLResponse:
    service = request.app.state.service
    try:
        game = await service.get_game(game_id)
    except AppError:
        return render(request, "not_found.html", status=404, game=None)
    return game_page(request, game.engine, game_id=game.id)
