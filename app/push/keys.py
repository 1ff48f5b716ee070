"""The server's VAPID key pair (RFC 8292): the push services know the site by its public
key, and every request to them is signed with the private one.

VAPID_PRIVATE_KEY, when set, is the key (every process of a site shares it, as with
SECRET). Without it, a server bound to loopback makes one once in ``vapid_key_file``
(mode 0600) and keeps it; a server on any other address runs with push off.
"""

from __future__ import annotations

import base64
import logging

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid

from app.config import Settings, is_loopback, kept_once

log = logging.getLogger("app.push")


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def new_private_key() -> str:
    """A fresh P-256 private key: base64url of its raw 32-byte scalar."""
    key = ec.generate_private_key(ec.SECP256R1())
    return b64url(key.private_numbers().private_value.to_bytes(32, "big"))


class VapidKeys:
    """The key pair, read once: ``public_key`` is what browsers subscribe with (base64url
    of the uncompressed point, 65 bytes), ``vapid`` signs the requests."""

    def __init__(self, private_key: str) -> None:
        self.vapid = Vapid.from_string(private_key=private_key.strip())
        point = self.vapid.public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.public_key = b64url(point)


def startup_vapid_key(settings: Settings, host: str) -> str | None:
    """The VAPID private key for a server binding ``host``: VAPID_PRIVATE_KEY when set; on
    loopback, the one in ``vapid_key_file`` (made once); anywhere else None (push off)."""
    if settings.vapid_private_key:
        return settings.vapid_private_key
    if not is_loopback(host):
        log.warning("VAPID_PRIVATE_KEY is not set: push notifications are off")
        return None
    return kept_once(settings.vapid_key_file, new_private_key)


def vapid_keys(settings: Settings) -> VapidKeys | None:
    """The site's keys, or None when push is off."""
    return VapidKeys(settings.vapid_private_key) if settings.vapid_private_key else None
