"""Which push endpoints a subscription may name.

A subscription's endpoint is a URL the browser got from its push service (FCM, Mozilla's
autopush, Apple's); the server later POSTs to it. A player could name any URL instead, so
the server would become their way into places only it can reach. Hence:

- at subscribe time (no lookup, nothing sent): ``https``, port 443, a host name with a
  dot that is not ``localhost``/``*.local``/``*.internal`` and so on, or a literal IP
  address that is global; anything else is 422 ``bad_endpoint``;
- at send time: the host is resolved (in the sender's thread) and every address must be
  global, so a name that points at a private address (now, or after it was admitted)
  gets nothing either. The request goes to the address just checked (not resolved a
  second time: ``pinned``) and follows no redirect.

``PUSH_ENDPOINT_ALLOW`` (``host:port`` pairs) admits other endpoints, over http too: the
tests' fake push service on loopback, or a private deployment's own.
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from app.errors import AppError
from engines.core.errors import AppCode

LOCAL_SUFFIXES = (".localhost", ".local", ".internal", ".lan", ".home", ".arpa", ".intranet")
MAX_LENGTH = 1024


class BadEndpoint(Exception):
    """An endpoint the server will not send to (checked again at send time)."""


def host_port(url: str) -> tuple[str, str, int]:
    """(scheme, host, port) of ``url``, or BadEndpoint when it has no host or port."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise BadEndpoint(str(error)) from None
    host = (parts.hostname or "").lower()
    if not host or parts.username or parts.password:
        raise BadEndpoint("no host, or a user name in the URL")
    default = {"https": 443, "http": 80}.get(parts.scheme)
    if default is None:
        raise BadEndpoint(f"scheme {parts.scheme!r}")
    return parts.scheme, host, port or default


def allowed_by_list(host: str, port: int, allow: frozenset[str]) -> bool:
    name = f"[{host}]" if ":" in host else host
    return f"{name}:{port}" in allow


def literal_address(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


def is_public(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    mapped = getattr(address, "ipv4_mapped", None)
    return bool((mapped or address).is_global) and not address.is_multicast


def check_endpoint(url: str, allow: frozenset[str]) -> None:
    """Refuse (422 ``bad_endpoint``) an endpoint the server would not send to; no
    lookup, no request."""
    try:
        scheme, host, port = host_port(url)
        if len(url) > MAX_LENGTH:
            raise BadEndpoint("longer than 1024 characters")
        if allowed_by_list(host, port, allow):
            return
        if scheme != "https" or port != 443:
            raise BadEndpoint("not https on port 443")
        address = literal_address(host)
        if address is not None:
            if not is_public(address):
                raise BadEndpoint("a private, loopback or link-local address")
        elif "." not in host or host == "localhost" or host.endswith(LOCAL_SUFFIXES):
            raise BadEndpoint("a local host name")
    except BadEndpoint as error:
        raise AppError(
            AppCode.BAD_ENDPOINT,
            "a push endpoint must be an https URL of a public push service",
            {"reason": str(error)},
        ) from None


def pinned(url: str, allow: frozenset[str]) -> str:
    """At send time (blocking: call it in a thread): the address to connect to, after
    resolving the host; BadEndpoint when any address it has is not public (unless the
    endpoint is on the allow list, whose host is then used as it is)."""
    _, host, port = host_port(url)
    if allowed_by_list(host, port, allow):
        return host
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as error:
        raise BadEndpoint(f"{host} does not resolve: {error}") from None
    addresses = [ipaddress.ip_address(info[4][0]) for info in infos]
    if not addresses or not all(is_public(address) for address in addresses):
        raise BadEndpoint(f"{host} resolves to a non-public address")
    return str(addresses[0])
