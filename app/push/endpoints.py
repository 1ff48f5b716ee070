"""Which push endpoints a subscription may name.

A subscription's endpoint is a URL the browser got from its push service (FCM, Mozilla's
autopush, Apple's); the server later POSTs to it. A player could name any URL instead, so
the server would become their way into places only it can reach. Hence:

- at subscribe time (no lookup, nothing sent): printable ASCII only (no NUL, no spaces),
  ``https``, port 443, and a host that is a well-formed name with a dot (labels of at
  most 63 letters, digits, ``-`` or ``_``, 253 characters in all) and not
  ``localhost``/``*.local``/``*.internal`` and so on, or a literal IP address that is
  global. A name whose last label is a number is an IPv4 address in another spelling
  (``127.1``, ``0x7f.0.0.1``, ``2130706433``: resolvers read them so) and only the
  dotted-decimal one is admitted, then checked. An IPv6 address that carries an IPv4
  one (mapped, NAT64 ``64:ff9b::/96``, 6to4, Teredo) is judged by that IPv4 address too;
  IPv4-compatible ``::/96`` and local-use NAT64 ``64:ff9b:1::/48`` never pass. Anything
  else is 422 ``bad_endpoint``;
- at send time: the same form checks, then the host is resolved (in the sender's thread)
  and every address must pass the same test, so a name that points at a private address
  (now, or after it was admitted) gets nothing either. The request goes to the address
  just checked (not resolved a second time: ``pinned``) and follows no redirect.

``PUSH_ENDPOINT_ALLOW`` (``host:port`` pairs) admits other endpoints, over http too: the
tests' fake push service on loopback, or a private deployment's own.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from urllib.parse import urlsplit

from app.errors import AppError
from engines.core.errors import AppCode

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

LOCAL_SUFFIXES = (".localhost", ".local", ".internal", ".lan", ".home", ".arpa", ".intranet")
MAX_LENGTH = 1024
MAX_HOST = 253  # a DNS name's longest text form; a label is at most 63 (RFC 1035)
PRINTABLE = re.compile(r"[\x21-\x7e]*")
LABEL = re.compile(r"[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?")
NUMBER = re.compile(r"0x[0-9a-f]*|[0-9]+")  # a label a resolver reads as (part of) IPv4
PRIVATE = "a private, loopback or link-local address"
COMPATIBLE = ipaddress.IPv6Network("::/96")  # deprecated IPv4-compatible addresses
NAT64 = ipaddress.IPv6Network("64:ff9b::/96")  # RFC 6052: the IPv4 address is the last 32 bits
NAT64_LOCAL = ipaddress.IPv6Network("64:ff9b:1::/48")  # RFC 8215: a network's own translator


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


def literal_address(host: str) -> Address | None:
    """The address ``host`` spells in the standard form (dotted decimal, or IPv6 as
    brackets hold it); None for a name. BadEndpoint for an IPv6-looking host that is
    no address."""
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        if ":" in host:
            raise BadEndpoint("not an IP address") from None
        return None


def embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 one carries to its destination, if any."""
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address in NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    if address.sixtofour is not None:
        return address.sixtofour
    if address.teredo is not None:
        return address.teredo[1]  # the client's address (the server's is public anyway)
    return None


def is_public(address: Address) -> bool:
    if isinstance(address, ipaddress.IPv6Address):
        if address in COMPATIBLE or address in NAT64_LOCAL:
            return False
        inner = embedded_ipv4(address)
        if inner is not None:
            if not is_public(inner):
                return False
            if address.ipv4_mapped is not None:
                return True  # ::ffff:a.b.c.d is a.b.c.d (the IPv6 form is never "global")
    return bool(address.is_global) and not address.is_multicast


def check_name(host: str) -> str:
    """``host``, a name, without its trailing dot; BadEndpoint unless it is well formed
    (what a resolver would take as an IPv4 address in another spelling is not)."""
    name = host[:-1] if host.endswith(".") else host
    if len(name) > MAX_HOST:
        raise BadEndpoint(f"a host name longer than {MAX_HOST} characters")
    labels = name.split(".")
    if any(len(label) > 63 for label in labels):
        raise BadEndpoint("a host name label longer than 63 characters")
    if not all(LABEL.fullmatch(label) for label in labels):
        raise BadEndpoint("not a host name")
    if NUMBER.fullmatch(labels[-1]):
        raise BadEndpoint("an IPv4 address not in dotted-decimal form")
    return name


def check_endpoint(url: str, allow: frozenset[str]) -> None:
    """Refuse (422 ``bad_endpoint``) an endpoint the server would not send to; no
    lookup, no request."""
    try:
        if len(url) > MAX_LENGTH:
            raise BadEndpoint("longer than 1024 characters")
        if not PRINTABLE.fullmatch(url):
            raise BadEndpoint("a character that is not printable ASCII")
        scheme, host, port = host_port(url)
        if allowed_by_list(host, port, allow):
            return
        if scheme != "https" or port != 443:
            raise BadEndpoint("not https on port 443")
        address = literal_address(host)
        if address is not None:
            if not is_public(address):
                raise BadEndpoint(PRIVATE)
            return
        name = check_name(host)
        if "." not in name or name == "localhost" or name.endswith(LOCAL_SUFFIXES):
            raise BadEndpoint("a local host name")
    except BadEndpoint as error:
        raise AppError(
            AppCode.BAD_ENDPOINT,
            "a push endpoint must be an https URL of a public push service",
            {"reason": str(error)},
        ) from None


class Unreachable(Exception):
    """The host does not resolve now (a lookup that may succeed later)."""


def pinned(url: str, allow: frozenset[str]) -> str:
    """At send time (blocking: call it in a thread): the address to connect to, after
    resolving the host; BadEndpoint when the endpoint is malformed or any address the
    host has is not public (unless the endpoint is on the allow list, whose host is then
    used as it is), Unreachable when the lookup fails for now."""
    if not PRINTABLE.fullmatch(url):
        raise BadEndpoint("a character that is not printable ASCII")
    _, host, port = host_port(url)
    if allowed_by_list(host, port, allow):
        return host
    literal = literal_address(host)
    if literal is not None:
        if not is_public(literal):
            raise BadEndpoint(f"{host} is {PRIVATE}")
        return str(literal)
    name = check_name(host)
    try:
        infos = socket.getaddrinfo(name, port, type=socket.SOCK_STREAM)
    except socket.gaierror as error:
        if error.errno == socket.EAI_NONAME:
            raise BadEndpoint(f"{name} does not resolve: {error}") from None
        raise Unreachable(f"{name} does not resolve now: {error}") from None
    except (OSError, UnicodeError) as error:
        raise Unreachable(f"{name} does not resolve now: {error}") from None
    addresses = [ipaddress.ip_address(str(info[4][0])) for info in infos]
    if not addresses or not all(is_public(address) for address in addresses):
        raise BadEndpoint(f"{name} resolves to a non-public address")
    return str(addresses[0])
