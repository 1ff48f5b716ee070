"""deploy/nginx.conf in front of two uvicorn processes on PostgreSQL + Redis.

The test renders the production configuration with its own ports and paths (nothing
else changes), runs Debian's nginx as a child process, and checks: an online Triangles
match through the proxy, each game's sockets on one app process and the games on both;
the proxy's own duties (compression, static caching, body limits: 64 KiB, and a whole
log of 700 KB to /api/verify, the scheme it reports, Origin and Host passed through);
the workers' open-file limit; a slow-client probe: 200 connections that send half a
request head do not stop normal requests from answering, and nginx closes them after
10 s; and bodies dripped then stalled: closed 10 s after their last byte, while one
address holding too many requests open gets 429 in the app's error shape.

Skipped, with the reason, when nginx is missing (``make nginx`` installs it as root) or
when DATABASE_URL/REDIS_URL are not PostgreSQL/Redis.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import re
import resource
import secrets
import selectors
import shutil
import socket
import statistics
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from app.identity import COOKIE, CookieSigner
from app.middleware import JSON_HEADERS, SECURITY_HEADERS
from app.verify import VERIFY_BODY_BYTES
from app.wire import VERIFY_PLIES
from engines.core.replay import replay
from engines.triangles import ENGINE as TRIANGLES
from tests.servers import ROOT, free_port, migrate, start_uvicorn, stop

NGINX = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/sbin")
CONF = ROOT / "deploy" / "nginx.conf"
DATABASE_URL = os.environ.get("DATABASE_URL", "")
REDIS_URL = os.environ.get("REDIS_URL", "")
SECRET = "proxy-" + secrets.token_hex(16)
SLOW_CLIENTS = 200
NORMAL_REQUESTS = 60
PER_ADDRESS = 40  # the rendered copy's limit_conn (production's is checked by test_deploy_files)
USUAL_FILES = 1024  # the soft open-file limit nginx is started with, as on most systems

pytestmark = [
    pytest.mark.proxy,
    pytest.mark.skipif(
        NGINX is None,
        reason="nginx is missing: run 'make nginx' as root (apt-get install nginx) to test "
        "deploy/nginx.conf",
    ),
    pytest.mark.skipif(
        not (REDIS_URL and DATABASE_URL.startswith("postgres")),
        reason="the proxy test needs REDIS_URL and a PostgreSQL DATABASE_URL",
    ),
]


def render(conf: str, directory: Path, port: int, upstreams: list[str]) -> str:
    """The production configuration with this test's listen port, upstream servers,
    and pid, log and temporary paths inside ``directory``."""

    def replace(pattern: str, replacement: str, text: str) -> str:
        result, count = re.subn(pattern, lambda _: replacement, text, count=1, flags=re.M)
        assert count == 1, f"deploy/nginx.conf no longer has {pattern!r}"
        return result

    servers = "\n".join(
        f"        server {address} max_fails=3 fail_timeout=10s;" for address in upstreams
    )
    conf = re.sub(r"^.*# test: upstream servers\n", "", conf, flags=re.M)
    conf = replace(r"^(\s*)least_conn;.*$", f"        least_conn;\n{servers}", conf)
    by_game = f"        hash $uri consistent;\n{servers}"
    conf = replace(r"^\s*hash \$uri consistent;$", by_game, conf)
    conf = replace(r"^\s*listen 80;.*$", f"        listen 127.0.0.1:{port};", conf)
    # This machine's hard limit may be below production's ask (a container's often is):
    # the workers are asked for what they can get, and the test checks they got it.
    conf = replace(
        r"^worker_rlimit_nofile \d+;.*# test: capped.*$",
        f"worker_rlimit_nofile {worker_files(conf)};",
        conf,
    )
    conf = replace(
        r"^\s*limit_conn per_address \d+;.*# test: per-address limit$",
        f"    limit_conn per_address {PER_ADDRESS};",
        conf,
    )
    paths = "\n".join(
        f"    {kind}_temp_path {directory / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    conf = replace(
        r"^\s*access_log .*# test: replaced$",
        f"    log_format upstreams '$request_method $uri $status $upstream_addr';\n"
        f"    access_log {directory / 'access.log'} upstreams;\n{paths}",
        conf,
    )
    head = f"pid {directory / 'nginx.pid'};\n"
    if os.geteuid() == 0:  # workers would run as nobody, who cannot enter the tmp dir
        head += "user root;\n"
    return head + conf


def worker_files(conf: str) -> int:
    """The open files nginx.conf asks for, within this machine's hard limit."""
    asked = int(re.findall(r"^worker_rlimit_nofile (\d+);", conf, re.M)[0])
    return min(asked, resource.getrlimit(resource.RLIMIT_NOFILE)[1])


