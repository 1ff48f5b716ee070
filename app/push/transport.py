"""One POST to a push service, in a sender thread, within a wall-clock deadline.

A socket timeout bounds each read, not the request: a host that answers a status line
and then a byte every few seconds never lets one expire, and would hold the thread for
as long as it likes. So every send has a ``Deadline``: the thread registers the socket
it is using, and at the deadline the event loop shuts that socket down, which ends any
read, write or TLS handshake the thread is blocked in. Connect and each operation also
get the time left as their timeout. The name lookup (``pinned``) cannot be interrupted;
it is bounded by the resolver's own timeouts, and no byte is sent once the deadline has
passed.

Connections are kept per (scheme, address, port, host) for the next notice to the same
push service (a TCP and TLS handshake costs more than a notice): at most ``per_host``
idle each, in at most ``POOLS`` keys. A connection a deadline cut, or that ended badly,
is never kept.
"""

from __future__ import annotations

import http.client
import select
import socket
import ssl
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from functools import cached_property
from typing import TypeVar
from urllib.parse import urlsplit

from app.push.endpoints import host_port
from app.push.keys import VapidKeys

JWT_LIFE_S = 12 * 3600
MAX_ANSWER = 64 * 1024  # bytes of a push service's answer read (it is not used)
Key = tuple[str, str, int, str]
Sock = TypeVar("Sock", bound=socket.socket)


class Deadline:
    """The end of one send. ``expire`` (from the event loop, or a stop) shuts the socket
    the thread registered; afterwards the thread starts nothing new."""

    def __init__(self, seconds: float) -> None:
        self.ends = time.monotonic() + seconds
        self.lock = threading.Lock()
        self.sock: socket.socket | None = None
        self.expired = False

    def remaining(self) -> float:
        left = self.ends - time.monotonic()
        if self.expired or left <= 0:
            raise TimeoutError("the send's deadline passed")
        return left

    def watch(self, make: Callable[[], Sock]) -> Sock:
        """Register the socket ``make`` returns (made under the lock: wrapping a socket in
        TLS takes over its descriptor, and a cut must not fall between the two)."""
        with self.lock:
            if self.expired:
                raise TimeoutError("the send's deadline passed")
            self.sock = make()
            return self.sock

    def release(self) -> None:
        """The thread is done with its socket (before it is closed or kept)."""
        with self.lock:
            self.sock = None

    def expire(self) -> None:
        with self.lock:
            self.expired = True
            if self.sock is not None:
                try:  # the plain socket's shutdown, also for TLS: it only ends the I/O
                    socket.socket.shutdown(self.sock, socket.SHUT_RDWR)
                except OSError:
                    pass


