"""Attach mode (a client of a running mock server) and the control token."""

import socket
import urllib.error
import urllib.request

import pytest

from dialogmock import MockServer, MockServerError


@pytest.fixture(scope="module")
def running():
    """A server started by this module: the "running mock" the tests attach to."""
    with MockServer() as s:
        yield s


@pytest.fixture(scope="module")
def guarded():
    """A running server with a control token."""
    with MockServer(control_token="s3cret") as s:
        yield s


def closed_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def status_without_token(server, path="/_mock/sessions"):
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(server.http_url + path, timeout=5) as response:
            return response.status
    except urllib.error.HTTPError as e:
        return e.code


def test_attach_by_ws_and_http_url(running):
    for url in (running.base_url, running.http_url, running.http_url + "/"):
        attached = MockServer.attach(url)
        assert attached.attached and attached.running
        assert attached.binary is None and attached.command == []
        assert attached.base_url == running.base_url
        assert attached.http_url == running.http_url
        assert attached.realtime_url_for("t") == running.realtime_url_for("t")
        assert attached.health()["status"] == "ok"
        assert attached.stop() is None                       # not ours: left running
        assert not attached.running
        assert running.running and running.health()["status"] == "ok"


def test_attached_client_sees_the_same_server(running):
    attached = MockServer(url=running.base_url)
    assert not attached.running                               # not checked yet
    with attached:
        fault = attached.arm_fault({"kind": "drop"}, test_id="attach-1")
        assert [f["id"] for f in running.faults(test_id="attach-1")] == [fault]
        assert attached.clear_faults(test_id="attach-1") == [fault]
    assert running.running


def test_attach_to_nothing_is_a_clear_error():
    port = closed_port()
    with pytest.raises(MockServerError) as info:
        MockServer.attach(f"ws://127.0.0.1:{port}")
    assert f"the mock server at http://127.0.0.1:{port} is unreachable" in str(info.value)


def test_bad_urls_and_start_options_are_refused(running):
    for url in ("", "127.0.0.1:8765", "ftp://host:1", "http://", "http://host:port"):
        with pytest.raises(ValueError, match="not a mock server URL"):
            MockServer(url=url)
    with pytest.raises(ValueError, match="scenario only apply to a server this object starts"):
        MockServer(url=running.base_url, scenario="close")


def test_a_started_server_with_a_token_gets_it_and_sends_it(guarded):
    args = guarded.args
    assert args[args.index("--control-token") + 1] == "s3cret"
    assert guarded.sessions() == []                          # sent on every control request
    assert status_without_token(guarded) == 401
    assert status_without_token(guarded, "/_mock/health") == 200


def test_attach_with_the_token(guarded):
    attached = MockServer.attach(guarded.http_url, control_token="s3cret")
    assert attached.sessions() == []
    assert attached.routes()


def test_attach_with_a_wrong_or_no_token_is_a_clear_error(guarded):
    with pytest.raises(MockServerError) as info:
        MockServer.attach(guarded.http_url, control_token="wrong")
    assert "refused the control API: the control token was refused (401" in str(info.value)
    assert "--dialogmock-token" in str(info.value)
    with pytest.raises(MockServerError) as info:
        MockServer.attach(guarded.http_url)
    assert "refused the control API: no control token was given (401" in str(info.value)


def test_plugin_attaches_by_option_and_environment(pytester, running, monkeypatch):
    pytester.makepyfile(test_inner="""
        import re

        def test_a(dialogmock, dialogmock_server):
            assert dialogmock_server.attached
            assert dialogmock_server.binary is None
            assert dialogmock_server.health()["status"] == "ok"
            # a per-run suffix: ids do not repeat across runs on a shared server
            assert re.fullmatch(r".*test_a-[0-9a-f]{6}-[0-9]+", dialogmock.test_id), dialogmock.test_id
            dialogmock.arm_fault({"kind": "drop"})
            assert len(dialogmock.faults()) == 1
    """)
    result = pytester.runpytest_inprocess(f"--dialogmock-url={running.base_url}",
                                           "--dialogmock-binary=/no/such/mock-server", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    assert running.running and running.faults() == []            # cleared at teardown, not stopped
    monkeypatch.setenv("DIALOGMOCK_URL", running.http_url)
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)


