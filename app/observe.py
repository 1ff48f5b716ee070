"""The request observer: a request id for every request and socket, one access line per
answer, and the HTTP and WebSocket metrics (``app/metrics.py``).

``X-Request-ID`` from the client or the proxy is kept when it looks like an id (else one
is made) and sent back with the answer. Routes are labelled by their template
(``/api/games/{game_id}``), never a raw path, so the metrics keep a bounded number of
series whatever clients ask for. Probes and scrapes (``PROBE_PATHS``) are logged at
DEBUG only: an orchestrator polls them every few seconds.
"""

from __future__ import annotations

import logging
import re
import secrets
import time

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.health import PROBE_PATHS
from app.identity import CookieSigner, player_from_headers
from app.logs import REQUEST, RequestContext, player_tag
from app.metrics import WEBSOCKET_CLOSES, WEBSOCKETS_OPEN, http_requests, http_seconds

access = logging.getLogger("app.access")

REQUEST_ID = re.compile(r"[A-Za-z0-9._:/+=-]{1,128}")
UNMATCHED = "unmatched"  # a path no route serves (a 404): one label for all of them
NO_CLOSE_CODE = 1006  # the connection ended without a close frame
# Labels come from bounded sets: a client choosing its method or close code must not be
# able to make a new series (and its memory) per request.
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
CLOSE_CODES = frozenset({1000, 1001, 1005, 1006, 1008, 1009, 1011, 1012, 1013, 4403, 4404, 4408})


def method_label(method: str) -> str:
    return method if method in METHODS else "OTHER"


def close_label(code: int) -> str:
    return str(code) if code in CLOSE_CODES else "other"


def request_id_of(scope: Scope) -> str:
    for name, value in scope["headers"]:
        if name == b"x-request-id":
            given: str = value.decode("latin-1")
            if REQUEST_ID.fullmatch(given):
                return given
            break
    return secrets.token_hex(8)


def route_of(scope: Scope) -> str:
    route = scope.get("route")
    return str(getattr(route, "path", UNMATCHED)) if route is not None else UNMATCHED


class RequestObserver:
    def __init__(self, app: ASGIApp, signer: CookieSigner, secret: str) -> None:
        self.app = app
        self.signer = signer
        self.secret = secret

    def _context(self, scope: Scope, request_id: str) -> RequestContext:
        cookie = next((v for k, v in scope["headers"] if k == b"cookie"), b"")
        player = player_from_headers(self.signer, cookie.decode("latin-1") or None)
        method = scope.get("method", "WS")
        return RequestContext(request_id, method, scope, player_tag(self.secret, player))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket":
            await self._websocket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = time.perf_counter()
        request_id = request_id_of(scope)
        REQUEST.set(self._context(scope, request_id))
        status = 500  # what the server answers when the app ends without answering

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                MutableHeaders(scope=message).append("x-request-id", request_id)
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            took = time.perf_counter() - started
            route = route_of(scope)
            method = method_label(scope["method"])
            http_requests(method, route, status).inc()
            http_seconds(method, route).observe(took)
            path = scope["path"]
            level = logging.DEBUG if path in PROBE_PATHS else logging.INFO
            if access.isEnabledFor(level):
                access.log(
                    level,
                    "%s %s %d %.1f ms",
                    scope["method"],
                    path,
                    status,
                    took * 1000,
                    extra={"path": path, "status": status, "duration_ms": round(took * 1000, 1)},
                )

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = time.perf_counter()
        REQUEST.set(self._context(scope, request_id_of(scope)))
        accepted = False
        code: int | None = None

        async def observed_send(message: Message) -> None:
            nonlocal accepted, code
            kind = message["type"]
            if kind == "websocket.accept" and not accepted:
                accepted = True
                WEBSOCKETS_OPEN.inc()
            elif kind == "websocket.close" and code is None:
                code = int(message.get("code", 1000))
            await send(message)

        async def observed_receive() -> Message:
            nonlocal code
            message = await receive()
            if message["type"] == "websocket.disconnect" and code is None:
                code = int(message.get("code", NO_CLOSE_CODE))
            return message

        try:
            await self.app(scope, observed_receive, observed_send)
        finally:
            if accepted:
                WEBSOCKETS_OPEN.dec()
            closed_with = NO_CLOSE_CODE if code is None else code
            WEBSOCKET_CLOSES.labels(close_label(closed_with)).inc()
            took = time.perf_counter() - started
            access.info(
                "WS %s closed %d after %.1f s",
                scope["path"],
                closed_with,
                took,
                extra={"path": scope["path"], "code": closed_with},
            )
