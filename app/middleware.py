"""ASGI middleware: trusted proxies, same-origin checks, request body limit and security
headers.

Order, outermost first (see ``app.main.Site``): security headers (so every response has
them, Starlette's own 500 included), trusted proxy headers, Starlette's error handler,
the origin check, the body limit, identity, the routes.
"""

from __future__ import annotations

import json

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from app.errors import STATUS
from engines.core.errors import AppCode

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self' ws: wss:; font-src 'self'; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "x-frame-options": "DENY",
    "permissions-policy": "camera=(), microphone=(), geolocation=()",
}
# Scripts, styles, JSON files and raster images are never documents, so the document
# policies above mean nothing on them; they get nosniff alone (450 bytes of unused headers
# on each of a game page's files was an eighth of a cold page load). An SVG can be a
# document: it keeps every header.
SUBRESOURCE_HEADERS = {"x-content-type-options": "nosniff"}
SUBRESOURCE_TYPES = (b"text/javascript", b"text/css", b"application/json", b"image/png")
# A JSON answer is data, not a document: nothing in it may load or frame anything (OWASP's
# advice for APIs). The page policy's 250 bytes, the referrer and permissions policies
# were 310 bytes of every API answer, a move's included.
JSON_HEADERS = {
    "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
}


def headers_for(path: str, content_type: bytes) -> dict[str, str]:
    """The security headers a response gets: all of them on documents, the data policy on
    JSON answers, nosniff alone on static subresources."""
    if path.startswith("/static/") and content_type.startswith(SUBRESOURCE_TYPES):
        return SUBRESOURCE_HEADERS
    if content_type.startswith(b"application/json"):
        return JSON_HEADERS
    return SECURITY_HEADERS


async def _send_error(send: Send, code: AppCode, message: str) -> None:
    """The app's error body for ``code``, with the status the one table gives it."""
    status = STATUS[code]
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def too_large(limit: int) -> str:
    return f"request bodies are limited to {limit} bytes"


class BodyLimitMiddleware:
    """Refuses request bodies over ``limit`` bytes with 413, before the app reads them.
    ``paths`` names the few routes whose bodies are larger by nature (a whole game's log
    sent for verification) and their own limit."""

    def __init__(self, app: ASGIApp, limit: int, paths: dict[str, int] | None = None) -> None:
        self.app = app
        self.default = limit
        self.paths = paths or {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.paths.get(scope["path"], self.default)
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await _send_error(send, AppCode.TOO_LARGE, too_large(limit))
            return
        # Read the body up front (it is small by now) so a chunked body is limited too.
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await _send_error(send, AppCode.TOO_LARGE, too_large(limit))
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


class SecurityHeadersMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                content_type = headers.get("content-type", "").encode("latin-1")
                for name, value in headers_for(scope["path"], content_type).items():
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)


class TrustedProxyMiddleware(ProxyHeadersMiddleware):
    """Takes the scheme and client address from ``X-Forwarded-Proto``/``X-Forwarded-For``
    when, and only when, the connection comes from a trusted proxy (FORWARDED_ALLOW_IPS).

    Uvicorn applies the same middleware with the same setting when it serves the app;
    applying it twice changes nothing (the second pass sees the real client, untrusted,
    or recomputes the same result), and the app keeps one rule under any server or in
    tests.
    """

    def __init__(self, app: ASGIApp, trusted: list[str] | str) -> None:
        super().__init__(app, trusted_hosts=trusted)  # type: ignore[arg-type]


def client_address(scope: Scope) -> str:
    """The client's IP address, as trusted proxies reported it ("" when unknown).

    Valid inside the app (below ``TrustedProxyMiddleware``); per-address limits use this.
    """
    client = scope.get("client")
    return str(client[0]) if client else ""


_DEFAULT_PORTS = {"http": "80", "https": "443"}
_UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
BAD_ORIGIN = AppCode.BAD_ORIGIN  # the body's code, and the close reason of a refused socket


def normalize_origin(origin: str) -> str:
    """``scheme://host[:port]`` in lower case, without the scheme's default port."""
    origin = origin.strip().rstrip("/").lower()
    scheme, sep, host = origin.partition("://")
    if not sep:
        return origin
    default = _DEFAULT_PORTS.get(scheme)
    if default and host.endswith(":" + default) and not host.endswith("]"):
        host = host[: -len(default) - 1]
    return f"{scheme}://{host}"


def own_origin(scope: Scope) -> str:
    """The origin the request was addressed to: its scheme (after trusted proxy headers)
    and its Host header."""
    scheme = str(scope.get("scheme", "http"))
    scheme = {"ws": "http", "wss": "https"}.get(scheme, scheme)
    host = ""
    for name, value in scope["headers"]:
        if name == b"host":
            host = value.decode("latin-1")
            break
    if not host and scope.get("server"):
        server_host, port = scope["server"][0], scope["server"][1]
        host = f"{server_host}:{port}" if port else str(server_host)
    return normalize_origin(f"{scheme}://{host}")


class OriginMiddleware:
    """Refuses cross-site writes: a POST/PUT/PATCH/DELETE request or a WebSocket upgrade
    whose ``Origin`` is neither the site's own nor one of ``allowed`` gets 403 ``bad_origin``
    (a socket is closed before it is accepted, which the server sends as HTTP 403).
    Requests without ``Origin`` (scripts, tools, the bench) pass: browsers always send it
    on these requests.
    """

    def __init__(self, app: ASGIApp, allowed: frozenset[str] = frozenset()) -> None:
        self.app = app
        self.allowed = frozenset(normalize_origin(origin) for origin in allowed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "websocket" or (kind == "http" and scope["method"] in _UNSAFE_METHODS):
            origin = next((v for k, v in scope["headers"] if k == b"origin"), None)
            if origin is not None and not self._allows(origin.decode("latin-1"), scope):
                if kind == "http":
                    await _send_error(send, BAD_ORIGIN, "cross-site requests are not accepted")
                else:
                    await receive()  # websocket.connect
                    await send({"type": "websocket.close", "code": 1008, "reason": BAD_ORIGIN})
                return
        await self.app(scope, receive, send)

    def _allows(self, origin: str, scope: Scope) -> bool:
        origin = normalize_origin(origin)
        return origin == own_origin(scope) or origin in self.allowed
