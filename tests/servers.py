"""Real servers for tests: migrate a database and run ``uvicorn app.asgi:app`` processes
on free loopback ports (browser tests and multi-process tests use these)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def migrate(env: dict[str, str]) -> None:
    """Alembic upgrade head in a child process (its asyncio.run must not meet an event
    loop that a test framework keeps in this one)."""
    result = subprocess.run(
        [sys.executable, "-m", "alembic", "upgrade", "head"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    if result.returncode != 0:
        raise RuntimeError(f"alembic upgrade head failed:\n{result.stdout}\n{result.stderr}")


def fresh_postgres_database(url: str, suffix: str) -> str:
    """An empty PostgreSQL database beside ``url``'s (``<name>_<suffix>``, dropped and
    made again), for a server that must not share the tests' tables; its URL."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    import asyncpg
    from sqlalchemy import make_url

    parsed = make_url(url)
    name = f"{parsed.database}_{suffix}"
    plain = parsed.set(drivername="postgresql").render_as_string(hide_password=False)

    async def recreate() -> None:
        connection = await asyncpg.connect(plain)
        try:
            await connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            await connection.execute(f'CREATE DATABASE "{name}"')
        finally:
            await connection.close()

    with ThreadPoolExecutor(1) as pool:  # its own event loop, whatever runs in this thread
        pool.submit(asyncio.run, recreate()).result(timeout=60)
    return parsed.set(database=name).render_as_string(hide_password=False)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until_up(
    base_url: str, process: subprocess.Popen[bytes], log: Path, timeout: float = 30
) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            output = log.read_text(errors="replace")
            raise RuntimeError(f"uvicorn exited with {process.returncode}:\n{output}")
        try:
            with urllib.request.urlopen(f"{base_url}/static/favicon.svg", timeout=1) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            time.sleep(0.1)
    output = log.read_text(errors="replace")
    raise RuntimeError(f"uvicorn did not answer within {timeout} s:\n{output}")


def start_uvicorn(
    env: dict[str, str], log: Path, application: str = "app.asgi:app"
) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``uvicorn <application>`` on a free port; returns the process and its base URL."""
    port = free_port()
    command = [
        sys.executable, "-m", "uvicorn", application,
        "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning",
        "--ws", "websockets-sansio", "--ws-per-message-deflate", "false",
        "--no-server-header",  # as app/__main__.py
    ]  # fmt: skip
    with log.open("wb") as out:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    base_url = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(base_url, process, log)
    except BaseException:
        stop(process)
        raise
    return process, base_url


def start_app(
    env: dict[str, str], log: Path, port: int | None = None
) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``python -m app`` (as production runs it: the SIGTERM drain, the log
    settings) on ``port`` or a free one; returns once its /readyz answers 200."""
    port = port or free_port()
    env = {**env, "HOST": "127.0.0.1", "PORT": str(port)}
    with log.open("ab") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "app"], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT
        )
    base_url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"python -m app exited:\n{log.read_text(errors='replace')}")
        try:
            with urllib.request.urlopen(f"{base_url}/readyz", timeout=1) as response:
                if response.status == 200:
                    return process, base_url
        except (urllib.error.URLError, OSError):
            pass
        if time.monotonic() > deadline:
            stop(process)
            raise RuntimeError(f"python -m app not ready in 30 s:\n{log.read_text()}")
        time.sleep(0.1)


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@contextmanager
def sqlite_server(name: str) -> Iterator[str]:
    """A server on a fresh temporary SQLite database and the in-process hub (no Redis),
    for the browser benches; yields its base URL and removes everything on exit."""
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp}/{name}.db"}
        env["SECRET"] = f"bench-{name}-secret-".ljust(32, "x")
        env.pop("REDIS_URL", None)
        migrate(env)
        server, base_url = start_uvicorn(env, Path(tmp) / "uvicorn.log")
        try:
            yield base_url
        finally:
            stop(server)
