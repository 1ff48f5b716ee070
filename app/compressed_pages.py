"""Pages that many players get byte for byte alike (a new visitor's game page, the lobby, a
leaderboard) go out compressed at brotli's best.

Quality 11 sends about a tenth less HTML than the quality 5 that ``CompressMiddleware``
spends on every answer (the Triangles page: 4,978 bytes against 5,573), but it costs about
26 ms of CPU for a 25 KB page against 0.5 ms. So it is paid once per page body, in a thread
(brotli lets go of the GIL), and only for a body asked for a second time: a page only one
player ever sees (their own records in it) is not worth it. Until then, and for a client
that takes no brotli, the middleware compresses as before.

Bounded: ``KEEP`` bodies kept (least recently sent first out, about 5 KB each), ``SEEN``
digests remembered, one compression at a time, and at most ``SHARE`` of a core spent on
them (a crawler asking twice for each of ten thousand games' pages gets them at quality 5
once that is used up; nobody waits for a compression).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict

import brotli  # type: ignore[import-untyped]

log = logging.getLogger(__name__)

KEEP = 256
SEEN = 4096
QUALITY = 11
SHARE = 0.1  # of a core, at most: after a compression that took t, none for t / SHARE


class CompressedPages:
    def __init__(self) -> None:
        self._kept: OrderedDict[str, bytes] = OrderedDict()
        self._seen: OrderedDict[str, None] = OrderedDict()
        self._working: asyncio.Task[None] | None = None
        self._rested_at = 0.0  # time.monotonic() when the next compression may start

    def best(self, digest: str, body: bytes) -> bytes | None:
        """The body's quality-11 brotli when it is known by now; else None, and the body
        is noted as asked for (the second time, its compression starts in a thread)."""
        kept = self._kept.get(digest)
        if kept is not None:
            self._kept.move_to_end(digest)
            return kept
        if digest not in self._seen:
            self._seen[digest] = None
            while len(self._seen) > SEEN:
                self._seen.popitem(last=False)
        elif self._working is None and time.monotonic() >= self._rested_at:
            self._working = asyncio.get_running_loop().create_task(self._compress(digest, body))
        return None

    async def _compress(self, digest: str, body: bytes) -> None:
        started = time.monotonic()
        try:
            compressed = await asyncio.to_thread(brotli.compress, body, quality=QUALITY)
        except Exception:  # a page still goes out, at quality 5; nothing to keep
            log.exception("a page could not be compressed")
        else:
            self._kept[digest] = compressed
            self._seen.pop(digest, None)
            while len(self._kept) > KEEP:
                self._kept.popitem(last=False)
        finally:
            self._working = None
            took = time.monotonic() - started
            self._rested_at = started + took / SHARE


PAGES = CompressedPages()
