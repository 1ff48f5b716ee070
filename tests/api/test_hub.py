"""The hub: local fan-out, and Redis pub/sub that survives a dropped connection."""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
import redis.asyncio as aioredis

from app.fanout import RESYNC
from app.hub import LocalHub, RedisHub, redis_client
from app.models import GameStatus
from app.wire import HUB_MESSAGE, CancelledFrame, HubMove

REDIS_URL = os.environ.get("REDIS_URL")


async def test_local_hub_delivers_to_watchers_of_that_game_only() -> None:
    hub = LocalHub()
    async with hub.watch("g1") as first, hub.watch("g2") as other:
        await hub.publish("g1", CancelledFrame(version=1))
        assert await asyncio.wait_for(first.get(), 1) == CancelledFrame(version=1)
        assert other.empty()
    assert hub.subscribers.queues == {}


async def test_the_players_of_a_game_hear_of_a_move_before_its_spectators() -> None:
    hub = LocalHub()
    woken: list[str] = []

    async def wait(name: str, queue: Any) -> None:
        await queue.get()
        woken.append(name)

    async with hub.watch("g") as first, hub.watch("g") as second, hub.watch("g") as player:
        player.seated = True  # its socket holds a seat (app/ws.py)
        watchers = {"a": first, "b": second, "player": player}
        waiting = [asyncio.create_task(wait(name, queue)) for name, queue in watchers.items()]
        await asyncio.sleep(0)
        await hub.publish("g", CancelledFrame(version=1))
        await asyncio.gather(*waiting)
    assert woken[0] == "player" and sorted(woken[1:]) == ["a", "b"]


async def test_a_watcher_that_falls_far_behind_is_told_to_reconnect() -> None:
    hub = LocalHub()
    async with hub.watch("g") as queue:
        for version in range(1000):
            await hub.publish("g", CancelledFrame(version=version))
        assert queue.get_nowait() is None


