"""HTML pages: the lobby, the player's page (/me) and the game pages (Jinja renders the
shell; canvas draws games)."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.templating import Jinja2Templates
from jinja2 import ChoiceLoader, Environment, FileSystemLoader, TemplateNotFound, select_autoescape
from jinja2.ext import Extension

from app.api.ratings import pool_of, pools_by_speed
from app.assets import accepted_encodings, page_bundle, site_assets
from app.catalog import computer, entry, reviewer
from app.compressed_pages import PAGES as COMPRESSED_PAGES
from app.errors import AppError
from app.fair_play import BOARD_RULES
from app.game_pages import GamePackages
from app.i18n import LANGUAGES, Packages, Translator, negotiate, package_catalogs
from app.models import GameStatus
from app.outage import is_outage
from app.reviews import aborted

TEMPLATES_DIR = Path(__file__).resolve().parent.parent / "templates"
INDENT = re.compile(r"\n\s+")


class DropIndent(Extension):
    """A template's indentation is for its reader, not the browser: each line's leading
    blanks and the blank lines go when the template is compiled (a line break stays, so what
    the page shows is the same; no template holds <pre> or <textarea>)."""

    def preprocess(self, source: str, name: str | None, filename: str | None = None) -> str:
        return INDENT.sub("\n", source)


# The site's templates, then those a game packaged outside the repository brings.
GAME_PACKAGES = GamePackages()
templates = Jinja2Templates(
    env=Environment(
        loader=ChoiceLoader([FileSystemLoader(TEMPLATES_DIR), GAME_PACKAGES]),
        autoescape=select_autoescape(),
        extensions=[DropIndent],
    )
)
# {{ static("icons/icon-192.png") }}: a built file's immutable URL; {{ bundle("lobby") }}:
# a page's stylesheet, script and chunks (see app/assets.py).
templates.env.globals["static"] = lambda path: site_assets().url(path)
templates.env.globals["inline"] = lambda path, media: site_assets().data_url(path, media)
templates.env.globals["bundle"] = lambda name: site_assets().page(name)
templates.env.globals["assets_version"] = lambda: site_assets().version
templates.env.globals["catalog_url"] = lambda lang, bundle: site_assets().catalog_url(lang, bundle)

router = APIRouter(include_in_schema=False)
PageRoute = TypeVar("PageRoute", bound=Callable[..., Awaitable[Response]])


def page(path: str) -> Callable[[PageRoute], PageRoute]:
    """A page's route: GET, and HEAD (what uptime monitors and link checkers send; the
    server sends the headers alone)."""
    return router.api_route(path, methods=["GET", "HEAD"], response_class=HTMLResponse)


def script_json(value: Any) -> str:
    # JSON inside <script type="application/json">: `</script>` or `<!--` must not end
    # or confuse the element, so <, > and & become \u escapes (still the same JSON).
    text = json.dumps(value, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def render(
    request: Request,
    template: str,
    status: int = 200,
    template_only: dict[str, Any] | None = None,
    lang: str | None = None,
    **page: Any,
) -> HTMLResponse:
    """A page: ``page`` goes to the template and to the page's script (its JSON);
    ``template_only`` to the template alone. Its language is ``lang``, or the player's."""
    know_games(request)
    lang = lang or negotiate(request.cookies.get("lang"), request.headers.get("accept-language"))
    context = {
        "lang": lang,
        "languages": LANGUAGES,
        "t": Translator(lang, served_packages(request)),
        "page_json": script_json(page),
        "page_bundle": page_bundle(template, page.get("game")),
        **page,
        **(template_only or {}),
    }
    response = templates.TemplateResponse(request, template, context, status_code=status)
    return revalidated(request, response)


def revalidated(request: Request, page: HTMLResponse) -> HTMLResponse:
    """A page with the ETag of its bytes, answered 304 when the browser holds the same page
    (a reload: its files come from the cache, and the page itself costs no body); in brotli
    at its best when many get the same bytes (app/compressed_pages.py)."""
    if page.status_code != 200:
        return page
    digest = hashlib.sha256(page.body).hexdigest()
    etag = f'W/"{digest[:20]}"'
    page.headers["etag"] = etag
    if etag in request.headers.get("if-none-match", ""):
        return HTMLResponse(status_code=304, headers={"etag": etag})
    if request.method == "GET" and "br" in accepted_encodings(
        request.headers.get("accept-encoding", "")
    ):
        best = COMPRESSED_PAGES.best(digest, bytes(page.body))
        if best is not None:  # the middleware leaves an encoded body alone
            page.body = best
            page.headers.update({"content-encoding": "br", "content-length": str(len(best))})
            page.headers.append("vary", "Accept-Encoding")
    return page


def know_games(request: Request) -> None:
    """Let the loader find the templates of the games this app serves (app/game_pages.py)."""
    services = getattr(request.app.state, "services", None)
    if services is not None:
        GAME_PACKAGES.know(services.catalog.engines)


