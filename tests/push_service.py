"""A fake push service for tests: an HTTP server on loopback that keeps every request
and answers with the statuses it is told (or drips its answer, a byte at a time: a slow
host the sender must cut), and a fake browser subscription whose keys can decrypt what
the server sent (``http_ece``, the library pywebpush encrypts with)."""

from __future__ import annotations

import base64
import json
import os
import queue
import select
import socket
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass(frozen=True)
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    status: int
    at: float  # time.perf_counter() when it was answered


@dataclass(frozen=True)
class Cut:
    path: str
    after_s: float  # from the request's arrival to the client hanging up mid-answer


@dataclass
class FakePushService:
    """``statuses[path]`` are answered in turn to requests for ``path`` (``status``, 201
    unless told otherwise, once they run out); ``received`` fills with every request.

    A dripping service (``drip_every_s``) sends its status line at once, then one byte
    of a header every ``drip_every_s`` for ``drip_for_s``: a read timeout that counts
    per read never fires. ``received`` gets the request when it arrives, ``cuts`` when
    the client hangs up before the answer ends; ``open`` is the answers dripping now."""

    server: ThreadingHTTPServer
    received: queue.Queue[Received] = field(default_factory=queue.Queue)
    statuses: dict[str, list[int]] = field(default_factory=dict)
    status: int = 201
    drip_every_s: float | None = None
    drip_for_s: float = 60.0
    cuts: queue.Queue[Cut] = field(default_factory=queue.Queue)
    open: int = 0
    most_open: int = 0  # the most answers dripping at once
    lock: threading.Lock = field(default_factory=threading.Lock)
    stopped: threading.Event = field(default_factory=threading.Event)

    @property
    def host_port(self) -> str:
        return f"127.0.0.1:{self.server.server_address[1]}"

    def endpoint(self, name: str) -> str:
        return f"http://{self.host_port}/push/{name}"

    def next(self, timeout: float = 10.0) -> Received:
        return self.received.get(timeout=timeout)

    def nothing_within(self, seconds: float) -> bool:
        try:
            self.received.get(timeout=seconds)
        except queue.Empty:
            return True
        return False

    def stop(self) -> None:
        self.stopped.set()  # dripping answers end
        self.server.shutdown()
        self.server.server_close()

    def drip(self, handler: BaseHTTPRequestHandler, path: str, arrived: float) -> None:
        """Answer a status line, then a header a byte at a time until ``drip_for_s`` has
        passed (then end the answer) or the client hangs up (a cut)."""
        assert self.drip_every_s is not None
        with self.lock:
            self.open += 1
            self.most_open = max(self.most_open, self.open)
        connection = handler.connection
        try:
            handler.wfile.write(b"HTTP/1.1 201 Created\r\nX-Drip: ")
            handler.wfile.flush()
            until = arrived + self.drip_for_s
            while time.perf_counter() < until and not self.stopped.is_set():
                readable, _, _ = select.select([connection], [], [], self.drip_every_s)
                if readable and not connection.recv(1, socket.MSG_PEEK):
                    self.cuts.put(Cut(path, time.perf_counter() - arrived))
                    handler.close_connection = True
                    return
                handler.wfile.write(b"x")
                handler.wfile.flush()
            handler.wfile.write(b"\r\ncontent-length: 0\r\n\r\n")
            handler.wfile.flush()
        except OSError:
            self.cuts.put(Cut(path, time.perf_counter() - arrived))
            handler.close_connection = True
        finally:
            with self.lock:
                self.open -= 1


def start_push_service(
    delay_s: float = 0.0,
    status: int = 201,
    drip_every_s: float | None = None,
    drip_for_s: float = 60.0,
) -> FakePushService:
    """Serve on a free loopback port; each answer comes ``delay_s`` late (a slow service),
    with ``status`` (unless ``statuses`` names one for the path), or drips (see
    ``FakePushService``)."""
    service: FakePushService

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as push services do

        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            length = int(self.headers.get("content-length", "0"))
            body = self.rfile.read(length)
            headers = {key.lower(): value for key, value in self.headers.items()}
            if service.drip_every_s is not None:
                arrived = time.perf_counter()
                service.received.put(Received(self.path, headers, body, 201, arrived))
                service.drip(self, self.path, arrived)
                return
            waiting = service.statuses.get(self.path)
            status = waiting.pop(0) if waiting else service.status
            if delay_s:
                time.sleep(delay_s)
            self.send_response(status)
            self.send_header("content-length", "0")
            self.end_headers()
            service.received.put(Received(self.path, headers, body, status, time.perf_counter()))

        def log_message(self, *args: Any) -> None:
            pass

    class Server(ThreadingHTTPServer):
        def handle_error(self, request: Any, client_address: Any) -> None:
            pass  # a client that drops its kept-alive connection is no news here

    server = Server(("127.0.0.1", 0), Handler)
    service = FakePushService(
        server, status=status, drip_every_s=drip_every_s, drip_for_s=drip_for_s
    )
    # A short poll: shutdown() waits for the loop's next look (0.5 s by default, paid by
    # every test that starts the service).
    threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True).start()
    return service


class Browser:
    """A browser's side of one subscription: its key pair and auth secret."""

    def __init__(self, endpoint: str) -> None:
        self.endpoint = endpoint
        self.private_key = ec.generate_private_key(ec.SECP256R1())
        point = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.auth = os.urandom(16)
        self.p256dh = b64url(point)

    def subscription(self, kinds: list[str]) -> dict[str, Any]:
        return {
            "endpoint": self.endpoint,
            "keys": {"p256dh": self.p256dh, "auth": b64url(self.auth)},
            "kinds": kinds,
        }

    def decrypt(self, received: Received) -> dict[str, Any]:
        assert received.headers["content-encoding"] == "aes128gcm"
        plain = http_ece.decrypt(
            received.body,
            private_key=self.private_key,
            auth_secret=self.auth,
            version="aes128gcm",
        )
        notice: dict[str, Any] = json.loads(plain)
        return notice