async def test_a_stalled_redis_never_holds_up_the_publisher() -> None:
    """A Redis that takes connections and never answers: a move's publish (awaited before
    its mover is answered) still returns at once, and this process's watchers have it."""
    held: list[asyncio.StreamWriter] = []

    async def stall(_: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        held.append(writer)  # read nothing, answer nothing

    server = await asyncio.start_server(stall, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    redis = redis_client(f"redis://127.0.0.1:{port}/0", 30.0)
    hub = RedisHub(redis)
    queue, _ = hub.subscribers.add("g")
    try:
        await asyncio.wait_for(hub.publish("g", CancelledFrame(version=1)), 0.5)
        assert queue.get_nowait() == CancelledFrame(version=1)
        assert len(hub._sending) == 1  # still trying, in the background
    finally:
        await hub.stop()  # gives up on it after STOP_SEND_S
        assert not hub._sending
        for writer in held:
            writer.close()
        server.close()
        await redis.aclose()


@pytest.mark.skipif(not REDIS_URL, reason="needs REDIS_URL")
async def test_redis_hub_reconnects_after_the_connection_drops(
    caplog: pytest.LogCaptureFixture,
) -> None:
    assert REDIS_URL
    redis = redis_client(REDIS_URL, 2.0)
    hub, other = RedisHub(redis), RedisHub(redis)  # two processes' hubs
    await hub.start()
    await other.start()
    admin = aioredis.Redis.from_url(REDIS_URL)
    try:
        async with hub.watch("drop-test") as queue:
            await other.publish("drop-test", CancelledFrame(version=1))
            assert await asyncio.wait_for(queue.get(), 5) == CancelledFrame(version=1)
            await hub.publish("drop-test", CancelledFrame(version=2))  # its own: once
            assert await asyncio.wait_for(queue.get(), 5) == CancelledFrame(version=2)
            with caplog.at_level(logging.WARNING, logger="app.hub"):
                # Only this worker's subscribers (its own Redis db number, tests/workers.py):
                # the other workers' hubs share the server.
                db = admin.connection_pool.connection_kwargs.get("db", 0)
                ours = [c for c in await admin.client_list(_type="pubsub") if c["db"] == str(db)]
                assert ours
                for subscriber in ours:
                    await admin.client_kill_filter(_id=subscriber["id"])
                for _ in range(100):  # wait until the hub is subscribed again
                    await asyncio.sleep(0.05)
                    channels = await admin.pubsub_channels("game:drop-test")
                    if channels and hub._connected.is_set() and other._connected.is_set():
                        break
                # Messages may have been lost meanwhile: watchers are told to resync.
                assert await asyncio.wait_for(queue.get(), 5) is RESYNC
                await other.publish("drop-test", CancelledFrame(version=3))
                assert await asyncio.wait_for(queue.get(), 5) == CancelledFrame(version=3)
            assert queue.empty()
            messages = [r.getMessage() for r in caplog.records]
            assert any("connection lost" in m for m in messages)
            assert any("reconnected" in m for m in messages)
    finally:
        await admin.aclose()
        await hub.stop()
        await other.stop()
        await redis.aclose()


@pytest.mark.skipif(not REDIS_URL, reason="needs REDIS_URL")
async def test_an_unreadable_message_is_skipped_and_the_hub_listens_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    assert REDIS_URL
    redis = redis_client(REDIS_URL, 2.0)
    hub, other = RedisHub(redis), RedisHub(redis)  # two processes' hubs
    await hub.start()
    await other.start()
    try:
        async with hub.watch("garbled") as queue:
            with caplog.at_level(logging.ERROR, logger="app.hub"):
                # another process's origin line, then what no version of ours wrote
                await redis.publish("game:garbled", b'elsewhere\n{"type": "move"}')
                await other.publish("garbled", CancelledFrame(version=7))
                assert await asyncio.wait_for(queue.get(), 5) == CancelledFrame(version=7)
            assert queue.empty()
            assert any("unreadable hub message" in r.getMessage() for r in caplog.records)
    finally:
        await hub.stop()
        await other.stop()
        await redis.aclose()


@pytest.mark.skipif(not REDIS_URL, reason="needs REDIS_URL")
async def test_another_process_s_moves_are_followed_before_its_watchers_hear_of_them() -> None:
    assert REDIS_URL
    redis = redis_client(REDIS_URL, 2.0)
    hub, other = RedisHub(redis), RedisHub(redis)  # two processes' hubs
    await hub.start()
    await other.start()
    followed: list[tuple[str, int, bool]] = []
    try:
        async with hub.watch("followed") as queue:

            def follow(game_id: str, move: HubMove) -> None:
                followed.append((game_id, move.version, queue.empty()))

            hub.on_foreign_move(follow)
            await hub.publish("followed", HubMove.of(3, 4, {}, [], GameStatus.ACTIVE, None, 0))
            assert (await asyncio.wait_for(queue.get(), 5)).version == 4  # type: ignore[union-attr]
            await other.publish("followed", HubMove.of(4, 5, {}, [], GameStatus.ACTIVE, None, 0))
            await other.publish("followed", CancelledFrame(version=6))  # not a move
            heard = [await asyncio.wait_for(queue.get(), 5) for _ in range(2)]
            assert [message.version for message in heard] == [5, 6]  # type: ignore[union-attr]
        # only the other process's move, and before this process's watcher had it
        assert followed == [("followed", 5, True)]
    finally:
        await hub.stop()
        await other.stop()
        await redis.aclose()


@asynccontextmanager
async def processes(count: int) -> AsyncIterator[tuple[Any, list[RedisHub]]]:
    """``count`` processes' hubs on one Redis client, started; stopped after."""
    assert REDIS_URL
    redis = redis_client(REDIS_URL, 2.0)
    hubs = [RedisHub(redis) for _ in range(count)]
    for hub in hubs:
        await hub.start()
    try:
        yield redis, hubs
    finally:
        for hub in hubs:
            await hub.stop()
        await redis.aclose()


async def settled(hub: RedisHub) -> None:
    """Every publish and announcement of ``hub`` answered by Redis."""
    while hub._sending:
        await asyncio.gather(*hub._sending)


async def next_message(pubsub: Any) -> Any:
    while True:  # None: the subscription's confirmation, or nothing yet
        message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1)
        if message is not None:
            return message


def move(version: int) -> HubMove:
    return HubMove.of(version - 1, version, {}, [], GameStatus.ACTIVE, None, 0)


@pytest.mark.skipif(not REDIS_URL, reason="needs REDIS_URL")
async def test_a_game_no_other_process_watches_keeps_its_moves_off_redis() -> None:
    async with processes(2) as (redis, (hub, other)):
        eavesdropper = redis.pubsub(ignore_subscribe_messages=True)  # announces nothing
        try:
            async with hub.watch("alone") as queue:
                await settled(hub)
                await hub.publish("alone", move(1))  # Redis answers: one subscriber, itself
                await settled(hub)
                await eavesdropper.subscribe("game:alone")
                await hub.publish("alone", move(2))  # kept back
                await settled(hub)
                await other.publish("alone", CancelledFrame(version=3))  # not a move: sent
                heard = await asyncio.wait_for(next_message(eavesdropper), 5)
                assert heard["data"].endswith(b'{"type":"cancelled","version":3}')  # not move 2
                # this process's own watcher had every message at once
                assert [(await queue.get()).version for _ in range(3)] == [1, 2, 3]  # type: ignore[union-attr]
        finally:
            await eavesdropper.aclose()


@pytest.mark.skipif(not REDIS_URL, reason="needs REDIS_URL")
async def test_a_process_that_starts_watching_hears_the_last_move_kept_back_then_all() -> None:
    async with processes(2) as (_, (hub, other)):
        followed: list[int] = []
        other.on_foreign_move(lambda _, published: followed.append(published.version))
        async with hub.watch("joined-late"):
            await settled(hub)
            await hub.publish("joined-late", move(1))
            await settled(hub)
            await hub.publish("joined-late", move(2))  # no one else listens: kept back
            await hub.publish("joined-late", move(3))  # this one instead
            async with other.watch("joined-late") as queue:  # subscribes, then announces
                # its sockets read the state at version 1 or later; the last move kept
                # back comes (a gap from version 1: they read the state again)
                first = await asyncio.wait_for(queue.get(), 5)
                assert isinstance(first, HubMove) and first.version == 3
                await hub.publish("joined-late", move(4))
                after = await asyncio.wait_for(queue.get(), 5)
                assert isinstance(after, HubMove) and after.version == 4
                await settled(hub)
                assert "joined-late" not in hub.audience.alone
                assert followed == [3, 4]


@pytest.mark.skipif(not REDIS_URL, reason="needs REDIS_URL")
async def test_an_interest_heard_before_a_publish_is_answered_keeps_the_game_sent() -> None:
    """Redis counted the subscribers before the newcomer subscribed, but its INTEREST came
    first: the answer's "no one else" is out of date, and the game's moves go on being sent."""
    async with processes(1) as (_, (hub,)), hub.watch("crossed"):
        await settled(hub)
        answer = hub._published

        async def answered_after_an_interest(item: tuple[str, bytes]) -> int:
            receivers = await answer(item)
            hub._heard_interest("crossed")  # the newcomer's, before this answer
            return receivers

        hub._published = answered_after_an_interest  # type: ignore[assignment]
        await hub.publish("crossed", move(1))
        await settled(hub)
        assert "crossed" not in hub.audience.alone
        hub._published = answer
        await hub.publish("crossed", move(2))
        await settled(hub)
        assert "crossed" in hub.audience.alone  # the next answer is current: alone


@pytest.mark.skipif(not REDIS_URL, reason="needs REDIS_URL")
async def test_a_listener_that_never_announced_itself_is_found_by_the_recount() -> None:
    """A process of a version before INTEREST subscribes without a word: the recount finds
    it, sends it the last move kept back, and the game's moves are sent from then on."""
    async with processes(1) as (redis, (hub,)):
        older = redis.pubsub(ignore_subscribe_messages=True)
        try:
            async with hub.watch("rolling"):
                await settled(hub)
                await hub.publish("rolling", move(1))
                await settled(hub)
                await older.subscribe("game:rolling")
                await hub.publish("rolling", move(2))  # kept back: nobody announced
                await hub.publish("rolling", move(3))
                await settled(hub)
                assert "rolling" in hub.audience.alone
                await hub.recount()
                await hub.publish("rolling", move(4))
                await settled(hub)
                heard = [await asyncio.wait_for(next_message(older), 5) for _ in range(2)]
                bodies = [HUB_MESSAGE.validate_json(h["data"].partition(b"\n")[2]) for h in heard]
                assert [body.version for body in bodies] == [3, 4]
                assert "rolling" not in hub.audience.alone
        finally:
            await older.aclose()


@pytest.mark.skipif(not REDIS_URL, reason="needs REDIS_URL")
async def test_the_recount_leaves_a_game_no_one_else_listens_to_alone() -> None:
    async with processes(1) as (_, (hub,)), hub.watch("quiet"):
        await settled(hub)
        await hub.publish("quiet", move(1))
        await settled(hub)
        await hub.publish("quiet", move(2))  # kept back
        await hub.recount()
        await settled(hub)
        assert "quiet" in hub.audience.alone
        assert hub.audience.kept_back["quiet"].endswith(move(2).model_dump_json().encode())
