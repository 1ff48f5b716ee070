"""A TCP relay on loopback that a test can cut and restore, or stall and resume: the
database or Redis behind it looks lost to the app (refused, or silent as behind a network
partition), then comes back, without touching the real server."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import Future
from typing import Any
from urllib.parse import urlsplit, urlunsplit


class Relay:
    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.port = 0
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.server: asyncio.Server | None = None
        self.writers: set[asyncio.StreamWriter] = set()
        self.flowing = asyncio.Event()  # cleared: a partition, bytes are held back
        self.flowing.set()

    def _run(self, coroutine: Any) -> Any:
        future: Future[Any] = asyncio.run_coroutine_threadsafe(coroutine, self.loop)
        return future.result(timeout=10)

    def start(self) -> None:
        """Listen (on the same port as before, after a cut) and relay every connection."""
        self._run(self._start())

    def cut(self) -> None:
        """Stop listening and drop every relayed connection, as a lost server would."""
        self._run(self._cut())

    def stall(self) -> None:
        """Stop forwarding bytes, keeping every connection open and accepting new ones,
        as a network partition does: the app sees silence, not an error."""
        self._run(self._set_flowing(False))

    def resume(self) -> None:
        """Forward again, the bytes held back during the stall first (as TCP would
        retransmit them once the network heals)."""
        self._run(self._set_flowing(True))

    def close(self) -> None:
        self.cut()
        self._run(self._finish())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=5)

    async def _start(self) -> None:
        self.server = await asyncio.start_server(self._relay, "127.0.0.1", self.port)
        self.port = self.server.sockets[0].getsockname()[1]

    async def _set_flowing(self, flowing: bool) -> None:
        if flowing:
            self.flowing.set()
        else:
            self.flowing.clear()

    async def _cut(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()
            self.server = None
        for writer in list(self.writers):
            writer.transport.abort()
        self.writers.clear()

    async def _finish(self) -> None:
        """End every relaying task (each only ever waits on a connection)."""
        tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.writers.add(writer)
        try:
            await self.flowing.wait()  # behind a partition, the server hears of no one
            upstream_reader, upstream_writer = await asyncio.open_connection(*self.target)
        except (OSError, asyncio.CancelledError):
            self.writers.discard(writer)
            writer.transport.abort()
            return
        self.writers.add(upstream_writer)

        async def pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            try:
                while data := await source.read(65536):
                    await self.flowing.wait()
                    sink.write(data)
                    await sink.drain()
            except (OSError, asyncio.CancelledError):
                pass
            finally:
                sink.transport.abort()

        await asyncio.gather(pipe(reader, upstream_writer), pipe(upstream_reader, writer))
        self.writers.difference_update((writer, upstream_writer))


def relayed(url: str, default_port: int) -> tuple[Relay, str]:
    """A started relay to the server of ``url``, and the same URL pointing at the relay."""
    parts = urlsplit(url)
    relay = Relay(parts.hostname or "127.0.0.1", parts.port or default_port)
    relay.start()
    netloc = parts.netloc.rsplit("@", 1)
    host = f"127.0.0.1:{relay.port}"
    new_netloc = f"{netloc[0]}@{host}" if len(netloc) == 2 else host
    return relay, urlunsplit(parts._replace(netloc=new_netloc))
