"""The wheel's bundled binaries: discovery, the console scripts, the poll loop. In a source
install (no dialogmock/bin) the bundled-only checks skip; .ci/package-test runs them from the
installed wheel."""

import os
import subprocess
import sys

import pytest

from dialogmock import MockServer, bundled_binary, bundled_root, find_binary
from dialogmock.server import bundled_event_loop

bundled = pytest.mark.skipif(bundled_binary() is None, reason="a source install: no bundled binaries")


def command(*code_and_args):
    return subprocess.run([sys.executable, "-c", *code_and_args], capture_output=True, text=True, timeout=30)


def test_the_poll_loop_unless_one_is_chosen():
    assert bundled_event_loop([]) == ["--event-loop", "poll"]
    assert bundled_event_loop(["--port", "0"]) == ["--event-loop", "poll"]
    assert bundled_event_loop(["--event-loop", "libuv"]) == []
    assert bundled_event_loop(["--event-loop=libev"]) == []


def test_a_missing_bundled_binary_is_exit_127_with_a_message():
    result = command("from dialogmock.commands import run; run('no-such-binary')")
    assert result.returncode == 127
    assert "carries no no-such-binary binary" in result.stderr


@bundled
def test_the_bundle_is_found_first(monkeypatch, tmp_path):
    decoy = tmp_path / "mock-server"
    decoy.write_text("#!/bin/sh\nexit 1\n")
    decoy.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ.get('PATH', '')}")
    monkeypatch.delenv("DIALOGMOCK_BINARY", raising=False)
    assert find_binary() == bundled_binary("mock-server")
    for name in ("conformance", "dialogmock-adapter"):
        assert os.access(bundled_binary(name), os.X_OK)
    assert (bundled_root() / "conformance" / "suites").is_dir()
    assert (bundled_root() / "mock-server" / "scenarios" / "close.json").is_file()


@bundled
def test_the_console_scripts_run_the_bundled_binaries():
    version = command("import dialogmock.commands as c; c.mock_server()", "--version")
    assert version.returncode == 0 and version.stdout.startswith("mock-server ")
    listed = command("import dialogmock.commands as c; c.conformance()", "list", "--protocol", "qwen-realtime")
    assert listed.returncode == 0 and "qrt.connect.001" in listed.stdout


@bundled
def test_the_bundled_mock_server_serves_on_the_poll_loop(monkeypatch):
    monkeypatch.delenv("DIALOGMOCK_BINARY", raising=False)
    with MockServer() as server:
        assert server.args[-2:] == ["--event-loop", "poll"]
        assert server.health()["eventLoop"] == "poll"
    assert MockServer(extra_args=["--event-loop=libev"]).args[-1] == "--event-loop=libev"