def served_packages(request: Request) -> Packages:
    """The words of the served games packaged outside this repository (app/i18n.py)."""
    services = getattr(request.app.state, "services", None)
    return package_catalogs(services.catalog.engines) if services is not None else ()


def has_template(request: Request, name: str) -> bool:
    know_games(request)
    try:
        templates.env.get_template(name)
    except TemplateNotFound:
        return False
    return True


async def game_page(request: Request, game: str, **page: Any) -> HTMLResponse:
    catalog = request.app.state.services.catalog
    if game not in catalog or not has_template(request, f"games/{game}.html"):
        return render(request, "not_found.html", status=404, game=game)
    # The game's catalog entry (what /api/catalog serves) comes with the page: the
    # templates and scripts take choices, levels and counts from it, never from a list of
    # their own.
    engine = catalog.engine(game)
    mine = await player_results(request, game, computer(engine) is not None)
    return render(request, f"games/{game}.html", game=game, catalog=entry(engine), **mine, **page)


async def player_results(request: Request, game: str, has_computer: bool) -> dict[str, Any]:
    """What a game page asks for first, read for it and sent with it (a request less on
    each visit): the player's ``records`` in the game (GET /api/records?game=) and, in a
    game with a computer player, their results against it, ``stats`` (GET
    /api/stats/<game>). A new player has none, read from nowhere; a database that does
    not answer leaves them out, and the page asks for them itself."""
    if request.state.new_player:
        return {"records": [], **({"stats": {}} if has_computer else {})}
    reads = request.app.state.services.reads
    player_id = request.state.player_id
    try:
        records = await reads.records(player_id, game)
        found: dict[str, Any] = {"records": records.model_dump(mode="json")["records"]}
        if has_computer:
            stats = await reads.computer_stats(player_id, game)
            found["stats"] = stats.model_dump(mode="json")["stats"]
    except Exception as error:  # noqa: BLE001 - only an outage is swallowed
        if not is_outage(error):
            raise
        return {}
    return found


def lobby_games(engines: Any) -> tuple[list[dict[str, Any]], list[str]]:
    """The lobby's games: what /api/catalog serves (each engine's describe()), in the
    registry's order, and the ones that have a daily board. A new game needs no lobby edit."""
    games = [entry(engine) for engine in engines.values()]
    daily = [name for name, engine in engines.items() if engine.daily_params({}) is not None]
    return games, daily


CONTINUE_MAX = 6  # the lobby's "continue" cards at most (static/js/lobby/remember.js)


@page("/")
async def lobby(request: Request) -> HTMLResponse:
    services = request.app.state.services
    games, daily = lobby_games(services.catalog.engines)
    # The games (what /api/catalog serves) come with the page: the template draws their
    # cards, and lobby.js reads their variants and clocks from the page's JSON, a request
    # fewer on a cold visit and a page that knows its games offline.
    extra = {
        "daily_games": daily,
        "continue_count": await continue_count(services, request.state.player_id),
    }
    return render(request, "lobby.html", template_only=extra, page_name="lobby", games=games)


async def continue_count(services: Any, player_id: str) -> int:
    """How many "continue" cards the lobby will show: the page keeps their room from the
    first paint, so the games below do not jump when lobby.js fills them in. A database
    that does not answer costs the lobby its reserved room, never the page."""
    try:
        active = await services.history.games(
            player_id, None, GameStatus.ACTIVE, None, CONTINUE_MAX
        )
    except Exception as error:  # noqa: BLE001 - only an outage is swallowed
        if not is_outage(error):
            raise
        return 0
    return len(active.games)


@page("/me")
async def me(request: Request) -> HTMLResponse:
    """The player's page: name, games, statistics, streak, other devices. ``?code=`` (the
    transfer QR code's URL) adds who this browser is and who the code would make it; it
    switches only when the player presses the page's button (a POST), never on this GET."""
    services = request.app.state.services
    games, _ = lobby_games(services.catalog.engines)
    code = request.query_params.get("code")
    switch = None
    if code is not None:
        address = request.client.host if request.client else "unknown"
        switch = await services.transfers.preview(request.state.player_id, address, code)
    page = render(
        request, "me.html", template_only={"games": games, "switch": switch}, page_name="me"
    )
    if code is not None:  # a code and another player's name: kept by no cache
        page.headers["cache-control"] = "no-store"
    return page


@page("/play/{game}")
async def play(request: Request, game: str) -> HTMLResponse:
    return await game_page(request, game)


@page("/play/{game}/{first}")
async def play_variant_or_number(request: Request, game: str, first: str) -> HTMLResponse:
    """``/play/pairs/41739205-b`` (a shared board) or ``/play/blocks/classic10`` (a variant).
    Anything but one of the game's variants is taken as a number, so a wrong one
    (``/play/pairs/abc``) is refused as a number (``bad_number``), never read as another
    page of the game."""
    catalog = request.app.state.services.catalog
    variants = catalog.engine(game).describe().get("rulesets", {}) if game in catalog else {}
    if first in variants:
        return await game_page(request, game, variant=first)
    return await game_page(request, game, number=first)


