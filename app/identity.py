"""Anonymous identity: a player id in a signed, HttpOnly, SameSite=Lax cookie.

The id is created on a player's first visit and is their only credential; seats belong
to it. A cookie whose signature does not verify, or whose id is not one the server issues
(22 url-safe characters; never the computer's seat or another reserved id), is ignored
and replaced by a new id, so a forged or edited cookie never speaks for someone else.
The cookie is Secure whenever the request came over HTTPS (directly or through a
trusted proxy, see ``app.middleware.TrustedProxyMiddleware``).
"""

from __future__ import annotations

import re
import secrets
from http.cookies import SimpleCookie

from itsdangerous import BadSignature, Signer
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

COOKIE = "player"
COOKIE_MAX_AGE = 400 * 24 * 3600  # the longest lifetime browsers keep
PLAYER_ID = re.compile(r"[A-Za-z0-9_-]{22}")  # secrets.token_urlsafe(16)
RESERVED_IDS = frozenset({"computer"})  # seats the server fills itself


def new_player_id() -> str:
    return secrets.token_urlsafe(16)


def is_player_id(value: str) -> bool:
    """True for an id of the form the server issues (and never a reserved one)."""
    return PLAYER_ID.fullmatch(value) is not None and value not in RESERVED_IDS


class CookieSigner:
    def __init__(self, secret: str) -> None:
        self._signer = Signer(secret, salt="player-id")

    def sign(self, player_id: str) -> str:
        return self._signer.sign(player_id.encode()).decode()

    def unsign(self, value: str | None) -> str | None:
        if not value:
            return None
        try:
            player_id = self._signer.unsign(value.encode()).decode()
        except (BadSignature, UnicodeError):
            return None
        return player_id if is_player_id(player_id) else None


def player_from_headers(signer: CookieSigner, cookie_header: str | None) -> str | None:
    if not cookie_header:
        return None
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(cookie_header)
    except Exception:  # a malformed Cookie header is the same as none
        return None
    morsel = jar.get(COOKIE)
    return signer.unsign(morsel.value if morsel else None)


class IdentityMiddleware:
    """Puts ``scope["state"]["player_id"]`` on every HTTP request (and ``new_player``:
    whether it was made now); sets the cookie if new.

    WebSocket connections only read the cookie (a socket cannot set one); a socket
    without a valid cookie is a spectator.
    """

    def __init__(
        self,
        app: ASGIApp,
        signer: CookieSigner,
        secure: bool = False,
        anonymous: frozenset[str] = frozenset(),
        anonymous_prefixes: tuple[str, ...] = (),
    ) -> None:
        self.app = app
        self.signer = signer
        self.secure = secure  # always Secure, even over plain HTTP
        self.anonymous = anonymous  # paths served to no player (probes): no cookie
        self.anonymous_prefixes = anonymous_prefixes  # and trees of them (static files)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] not in ("http", "websocket")
            or scope["path"] in self.anonymous
            or scope["path"].startswith(self.anonymous_prefixes)
        ):
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        cookie = headers.get(b"cookie", b"").decode("latin-1") or None
        player_id = player_from_headers(self.signer, cookie)
        fresh = player_id is None and scope["type"] == "http"
        if fresh:
            player_id = new_player_id()
        scope.setdefault("state", {})["player_id"] = player_id
        # the id was made for this request (no valid cookie came): a route that would
        # store something for the player may refuse instead (POST /api/me/push)
        scope["state"]["new_player"] = fresh
        if not fresh:
            await self.app(scope, receive, send)
            return

        assert player_id is not None
        cookie_value = self._cookie(player_id, self.secure or scope.get("scheme") == "https")

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                # A response that names the player itself (a device transfer's claim)
                # keeps its own cookie: a second one would replace it in the browser.
                if not any(v.startswith(f"{COOKIE}=") for v in headers.getlist("set-cookie")):
                    headers.append("set-cookie", cookie_value)
            await send(message)

        await self.app(scope, receive, send_with_cookie)

    def _cookie(self, player_id: str, secure: bool) -> str:
        return player_cookie(self.signer, player_id, secure)


def player_cookie(signer: CookieSigner, player_id: str, secure: bool) -> str:
    """The ``Set-Cookie`` value that makes a browser this player."""
    parts = [
        f"{COOKIE}={signer.sign(player_id)}",
        "Path=/",
        f"Max-Age={COOKIE_MAX_AGE}",
        "HttpOnly",
        "SameSite=Lax",
    ]
    if secure:
        parts.append("Secure")
    return "; ".join(parts)