def usual_files_limit() -> None:
    """In the child, before nginx runs: the soft limit most systems start a service
    with (1,024 open files), as in production; the workers must raise it themselves."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (USUAL_FILES, hard))


@dataclass
class Stack:
    base_url: str
    port: int
    upstreams: list[str]
    directory: Path

    def access_log(self) -> list[list[str]]:
        text = (self.directory / "access.log").read_text()
        return [line.split() for line in text.splitlines()]

    def last_logged(self, method: str, path: str, statuses: list[str]) -> list[list[str]]:
        """The last entries of ``method path``, as many as ``statuses``, once they have those
        statuses (or after 10 s): nginx logs a request when it is done with it, which for a
        body it refused is after its answer, once it has read the rest away."""
        deadline = time.monotonic() + 10
        while True:
            entries = [e for e in self.access_log() if e[:2] == [method, path]][-len(statuses):]
            if [e[2] for e in entries] == statuses or time.monotonic() > deadline:
                return entries
            time.sleep(0.05)


def wait_for_nginx(process: subprocess.Popen[bytes], base_url: str, log: Path) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"nginx exited with {process.returncode}:\n{log.read_text()}")
        try:
            if httpx.get(f"{base_url}/static/css/me.css", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"nginx did not answer within 20 s:\n{log.read_text()}")


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    directory = tmp_path_factory.mktemp("nginx")
    env = {**os.environ, "SECRET": SECRET, "FORWARDED_ALLOW_IPS": "127.0.0.1"}
    migrate(env)
    apps = [start_uvicorn(env, directory / f"app{n}.log") for n in (1, 2)]
    nginx: subprocess.Popen[bytes] | None = None
    try:
        port = free_port()
        upstreams = [url.removeprefix("http://") for _, url in apps]
        conf = directory / "nginx.conf"
        conf.write_text(render(CONF.read_text(), directory, port, upstreams))
        error_log = directory / "error.log"
        command = [NGINX or "nginx", "-p", str(directory), "-c", str(conf), "-e", str(error_log)]
        checked = subprocess.run(
            [*command, "-t"], capture_output=True, text=True, timeout=30, check=False
        )
        assert checked.returncode == 0, checked.stderr
        nginx = subprocess.Popen(
            [*command, "-g", "daemon off;"],
            stderr=subprocess.STDOUT,
            preexec_fn=usual_files_limit,  # before exec: only setrlimit, safe after fork
        )
        base_url = f"http://127.0.0.1:{port}"
        wait_for_nginx(nginx, base_url, error_log)
        yield Stack(base_url, port, upstreams, directory)
    finally:
        if nginx is not None:
            stop(nginx)
        for process, _ in apps:
            stop(process)


# An online match through the proxy, one socket on each app process ------------------


class Player:
    def __init__(self, stack: Stack) -> None:
        self.id = secrets.token_urlsafe(16)
        self.cookie = f"{COOKIE}={CookieSigner(SECRET).sign(self.id)}"
        self.origin = stack.base_url  # what a browser on the site sends
        self.base_url = stack.base_url
        self.ws: Any = None
        self.version = 0
        self.view: dict[str, Any] = {}

    def http(self) -> httpx.AsyncClient:
        headers = {"cookie": self.cookie, "origin": self.origin}
        return httpx.AsyncClient(base_url=self.base_url, headers=headers, timeout=15)

    async def connect(self, game_id: str) -> None:
        url = self.base_url.replace("http", "ws") + f"/ws/games/{game_id}"
        self.ws = await websockets.connect(
            url, origin=self.origin, additional_headers={"cookie": self.cookie}  # type: ignore[arg-type]
        )
        state = await self.receive("state")
        self.version, self.view = state["version"], state["view"]

    async def receive(self, kind: str) -> dict[str, Any]:
        while True:
            message = json.loads(await asyncio.wait_for(self.ws.recv(), timeout=15))
            if message["type"] == kind:
                return message  # type: ignore[no-any-return]

    async def follow(self, moved: bool = False) -> None:
        """The next move: its frame, or the result of this player's own move."""
        message = (await self.receive("result"))["result"] if moved else await self.receive("move")
        self.version, self.view = message["version"], message["view"]


