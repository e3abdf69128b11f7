"""MockServer: process lifecycle, URLs, discovery, plain control API routes."""

import os
import re
import time

import pytest

import dialogmock

from dialogmock import BinaryNotFoundError, ControlAPIError, MockServer, MockServerError, find_binary


def test_start_stop_and_ready_line():
    server = MockServer()
    assert not server.running
    with server:
        assert server.running
        assert re.fullmatch(r"ws://127\.0\.0\.1:\d+", server.base_url)
        port = server.port
        assert port > 0
        assert server.http_url == f"http://127.0.0.1:{port}"
        assert server.multimodal_url == f"ws://127.0.0.1:{port}/api-ws/v1/inference"
        assert server.realtime_url() == f"ws://127.0.0.1:{port}/api-ws/v1/realtime?model=qwen3-omni-flash-realtime"
        assert server.realtime_url("qwen-audio-turbo-realtime").endswith("?model=qwen-audio-turbo-realtime")
        assert server.multimodal_url_for("t 1") == server.multimodal_url + "?test_id=t+1"
        assert server.realtime_url_for("t1", model="m") == server.base_url + "/api-ws/v1/realtime?model=m&test_id=t1"
        assert server.live_url() == f"ws://127.0.0.1:{port}/api-ws/v1/live?model=qwen-audio-3.1-live"
        assert server.live_url_for("t1") == server.base_url + "/api-ws/v1/live?model=qwen-audio-3.1-live&test_id=t1"
        assert server.command[1:5] == ["--host", "127.0.0.1", "--port", "0"]
        assert server.health()["status"] == "ok"
        deadline = time.monotonic() + 3                 # the log line may trail the ready line
        while "listening on" not in server.stderr_tail() and time.monotonic() < deadline:
            time.sleep(0.02)
        assert "listening on" in server.stderr_tail()
        pid = server.pid
    assert not server.running
    assert server.returncode == 0                  # SIGTERM: clean shutdown, exit 0
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    assert server.stop() == 0                      # idempotent


def test_options_reach_the_command_line(scenarios_dir):
    with MockServer(scenario=scenarios_dir / "close.json", api_keys=["sk-a", "sk-b"], time_scale=0.5,
                    seed=7, extra_args=["--threads", "1"]) as server:
        args = server.args
        assert args[args.index("--scenario") + 1].endswith("close.json")
        assert [args[i + 1] for i, a in enumerate(args) if a == "--api-key"] == ["sk-a", "sk-b"]
        assert args[args.index("--time-scale") + 1] == "0.5"
        assert args[args.index("--seed") + 1] == "7"
        health = server.health()
        assert health["scenario"] == "close"
        assert health["threads"] == 1


def test_bad_argument_raises_with_stderr_tail():
    started = time.monotonic()
    with pytest.raises(MockServerError) as info:
        MockServer(extra_args=["--no-such-option"]).start()
    assert time.monotonic() - started < 10
    error = info.value
    assert error.returncode == 2
    assert "no-such-option" in error.stderr
    assert "stderr" in str(error) and "no-such-option" in str(error)


def test_startup_timeout_kills_the_process(tmp_path):
    fake = tmp_path / "mock-server"
    fake.write_text("#!/bin/sh\necho 'starting up' >&2\nexec sleep 30\n")
    fake.chmod(0o755)
    server = MockServer(binary=fake, startup_timeout=0.5)
    with pytest.raises(MockServerError) as info:
        server.start()
    assert "no ready line within 0.5 s" in str(info.value)
    assert "starting up" in info.value.stderr
    assert server.returncode is not None           # killed, not left behind


def test_binary_discovery(monkeypatch, tmp_path):
    with pytest.raises(BinaryNotFoundError):
        MockServer(binary=tmp_path / "missing")
    monkeypatch.setenv("DIALOGMOCK_BINARY", str(tmp_path / "missing-too"))
    with pytest.raises(BinaryNotFoundError, match="DIALOGMOCK_BINARY"):
        find_binary()
    monkeypatch.delenv("DIALOGMOCK_BINARY")
    # without binary= or the variable: PATH, then the checkout's .build (may still fail
    # when neither exists: then the error names what was tried)
    try:
        found = find_binary()
        assert os.access(found, os.X_OK)
    except BinaryNotFoundError as e:
        assert ".build/debug/mock-server" in str(e)


def test_health_routes_openapi_metrics(dialogmock_server):
    health = dialogmock_server.health()
    assert health["status"] == "ok"
    # one version for the package: the Python wrapper ships with the binary it drives
    assert health["version"] == dialogmock.__version__
    assert {"version", "libraries", "eventLoop", "threads", "scenario"} <= set(health)
    routes = dialogmock_server.routes()
    listed = {(r["method"], r["path"]) for r in routes["routes"]}
    for route in [("GET", "/_mock/health"), ("GET", "/_mock/sessions"), ("POST", "/_mock/faults"),
                  ("DELETE", "/_mock/faults/{id}"), ("POST", "/_mock/reset"), ("PUT", "/_mock/scenario")]:
        assert route in listed
    document = dialogmock_server.openapi()
    assert document["openapi"].startswith("3.")
    assert "/_mock/faults" in document["paths"]
    metrics = dialogmock_server.metrics()
    assert re.search(r"^dialogmock_sessions_total \d+$", metrics, re.M)


def test_case_urls_carry_each_protocols_path_and_model(dialogmock_server):
    base = dialogmock_server.base_url + "/case/c%2F1"
    assert dialogmock_server.case_url("c/1") == base + "/api-ws/v1/inference"
    assert dialogmock_server.case_url("c/1", "qwen-realtime") == base + "/api-ws/v1/realtime?model=qwen3-omni-flash-realtime"
    assert dialogmock_server.case_url("c/1", "qwen-audio-live") == base + "/api-ws/v1/live?model=qwen-audio-3.1-live"
    assert dialogmock_server.case_url("c/1", "qwen-audio-live", model="qwen-audio-3.2-live").endswith("=qwen-audio-3.2-live")
    assert dialogmock.PROTOCOLS == ("multimodal-dialog", "qwen-realtime", "qwen-audio-live")
    with pytest.raises(ValueError, match="unknown protocol 'smtp'"):
        dialogmock_server.case_url("c/1", "smtp")


def test_plain_get_on_a_websocket_route_is_426(dialogmock_server):
    with pytest.raises(ControlAPIError) as info:
        dialogmock_server.request("GET", "/api-ws/v1/inference")
    assert info.value.status == 426
    assert info.value.code == "UpgradeRequired"
    assert "WebSocket" in info.value.message


def test_unknown_routes_and_sessions_are_404_and_405(dialogmock_server):
    with pytest.raises(ControlAPIError) as info:
        dialogmock_server.journal("s999999")
    assert info.value.status == 404 and info.value.code == "NotFound"
    with pytest.raises(ControlAPIError) as info:
        dialogmock_server.request("GET", "/_mock/reset")
    assert info.value.status == 405
    with pytest.raises(ControlAPIError) as info:
        dialogmock_server.request("GET", "/_mock/sessions", query={"open": "maybe"})
    assert info.value.status == 400 and "open" in info.value.message


def test_unreachable_server_raises_mockservererror():
    server = MockServer()
    server.start()
    server.stop()
    with pytest.raises(MockServerError, match="not running"):
        server.health()
