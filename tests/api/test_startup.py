"""Starting the real server without SECRET: ``python -m app`` on loopback makes a random
secret once (``var/secret``, mode 0600) and keeps it across restarts; on any other
address, and under ``uvicorn app.asgi:app`` (which cannot tell its address), it refuses
with one line naming SECRET and a non-zero exit status."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from app.identity import COOKIE, CookieSigner
from tests.conftest import player_id_for
from tests.servers import ROOT, free_port, stop, wait_until_up


def environment(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("SECRET", "HOST", "PORT")}
    env["SECRET_FILE"] = str(tmp_path / "var" / "secret")
    env["DATABASE_URL"] = f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite3'}"
    env.pop("REDIS_URL", None)
    return {**env, **extra}


def refusal(command: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=False
    )


def assert_refused(result: subprocess.CompletedProcess[str]) -> None:
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "SECRET" in lines[0], result.stderr
    assert "Traceback" not in result.stderr + result.stdout


@pytest.mark.slow
@pytest.mark.parametrize("host", ["0.0.0.0", "::"])
def test_python_m_app_refuses_a_public_bind_without_secret(tmp_path: Path, host: str) -> None:
    env = environment(tmp_path, HOST=host, PORT=str(free_port()))
    assert_refused(refusal([sys.executable, "-m", "app"], env))
    assert not (tmp_path / "var" / "secret").exists()


@pytest.mark.slow
def test_uvicorn_entry_refuses_without_secret(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "uvicorn", "app.asgi:app", "--port", str(free_port())]
    assert_refused(refusal(command, environment(tmp_path)))


def start_loopback(tmp_path: Path, name: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = environment(tmp_path, HOST="127.0.0.1", PORT=str(port))
    log = tmp_path / f"{name}.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "app"], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT
        )
    base_url = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(base_url, process, log)
    except BaseException:
        stop(process)
        raise
    return process, base_url


def set_cookie(base_url: str, cookie: str | None = None) -> str | None:
    request = urllib.request.Request(f"{base_url}/api/catalog")  # static files make no player
    if cookie:
        request.add_header("cookie", cookie)
    with urllib.request.urlopen(request, timeout=5) as response:
        return response.headers.get("set-cookie")


@pytest.mark.slow
def test_loopback_server_makes_its_secret_once(tmp_path: Path) -> None:
    path = tmp_path / "var" / "secret"
    process, base_url = start_loopback(tmp_path, "first")
    try:
        issued = set_cookie(base_url)
        assert issued is not None
        cookie = issued.split(";")[0]
        assert set_cookie(base_url, cookie) is None  # its own cookie is read back
        # The old built-in secret signs nothing any more.
        old = CookieSigner("dev-secret-change-me").sign(player_id_for("mallory"))
        assert set_cookie(base_url, f"{COOKIE}={old}") is not None
    finally:
        stop(process)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    secret = path.read_text()
    process, base_url = start_loopback(tmp_path, "second")
    try:
        assert set_cookie(base_url, cookie) is None  # same secret after a restart
    finally:
        stop(process)
    assert path.read_text() == secret