async def seated(stack: Stack) -> tuple[Player, Player, str]:
    """A new online game, made by alice and joined by bob, both connected to it."""
    alice, bob = Player(stack), Player(stack)
    async with alice.http() as http:
        params = {"opponent": "online", "stars": 24}
        created = await http.post("/api/games", json={"game": "triangles", "params": params})
        assert created.status_code == 201, created.text
        game_id: str = created.json()["id"]
    async with bob.http() as http:
        joined = await http.post(f"/api/games/{game_id}/join")
        assert joined.status_code == 200 and joined.json()["seats"] == [1], joined.text
    await alice.connect(game_id)
    await bob.connect(game_id)
    return alice, bob, game_id


async def play_match(stack: Stack) -> str:
    alice, bob, game_id = await seated(stack)
    players = {0: alice, 1: bob}
    for _ in range(200):  # a 24-star board has far fewer lines
        if alice.view["over"]:
            break
        mover = players[alice.view["turn"]]
        async with mover.http() as http:
            log = (await http.get(f"/api/games/{game_id}/log")).json()
        state = replay(TRIANGLES, TRIANGLES.parse_params(log["params"]), log["seed"], log["moves"])
        line = TRIANGLES.dump_move(TRIANGLES.computer_move(state))
        message = {"type": "move", "version": mover.version, "move": line, "id": mover.version}
        await mover.ws.send(json.dumps(message))
        await asyncio.gather(*(player.follow(moved=player is mover) for player in (alice, bob)))
        assert alice.version == bob.version and alice.view["lines"] == bob.view["lines"]
    assert alice.view["over"]
    async with alice.http() as a, bob.http() as b:
        log_a = (await a.get(f"/api/games/{game_id}/log")).json()
        log_b = (await b.get(f"/api/games/{game_id}/log")).json()
        final = (await a.get(f"/api/games/{game_id}")).json()
    assert log_a == log_b and final["status"] == "over"
    assert [m["ply"] for m in log_a["moves"]] == list(range(1, final["version"] + 1))
    await alice.ws.close()
    await bob.ws.close()
    return game_id


async def seat_and_leave(stack: Stack) -> str:
    """A new online game whose two players connect, get the state and leave."""
    alice, bob, game_id = await seated(stack)
    for player in (alice, bob):
        await player.ws.close()
    return game_id


def test_online_match_through_nginx_with_each_games_sockets_on_one_process(
    stack: Stack,
) -> None:
    """A whole match through the proxy; a game's two sockets reach the same process (the
    proxy routes by game), and twenty games' sockets spread over both processes."""
    game_id = asyncio.run(play_match(stack))
    # nginx logs a socket when it closes
    sockets = stack.last_logged("GET", f"/ws/games/{game_id}", ["101", "101"])
    assert [entry[2] for entry in sockets] == ["101", "101"]
    assert len({entry[3] for entry in sockets}) == 1, sockets

    async def twenty() -> list[str]:
        return [await seat_and_leave(stack) for _ in range(20)]

    places = [
        {entry[3] for entry in stack.last_logged("GET", f"/ws/games/{game}", ["101", "101"])}
        for game in asyncio.run(twenty())
    ]
    assert all(len(place) == 1 for place in places), places
    assert set().union(*places) == set(stack.upstreams), places  # 2 ** -19 to fail by chance


def test_cross_site_socket_is_refused_through_nginx(stack: Stack) -> None:
    async def attempt(origin: str) -> int:
        url = stack.base_url.replace("http", "ws") + "/ws/games/nonexistent"
        try:
            async with websockets.connect(url, origin=origin):  # type: ignore[arg-type]
                return 101
        except websockets.InvalidStatus as refused:
            return refused.response.status_code

    assert asyncio.run(attempt("https://evil.example")) == 403


# What the proxy does itself ---------------------------------------------------------


