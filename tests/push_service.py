"""A fake push service for tests: an HTTP server on loopback that keeps every request
and answers with the statuses it is told, and a fake browser subscription whose keys can
decrypt what the server sent (``http_ece``, the library pywebpush encrypts with)."""

from __future__ import annotations

import base64
import json
import os
import queue
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


@dataclass
class FakePushService:
    """``statuses[path]`` are answered in turn to requests for ``path`` (201 once they
    run out); ``received`` fills with every request."""

    server: ThreadingHTTPServer
    received: queue.Queue[Received] = field(default_factory=queue.Queue)
    statuses: dict[str, list[int]] = field(default_factory=dict)

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


def start_push_service(delay_s: float = 0.0) -> FakePushService:
    """Serve on a free loopback port; each answer comes ``delay_s`` late (a slow service)."""
    service: FakePushService

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as push services do

        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            length = int(self.headers.get("content-length", "0"))
            body = self.rfile.read(length)
            headers = {key.lower(): value for key, value in self.headers.items()}
            waiting = service.statuses.get(self.path)
            status = waiting.pop(0) if waiting else 201
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
    service = FakePushService(server)
    threading.Thread(target=server.serve_forever, daemon=True).start()
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
