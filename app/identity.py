"""Anonymous identity: a player id in a signed, HttpOnly, SameSite=Lax cookie.

The id is created on a player's first visit and is their only credential; seats belong
to it. A cookie whose signature does not verify is ignored and replaced by a new id, so
a forged or edited cookie never speaks for someone else.
"""

from __future__ import annotations

import secrets
from http.cookies import SimpleCookie

from itsdangerous import BadSignature, Signer
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

COOKIE = "player"
COOKIE_MAX_AGE = 400 * 24 * 3600  # the longest lifetime browsers keep


def new_player_id() -> str:
    return secrets.token_urlsafe(16)


class CookieSigner:
    def __init__(self, secret: str) -> None:
        self._signer = Signer(secret, salt="player-id")

    def sign(self, player_id: str) -> str:
        return self._signer.sign(player_id.encode()).decode()

    def unsign(self, value: str | None) -> str | None:
        if not value:
            return None
        try:
            return self._signer.unsign(value.encode()).decode()
        except BadSignature:
            return None


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
    """Puts ``scope["state"]["player_id"]`` on every HTTP request; sets the cookie if new.

    WebSocket connections only read the cookie (a socket cannot set one); a socket
    without a valid cookie is a spectator.
    """

    def __init__(self, app: ASGIApp, signer: CookieSigner, secure: bool) -> None:
        self.app = app
        self.signer = signer
        self.secure = secure

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        cookie = headers.get(b"cookie", b"").decode("latin-1") or None
        player_id = player_from_headers(self.signer, cookie)
        fresh = player_id is None and scope["type"] == "http"
        if fresh:
            player_id = new_player_id()
        scope.setdefault("state", {})["player_id"] = player_id
        if not fresh:
            await self.app(scope, receive, send)
            return

        assert player_id is not None
        cookie_value = self._cookie(player_id)

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message).append("set-cookie", cookie_value)
            await send(message)

        await self.app(scope, receive, send_with_cookie)

    def _cookie(self, player_id: str) -> str:
        parts = [
            f"{COOKIE}={self.signer.sign(player_id)}",
            "Path=/",
            f"Max-Age={COOKIE_MAX_AGE}",
            "HttpOnly",
            "SameSite=Lax",
        ]
        if self.secure:
            parts.append("Secure")
        return "; ".join(parts)