def test_proxy_compresses_caches_limits_and_reports_the_scheme(stack: Stack) -> None:
    with httpx.Client(base_url=stack.base_url, timeout=10) as client:
        page = client.get("/", headers={"accept-encoding": "gzip"})
        assert page.headers["content-encoding"] == "gzip"
        versioned = re.search(r'href="(/static/dist/css/lobby-\w+\.css)"', page.text)
        assert versioned, page.text[:2000]
        css = client.get(versioned.group(1), headers={"accept-encoding": "gzip"})
        assert css.status_code == 200 and css.headers["content-encoding"] == "gzip"
        assert css.headers["cache-control"] == "public, max-age=31536000, immutable"
        assert "set-cookie" not in css.headers
        plain = client.get("/static/css/me.css")
        assert plain.headers["cache-control"] == "no-cache"
        for name, value in SECURITY_HEADERS.items():  # once each, as the app sent them
            assert page.headers.get_list(name) == [value]
        assert css.headers.get_list("x-content-type-options") == ["nosniff"]
        assert "content-security-policy" not in css.headers
        # nginx sets X-Forwarded-Proto from its own scheme: a client cannot claim HTTPS.
        client.cookies.clear()
        me = client.get("/api/me", headers={"x-forwarded-proto": "https"})
        assert me.status_code == 200 and "Secure" not in me.headers["set-cookie"]
        # Bodies over the app's 64 KiB stop at the proxy, in the app's error shape.
        too_large = client.post("/api/games", content=b"x" * (64 * 1024 + 1))
        assert too_large.status_code == 413
        assert too_large.json()["error"] == {
            "code": "too_large",
            "message": "request bodies are limited to 65536 bytes",
        }
        for name, value in JSON_HEADERS.items():
            assert too_large.headers.get(name) == value
        # The Host (with its port) reaches the app: the site's own origin may post.
        body = {"game": "triangles", "params": {"opponent": "easy"}}
        own = client.post("/api/games", json=body, headers={"origin": stack.base_url})
        assert own.status_code == 201, own.text
        evil = client.post("/api/games", json=body, headers={"origin": "https://evil.example"})
        assert evil.status_code == 403 and evil.json()["error"]["code"] == "bad_origin"


def test_a_whole_log_to_verify_passes_the_proxy(stack: Stack) -> None:
    entry = {"seat": 0, "move": {"type": "finish", "note": "x" * 100}, "at_ms": 0}
    count = 700_000 // len(json.dumps(entry)) + 1
    body = json.dumps({"game": "blocks", "number": "00000001-a", "log": [entry] * count})
    assert 700_000 <= len(body) <= VERIFY_BODY_BYTES and count <= VERIFY_PLIES
    headers = {"content-type": "application/json"}
    with httpx.Client(base_url=stack.base_url, timeout=30) as client:
        judged = client.post("/api/verify", content=body, headers=headers)
        # The app read it and judged it: a second "finish" is refused at ply 2.
        assert judged.status_code == 422, judged.text[:300]
        assert judged.json()["error"]["code"] == "illegal_log"
        assert judged.json()["error"]["details"]["ply"] == 2
        over = client.post("/api/verify", content=b"x" * (VERIFY_BODY_BYTES + 1), headers=headers)
        assert over.status_code == 413
        assert over.json()["error"] == {
            "code": "too_large",
            "message": f"request bodies are limited to {VERIFY_BODY_BYTES} bytes",
        }
        for name, value in JSON_HEADERS.items():
            assert over.headers.get(name) == value
    verifies = stack.last_logged("POST", "/api/verify", ["422", "413"])
    assert [e[2] for e in verifies] == ["422", "413"]
    assert verifies[0][3] in stack.upstreams and verifies[1][3] == "-"  # refused by nginx