class Connections:
    """What sends reuse, shared by the sender's threads: idle connections per push
    service address, a TLS context, and each audience's VAPID header, signed once and
    reused for most of its life."""

    POOLS = 64
    REUSE_S = JWT_LIFE_S - 3600  # a header is re-signed an hour before its token expires

    def __init__(self, per_host: int) -> None:
        self.per_host = per_host
        self.lock = threading.Lock()
        self.idle: OrderedDict[Key, list[http.client.HTTPConnection]] = OrderedDict()
        self.headers: dict[tuple[str, str], tuple[float, dict[str, str]]] = {}

    @cached_property
    def tls(self) -> ssl.SSLContext:
        """Made at the first send over TLS: loading the system's CA certificates costs
        10-20 ms, which a process that sends no notification (and each app a test
        starts) need not pay."""
        return ssl.create_default_context()

    def take(self, key: Key) -> http.client.HTTPConnection | None:
        """An idle connection the service has not closed, or None."""
        while True:
            with self.lock:
                kept = self.idle.get(key)
                if not kept:
                    return None
                connection = kept.pop()
            sock = connection.sock
            readable = sock is None or select.select([sock], [], [], 0)[0]
            if not readable:  # nothing to read on an idle connection: it is still open
                return connection
            connection.close()

    def give_back(self, key: Key, connection: http.client.HTTPConnection) -> None:
        closing: list[http.client.HTTPConnection] = []
        with self.lock:
            kept = self.idle.pop(key, [])
            if len(kept) < self.per_host:
                kept.append(connection)
            else:
                closing.append(connection)
            self.idle[key] = kept  # the most recently used last
            while len(self.idle) > self.POOLS:
                closing.extend(self.idle.popitem(last=False)[1])
        for extra in closing:
            extra.close()

    def close(self) -> None:
        with self.lock:
            kept = [connection for pool in self.idle.values() for connection in pool]
            self.idle.clear()
        for connection in kept:
            connection.close()

    def open(self, key: Key, deadline: Deadline) -> http.client.HTTPConnection:
        scheme, address, port, host = key
        raw = socket.create_connection((address, port), timeout=deadline.remaining())
        sock = raw
        try:
            deadline.watch(lambda: raw)
            if scheme == "https":
                tls = deadline.watch(
                    lambda: self.tls.wrap_socket(
                        raw, server_hostname=host, do_handshake_on_connect=False
                    )
                )
                sock = tls  # it owns the descriptor now
                tls.settimeout(deadline.remaining())
                tls.do_handshake()
        except BaseException:
            deadline.release()
            sock.close()
            raise
        connection = http.client.HTTPConnection(address, port)
        connection.sock = sock  # http.client uses it as it is: no connect of its own
        return connection

    def vapid(self, keys: VapidKeys, contact: str, audience: str) -> dict[str, str]:
        now = time.time()
        with self.lock:
            kept = self.headers.get((contact, audience))
            if kept is not None and kept[0] > now:
                return kept[1]
        claims = {"sub": contact, "aud": audience, "exp": int(now) + JWT_LIFE_S}
        signed: dict[str, str] = keys.vapid.sign(claims)
        with self.lock:
            if len(self.headers) > 1024:
                self.headers.clear()
            self.headers[(contact, audience)] = (now + self.REUSE_S, signed)
        return signed


def exchange(
    connection: http.client.HTTPConnection,
    deadline: Deadline,
    path: str,
    body: bytes,
    headers: dict[str, str],
) -> tuple[int, bool]:
    """POST on ``connection`` and read the answer: (status, whether the connection may
    be kept)."""
    sock = connection.sock
    assert sock is not None
    deadline.watch(lambda: sock)
    sock.settimeout(deadline.remaining())
    connection.request("POST", path, body=body, headers=headers)
    response = connection.getresponse()
    response.read(MAX_ANSWER)
    if deadline.expired:  # a cut answer can look whole (EOF ends the headers too)
        raise TimeoutError("the send's deadline passed")
    keep = not response.will_close and response.isclosed()
    return response.status, keep


def post(
    url: str,
    address: str,
    body: bytes,
    headers: dict[str, str],
    connections: Connections,
    deadline: Deadline,
) -> int:
    """POST ``body`` to ``address`` (the endpoint's, checked: ``pinned``) within
    ``deadline``, following no redirect: the status. Blocking: called in a sender
    thread. A kept connection the service closed meanwhile is replaced once."""
    scheme, host, port = host_port(url)
    deadline.remaining()  # the lookup may have used it up
    key: Key = (scheme, address, port, host)
    parts = urlsplit(url)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    sent_headers = {**headers, "Host": parts.netloc}
    connection = connections.take(key)
    reused = connection is not None
    while True:
        if connection is None:
            connection = connections.open(key, deadline)
        try:
            status, keep = exchange(connection, deadline, path, body, sent_headers)
        except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
            deadline.release()
            connection.close()
            if not reused or deadline.expired:
                raise
            connection, reused = None, False  # a kept connection the service had closed
            continue
        except BaseException:
            deadline.release()
            connection.close()
            raise
        deadline.release()
        if keep:
            connections.give_back(key, connection)
        else:
            connection.close()
        return status
