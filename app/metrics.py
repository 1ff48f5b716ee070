"""What one process counts and measures, for Prometheus: ``GET /metrics`` (README
"Operating it"). Every family is ``nook_``-prefixed but the library's process ones.

The families live in prometheus-client's default registry, one per process (each process
is scraped on its own). Gauges that mirror a size are read when scraped, through the
functions ``watch`` is given at start-up, so nothing is counted twice on the hot path.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from functools import cache
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    GC_COLLECTOR,
    PLATFORM_COLLECTOR,
    REGISTRY,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
)

from app.middleware import client_address

# The library's process collector stays (resident memory, CPU seconds, descriptors); its
# gc and platform ones go: nook_gc_pause_seconds says more than collection counts.
for _collector in (GC_COLLECTOR, PLATFORM_COLLECTOR):
    try:
        REGISTRY.unregister(_collector)
    except KeyError:  # already gone (the module was loaded again)
        pass

# A "_created" twin of every counter would double the scrape for nothing.
disable_created_metrics()  # type: ignore[no-untyped-call]

# Move answers are a few milliseconds when all is well and seconds under an outage.
LATENCY = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
PAUSES = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5)

MOVES = Counter("nook_moves", "Moves played or refused.", ["game", "outcome"])
MOVE_GAME_READS = Counter(
    "nook_move_game_reads",
    "Where a move found its game: this process's memory, or the database.",
    ["source"],
)
MOVE_SECONDS = Histogram(
    "nook_move_duration_seconds",
    "From a move's arrival to its committed answer (accepted moves).",
    ["game"],
    buckets=LATENCY,
)
HTTP_REQUESTS = Counter(
    "nook_http_requests", "HTTP requests answered.", ["method", "route", "status"]
)
HTTP_SECONDS = Histogram(
    "nook_http_request_duration_seconds",
    "From a request's arrival to the end of its answer.",
    ["method", "route"],
    buckets=LATENCY,
)
WEBSOCKETS_OPEN = Gauge("nook_websockets_open", "WebSockets open on this process.")
WEBSOCKET_CLOSES = Counter("nook_websocket_closes", "WebSockets closed, by close code.", ["code"])
DB_POOL_WAIT = Histogram(
    "nook_db_pool_wait_seconds",
    "Waiting for a database connection (from the pool, or a new one).",
    buckets=LATENCY,
)
COMMIT_BATCH = Histogram(
    "nook_commit_batch_size",
    "Moves written by one group commit.",
    buckets=(1, 2, 4, 8, 16, 32, 64, 100),
)
HUB_CONNECTED = Gauge("nook_hub_connected", "1 while the live-update hub (Redis) is connected.")
HUB_PUBLISH = Histogram(
    "nook_hub_publish_seconds", "Publishing one live update through Redis.", buckets=LATENCY
)
ENGINE_QUEUE = Gauge("nook_engine_queue_depth", "Engine jobs (computer moves, boards) pending.")
REVIEW_QUEUE = Gauge("nook_review_queue_depth", "Reviews pending (queued or running).")
ENGINE_JOB = Histogram(
    "nook_engine_job_seconds", "Engine jobs, from submission to result.", ["kind"], buckets=LATENCY
)
GC_PAUSE = Histogram(
    "nook_gc_pause_seconds", "Garbage collections, by generation.", ["generation"], buckets=PAUSES
)
RATE_LIMITED = Counter("nook_rate_limited", "Requests refused by a limit, by limit.", ["kind"])
LIVE_GAMES = Gauge("nook_live_games", "Games whose state this process keeps in memory.")
LIVE_GAMES_DROPPED = Counter(
    "nook_live_games_dropped",
    "Games under way let go to stay within LIVE_GAMES_MIB (their next move reads the row).",
)
SEEKS_WAITING = Gauge("nook_seeks_waiting", "Quick-pairing polls waiting on this process.")
# Push (app/push/sender.py): labels from fixed sets of outcomes and reasons.
PUSH_SENDS = Counter(
    "nook_push_sends",
    "Requests to push services, by outcome (sent, gone, bad_endpoint, refused, failed).",
    ["outcome"],
)
PUSH_DROPPED = Counter(
    "nook_push_dropped",
    "Push sends given up (queue_full, too_many_pending, host_paused, failed, refused).",
    ["reason"],
)
PUSH_HOSTS_PAUSED = Gauge(
    "nook_push_hosts_paused", "Push hosts not sent to after failing too often in a row."
)


# A labelled child, looked up once: labels() takes a lock and builds a key on every call,
# and the label values are few (bounded sets, see app/observe.py).
@cache
def move_count(game: str, outcome: str) -> Any:
    return MOVES.labels(game, outcome)


@cache
def move_seconds(game: str) -> Any:
    return MOVE_SECONDS.labels(game)


@cache
def http_requests(method: str, route: str, status: int) -> Any:
    return HTTP_REQUESTS.labels(method, route, str(status))


@cache
def http_seconds(method: str, route: str) -> Any:
    return HTTP_SECONDS.labels(method, route)


def watch(
    hub_connected: Callable[[], bool],
    engine_queue: Callable[[], int],
    review_queue: Callable[[], int],
    live_games: Callable[[], int],
    seeks_waiting: Callable[[], int],
) -> None:
    """Read these gauges from the running services whenever /metrics is scraped."""
    HUB_CONNECTED.set_function(lambda: float(hub_connected()))
    ENGINE_QUEUE.set_function(lambda: float(engine_queue()))
    REVIEW_QUEUE.set_function(lambda: float(review_queue()))
    LIVE_GAMES.set_function(lambda: float(live_games()))
    SEEKS_WAITING.set_function(lambda: float(seeks_waiting()))


router = APIRouter()


def allowed(address: str, networks: tuple[Any, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in networks)


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request) -> Response:
    """Prometheus' text format, for the addresses of METRICS_ALLOW_IPS; a 404 for
    everyone else, as if there were nothing here."""
    if not allowed(client_address(request.scope), request.app.state.settings.metrics_networks):
        raise HTTPException(404)
    return Response(
        generate_latest(REGISTRY),
        media_type=CONTENT_TYPE_LATEST,
        headers={"Cache-Control": "no-store"},
    )