def test_more_connections_than_the_usual_file_limit(stack: Stack) -> None:
    """nginx started with a soft limit of 1,024 open files (as most systems start a
    service): its workers raise their own, and keep accepting past 1,024 connections."""
    master = int((stack.directory / "nginx.pid").read_text())
    workers = [
        int(stat.parent.name)
        for stat in Path("/proc").glob("[0-9]*/stat")
        if read_or_empty(stat).rpartition(")")[2].split()[1:2] == [str(master)]
    ]
    assert workers
    for pid in workers:
        limits = (Path("/proc") / str(pid) / "limits").read_text()
        soft = re.search(r"^Max open files\s+(\d+)", limits, re.M)
        assert soft is not None and int(soft.group(1)) == worker_files(CONF.read_text())
    if worker_files(CONF.read_text()) <= USUAL_FILES + 200:
        pytest.skip("this machine's hard open-file limit is too low to go past 1,024")
    # More than one worker's 1,024 files' worth of held connections for each worker.
    held: list[socket.socket] = []
    try:
        for _ in range((USUAL_FILES + 100) * len(workers)):
            connection = socket.create_connection(("127.0.0.1", stack.port), timeout=5)
            connection.sendall(b"GET /api/catalog HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            held.append(connection)
        with httpx.Client(base_url=stack.base_url, timeout=5) as client:
            assert client.get("/api/catalog").status_code == 200
    finally:
        for connection in held:
            connection.close()
    print(f"\nopen files: {len(held)} connections held, a new request still answered")


def read_or_empty(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:  # a process that ended meanwhile
        return ""


# Slow clients --------------------------------------------------------------------------


def test_slow_clients_do_not_stop_normal_requests(stack: Stack) -> None:
    half_head = b"GET /api/catalog HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow"
    slow: list[socket.socket] = []
    try:
        for _ in range(SLOW_CLIENTS):
            connection = socket.create_connection(("127.0.0.1", stack.port), timeout=5)
            connection.sendall(half_head)
            slow.append(connection)
        opened = time.monotonic()

        timings = []
        for index in range(NORMAL_REQUESTS):  # a new connection each, like new visitors
            path = "/api/catalog" if index % 2 else "/static/css/me.css"
            started = time.monotonic()
            visitor = http.client.HTTPConnection("127.0.0.1", stack.port, timeout=5)
            try:
                visitor.request("GET", path)
                response = visitor.getresponse()
                response.read()
            finally:
                visitor.close()
            timings.append(time.monotonic() - started)
            assert response.status == 200
        answered_within = time.monotonic() - opened
        assert answered_within < 9, "normal requests were measured while the probe held"

        closed_after = wait_closed(slow, opened, timeout=16)
    finally:
        for connection in slow:
            connection.close()
    median, worst = statistics.median(timings), max(timings)
    print(
        f"\nslow-client probe: {SLOW_CLIENTS} half-sent heads held; {NORMAL_REQUESTS} normal "
        f"requests: median {median * 1000:.1f} ms, max {worst * 1000:.1f} ms; nginx closed "
        f"the half-sent ones after {min(closed_after):.1f}-{max(closed_after):.1f} s"
    )
    assert worst < 2.0, timings
    assert len(closed_after) == SLOW_CLIENTS
    assert min(closed_after) > 8  # held while the head could still come (10 s)...
    assert max(closed_after) < 16  # ...and closed once it could not


def wait_closed(connections: list[socket.socket], since: float, timeout: float) -> list[float]:
    """Seconds after ``since`` at which each connection was closed by the server (EOF or
    reset); stops at ``timeout``."""
    closed: list[float] = []
    with selectors.DefaultSelector() as selector:
        for connection in connections:
            connection.setblocking(False)
            selector.register(connection, selectors.EVENT_READ)
        deadline = since + timeout
        while len(closed) < len(connections) and time.monotonic() < deadline:
            for key, _ in selector.select(timeout=max(0.0, deadline - time.monotonic())):
                connection = key.fileobj
                assert isinstance(connection, socket.socket)
                try:
                    data = connection.recv(4096)
                except (ConnectionResetError, BrokenPipeError):
                    data = b""
                if not data:
                    closed.append(time.monotonic() - since)
                    selector.unregister(connection)
    return closed


def test_dripped_bodies_are_closed_and_one_address_holds_only_so_many(stack: Stack) -> None:
    head = (
        b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
    )
    dripping: list[socket.socket] = []
    try:
        for _ in range(PER_ADDRESS):
            connection = socket.create_connection(("127.0.0.1", stack.port), timeout=5)
            connection.sendall(head + b"{")
            dripping.append(connection)
        # All of this address's requests are taken: the next is refused in the app's shape.
        refused = wait_for_status(stack, 429, within_s=5)
        assert refused.json()["error"]["code"] == "rate_limited"
        assert refused.headers["retry-after"] == "5"
        for name, value in JSON_HEADERS.items():
            assert refused.headers.get(name) == value
        for _ in range(3):  # a byte a second: each one restarts the body timeout
            time.sleep(1)  # the drip's own pace, not a wait for the server
            for connection in dripping:
                connection.sendall(b" ")
        last_byte = time.monotonic()
        closed_after = wait_closed(dripping, last_byte, timeout=16)
    finally:
        for connection in dripping:
            connection.close()
    print(
        f"\ndripped bodies: {PER_ADDRESS} held (the address's limit), closed "
        f"{min(closed_after):.1f}-{max(closed_after):.1f} s after their last byte"
    )
    assert len(closed_after) == PER_ADDRESS
    assert min(closed_after) > 8  # the body could still come (10 s)...
    assert max(closed_after) < 16  # ...and could not any more
    assert wait_for_status(stack, 200, within_s=5).status_code == 200  # the address is free


def wait_for_status(stack: Stack, status: int, within_s: float) -> httpx.Response:
    """The first answer to ``GET /api/catalog`` with this status (new connections each),
    within ``within_s`` seconds."""
    deadline = time.monotonic() + within_s
    while True:
        with httpx.Client(base_url=stack.base_url, timeout=5) as client:
            answer = client.get("/api/catalog")
        if answer.status_code == status or time.monotonic() > deadline:
            assert answer.status_code == status, answer.text[:300]
            return answer
        time.sleep(0.05)