@page("/play/{game}/{variant}/{number}")
async def play_variant_number(
    request: Request, game: str, variant: str, number: str
) -> HTMLResponse:
    return await game_page(request, game, variant=variant, number=number)


@page("/daily/{game}")
async def daily(request: Request, game: str) -> HTMLResponse:
    _, daily_games = lobby_games(request.app.state.services.catalog.engines)
    if game not in daily_games:  # no such game, or one without a daily board
        return render(request, "not_found.html", status=404, game=None)
    return await game_page(request, game, daily=True)


@page("/g/{game_id}")
async def resume(request: Request, game_id: str) -> HTMLResponse:
    try:
        game = await request.app.state.services.store.game(game_id)
    except AppError:
        return render(request, "not_found.html", status=404, game=None)
    return await game_page(request, game.engine, game_id=game.id)


# Rows of the replay's move list that show before it scrolls, at most (static/css/replay.css:
# at most 520 px tall, a row 44 px and a gap of 2 px).
REPLAY_LIST_SLOTS = 12


@page("/replay/{game_id}")
async def replay(request: Request, game_id: str) -> HTMLResponse:
    """A game replayed move by move with its own board drawing (static/js/replay.js)."""
    try:
        game = await request.app.state.services.store.game(game_id)
    except AppError:
        return render(request, "not_found.html", status=404, game=None)
    know_games(request)
    # The game's look on the replay page (page class, board box, list title) is its own
    # games/<game>.replay.html, extending replay.html; without one, replay.html's defaults.
    names = [f"games/{game.engine}.replay.html", "replay.html"]
    template = templates.env.select_template(names).name or "replay.html"
    # A finished game of an engine that reviews games offers its review (static/js/review.js),
    # unless it was aborted before it began: nothing to review.
    engines = request.app.state.services.catalog
    reviewable = (
        game.engine in engines
        and reviewer(engines.engine(game.engine)) is not None
        and game.status == GameStatus.OVER
        and not aborted(game)
    )
    # The review as the page is drawn with it, so the note under the controls and the
    # review's summary have their room from the first frame (the board is sized once, the
    # panels under the review stay put): "stored" (the page's first call brings it),
    # "pending" (?review=1 asks for it on load: the end card's "Review"), else "none".
    review_state = "none"
    if reviewable:
        if await request.app.state.services.store.reviewed(game.id):
            review_state = "stored"
        elif request.query_params.get("review") == "1":
            review_state = "pending"
    return render(
        request,
        template,
        game=game.engine,
        game_id=game.id,
        number=game.number,
        reviewable=reviewable,
        review_state=review_state,
        # A game under way opens at its latest move (what its players see), a finished one
        # at the start.
        running=game.status == GameStatus.ACTIVE,
        # The move list's rows, as many as show before it scrolls, held empty until the
        # script fills them: the panels under the list stay where they are.
        list_slots=min(game.version, REPLAY_LIST_SLOTS),
    )


@page("/leaderboard/{game}")
async def leaderboard(request: Request, game: str, clock: str | None = None) -> HTMLResponse:
    """The best-rated players of one pool, rendered on the server (no script needed). The
    pools are tabs by speed; without ``?clock=`` (a pool or a time control, as the API
    takes) the page opens on the fastest pool that has players."""
    services = request.app.state.services
    clocks = (
        services.catalog.engine(game).describe().get("clocks") if game in services.catalog else None
    )
    if not clocks:
        return render(request, "not_found.html", status=404, game=None)
    pools = pools_by_speed(clocks)
    if clock is None:
        played = await services.store.rated_pools(game, services.clock.now_ms())
        pool = next((name for name in pools if name in played), pools[0])
    else:
        try:
            pool = pool_of(clocks, clock)
        except AppError:
            return render(request, "not_found.html", status=404, game=None)
    rows = await services.store.leaderboard(game, pool, services.clock.now_ms())
    return render(
        request,
        "leaderboard.html",
        template_only={
            "rows": rows,
            "pools": pools,
            "pool": pool,
            "game_name": game,
            "rules": BOARD_RULES,
        },
    )


@page("/arenas")
async def arenas(request: Request) -> HTMLResponse:
    """The arenas: running, upcoming and finished ones (static/js/arenas.js reads
    /api/arenas) and the form that creates one."""
    return render(request, "arenas.html", page_name="arenas")


@page("/arenas/{arena_id}")
async def arena(request: Request, arena_id: str, key: str | None = None) -> HTMLResponse:
    """One arena: its countdown, the player's Join / Pause, the live standings
    (static/js/arena.js: GET /api/arenas/{id}, the socket /ws/arenas/{id}). ``key`` opens
    a private arena (its shared link); the page hands it on to the API and the socket."""
    page = render(request, "arena.html", page_name="arena", arena_id=arena_id, key=key)
    if key is not None:  # a private arena's key: kept by no cache
        page.headers["cache-control"] = "no-store"
    return page
