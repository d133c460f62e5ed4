"""``iwgt serve`` checks its port and address first: what is wrong is said in one line, before "is open"."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from typer.testing import CliRunner

from iwgt.cli import app

runner = CliRunner()
IN_USE = "the port is in use (another table?); try another --port"


def serve(*args: str) -> Any:
    return runner.invoke(app, ["serve", *args], env={"COLUMNS": "400"})


@pytest.fixture
def busy_port() -> Iterator[int]:
    """A port another program is listening on."""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        yield held.getsockname()[1]


@pytest.fixture
def no_server(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """uvicorn.run replaced by a note of how it was called: the checks run, no server starts."""
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append(kw))
    return calls


@pytest.mark.parametrize("port", ["99999", "0", "-1", "65536"])
def test_a_port_out_of_range_is_one_line(port: str, no_server: list[dict[str, Any]], tmp_path: Path) -> None:
    result = serve("--port", port, "--data", str(tmp_path))
    assert result.exit_code == 2
    assert result.output == f"error: --port {port}: a port is a number from 1 to 65535\n"
    assert no_server == []


def test_a_busy_port_is_said_before_anything_is_open(
    busy_port: int, no_server: list[dict[str, Any]], tmp_path: Path
) -> None:
    result = serve("--port", str(busy_port), "--data", str(tmp_path))
    assert result.exit_code == 2
    assert result.output == f"error: cannot listen on 127.0.0.1:{busy_port}: {IN_USE}\n"
    assert "is open" not in result.output
    assert no_server == []


def test_an_address_not_of_this_machine_is_one_line(no_server: list[dict[str, Any]], tmp_path: Path) -> None:
    # 192.0.2.0/24 is TEST-NET-1 (RFC 5737): never an address of this machine.
    result = serve("--host", "192.0.2.7", "--port", "8123", "--data", str(tmp_path))
    assert result.exit_code == 2
    assert result.output == (
        "error: cannot listen on 192.0.2.7:8123: --host '192.0.2.7' is not an address of this machine\n"
    )
    assert no_server == []


def test_a_free_port_opens_the_table(no_server: list[dict[str, Any]], tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = serve("--port", str(port), "--data", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert f"is open at http://127.0.0.1:{port}/" in result.output
    assert [(c["host"], c["port"]) for c in no_server] == [("127.0.0.1", port)]


def test_the_real_command_on_a_busy_port_ends_at_once_in_one_line(busy_port: int, tmp_path: Path) -> None:
    done = subprocess.run(
        [
            str(Path(sys.executable).parent / "iwgt"),
            "serve",
            "--port",
            str(busy_port),
            "--data",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip().splitlines() == [f"error: cannot listen on 127.0.0.1:{busy_port}: {IN_USE}"]


def test_the_readme_quotes_the_busy_port_message() -> None:
    readme = " ".join((Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8").split())
    assert f"`error: cannot listen on 127.0.0.1:8000: {IN_USE}`" in readme