def test_plugin_attaches_with_the_token(pytester, guarded, monkeypatch):
    pytester.makepyfile(test_inner="""
        def test_a(dialogmock):
            assert dialogmock.sessions() == []
    """)
    monkeypatch.setenv("DIALOGMOCK_TOKEN", "s3cret")
    result = pytester.runpytest_inprocess(f"--dialogmock-url={guarded.base_url}", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    result = pytester.runpytest_inprocess(f"--dialogmock-url={guarded.base_url}", "--dialogmock-token=wrong",
                                           "-p", "no:cacheprovider")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*dialogmock: the mock server at http://127.0.0.1:*refused the control API: "
                                 "the control token was refused*--dialogmock-url*"])


def test_plugin_attach_to_nothing_fails_clearly(pytester):
    pytester.makepyfile(test_inner="""
        def test_a(dialogmock):
            pass
    """)
    port = closed_port()
    result = pytester.runpytest_inprocess(f"--dialogmock-url=ws://127.0.0.1:{port}", "-p", "no:cacheprovider")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines([f"*dialogmock: the mock server at http://127.0.0.1:{port} is unreachable*"])


def test_plugin_starts_its_server_with_the_token(pytester):
    from dialogmock import find_binary
    pytester.makepyfile(test_inner="""
        import urllib.error, urllib.request

        def test_a(dialogmock_server):
            assert not dialogmock_server.attached
            args = dialogmock_server.args
            assert args[args.index("--control-token") + 1] == "tok"
            assert dialogmock_server.sessions() == []
            opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
            try:
                opener.open(dialogmock_server.http_url + "/_mock/sessions", timeout=5)
                raise AssertionError("no 401 without the token")
            except urllib.error.HTTPError as e:
                assert e.code == 401
    """)
    result = pytester.runpytest_inprocess(f"--dialogmock-binary={find_binary()}", "--dialogmock-token=tok",
                                           "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)


def test_a_tests_control_requests_carry_its_test_id_for_a_hashing_proxy(running):
    """Behind replicas, a proxy hashes on the test id; routes such as POST /_mock/faults and a
    session's journal have none in their URL, so DialogMockTest sends X-Test-Id on every one."""
    import http.server
    import threading

    from dialogmock import DialogMockTest

    seen = []

    class Front(http.server.BaseHTTPRequestHandler):
        """Forwards to the running server and notes each request's X-Test-Id."""

        def _forward(self):
            seen.append((self.command, self.path.split("?")[0], self.headers.get("X-Test-Id")))
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            request = urllib.request.Request(running.http_url + self.path, data=body, method=self.command,
                                             headers={k: v for k, v in self.headers.items() if k.lower() != "host"})
            try:
                with urllib.request.build_opener(urllib.request.ProxyHandler({})).open(request) as answer:
                    status, payload, kind = answer.status, answer.read(), answer.headers.get("Content-Type")
            except urllib.error.HTTPError as error:
                status, payload, kind = error.code, error.read(), error.headers.get("Content-Type")
            self.send_response(status)
            self.send_header("Content-Type", kind or "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        do_GET = do_POST = do_PUT = do_DELETE = _forward

        def log_message(self, *args):
            pass

    front = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Front)
    threading.Thread(target=front.serve_forever, daemon=True).start()
    try:
        server = MockServer.attach(f"http://127.0.0.1:{front.server_address[1]}")
        test = DialogMockTest(server, "hashed-test")
        seen.clear()
        fault = test.arm_fault({"kind": "duplicate", "match": {"type": "session.created"}})
        test.faults()
        test.set_scenario({"name": "scoped"})
        test.sessions()
        test.violations()
        test.remove_fault(fault)
        test.close()
        assert seen, "no control request reached the front"
        missing = [(method, path) for method, path, test_id in seen if test_id != "hashed-test"]
        assert missing == [], f"control requests without X-Test-Id: hashed-test: {missing}"
        assert ("POST", "/_mock/faults", "hashed-test") in seen
        server.request("GET", "/_mock/health")            # the server itself sends none
        assert seen[-1] == ("GET", "/_mock/health", None)
    finally:
        front.shutdown()
        front.server_close()
