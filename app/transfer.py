"""One player on several devices: a short code, shown as text and as a QR code, that
makes another browser the same player.

A code is 8 characters from an alphabet without look-alikes (no 0/O, 1/I/L), about 40
bits: with claims limited per browser and per address (``Admission.claiming``) and a
code living 10 minutes, guessing one is hopeless. Only its SHA-256 is stored. Claiming
consumes it in one guarded update, so of two racing claims exactly one wins; the
browser that issued it stays signed in.

A transfer link (``/me?code=…``, the QR code's URL) changes nothing when opened: the page
shows who the browser is and who it would become (``Transfers.preview``, which reads the
code without using it), and only the page's button, a POST, claims it. A link someone
else sent must not sign a visitor in as that someone, who would then see their games.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

import segno

from app.clock import Clock
from app.errors import AppError
from app.limits import Admission
from app.store import Store
from app.wire import TransferCode
from engines.core.errors import AppCode

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8
TTL_MS = 10 * 60 * 1000


def normalise(raw: str) -> str:
    """What a person types: any case, with spaces or dashes between groups."""
    return raw.replace(" ", "").replace("-", "").upper()


def code_hash(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


def bad_code() -> AppError:
    return AppError(AppCode.BAD_CODE, "this code is wrong, used or expired")


def qr_matrix(text: str) -> list[list[int]]:
    """The QR code's modules (1 = dark), rows top to bottom, without the quiet zone: the
    page draws it on a canvas and adds the border."""
    qr = segno.make(text, error="m", micro=False)
    return [[1 if module else 0 for module in row] for row in qr.matrix]


@dataclass(frozen=True)
class Who:
    """A player as the transfer page names them."""

    name: str | None
    games: int


@dataclass(frozen=True)
class Preview:
    """What a transfer link's page shows: the player this browser is (``now``) and, when
    the code is good, the one it would become (``then``). ``problem`` is why it cannot
    switch: ``bad_code`` (wrong, used or expired), ``rate_limited`` (too many tries),
    ``own_code`` (the code names the player this browser already is)."""

    code: str
    now: Who
    then: Who | None
    problem: str | None


class Transfers:
    def __init__(self, store: Store, clock: Clock, admission: Admission) -> None:
        self.store = store
        self.clock = clock
        self.admission = admission

    async def issue(self, player_id: str, address: str, site: str) -> TransferCode:
        """A new code for this player; ``site`` is the site's origin as the browser sees
        it (the claim URL the QR code holds starts with it). 409 ``nothing_to_transfer``
        for a browser whose player has no row yet (no game, no name: a visitor without a
        cookie is one), so asking makes no row."""
        await self.admission.transferring(player_id, address)
        code = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
        now = self.clock.now_ms()
        if not await self.store.add_transfer(code_hash(code), player_id, now, now + TTL_MS):
            raise AppError(
                AppCode.NOTHING_TO_TRANSFER,
                "this browser has no games and no name yet: there is nothing to move",
            )
        url = f"{site.rstrip('/')}/me?code={code}"
        return TransferCode(code=code, url=url, expires_ms=now + TTL_MS, qr=qr_matrix(url))

    async def preview(self, player_id: str, address: str, raw_code: str) -> Preview:
        """Who this browser is and who the code would make it, using nothing up. It
        tells a good code from a bad one, so it counts as a claim attempt."""
        code = normalise(raw_code)[: CODE_LENGTH * 2]
        now = await self._who(player_id)
        try:
            await self.admission.claiming(player_id, address)
        except AppError as refused:
            return Preview(code, now, None, refused.code)
        owner = None
        if len(code) == CODE_LENGTH and all(ch in ALPHABET for ch in code):
            owner = await self.store.transfer_owner(code_hash(code), self.clock.now_ms())
        if owner is None:
            return Preview(code, now, None, AppCode.BAD_CODE)
        if owner == player_id:
            return Preview(code, now, None, "own_code")
        return Preview(code, now, await self._who(owner), None)

    async def _who(self, player_id: str) -> Who:
        name = (await self.store.names([player_id])).get(player_id)
        return Who(name, await self.store.game_count(player_id))

    async def claim(
        self, player_id: str, address: str, raw_code: str, endpoint: str | None = None
    ) -> str:
        """The player a code names, consuming it; 404 ``bad_code`` when it is wrong, used
        or expired, 429 ``rate_limited`` for a browser or address guessing.

        Push follows the player, not the device: ``endpoint`` is the claiming browser's
        push subscription, and the player it was (``player_id``) stops getting notices
        there (their game links, their opponents' names). The page subscribes it again
        for the player it became, with that player's limit."""
        await self.admission.claiming(player_id, address)
        code = normalise(raw_code)
        if len(code) != CODE_LENGTH or any(ch not in ALPHABET for ch in code):
            raise bad_code()
        owner = await self.store.claim_transfer(code_hash(code), self.clock.now_ms())
        if owner is None:
            raise bad_code()
        if endpoint is not None and owner != player_id:
            await self.store.unsubscribe(player_id, endpoint)
        return owner
