"""pytest plugin (entry point ``pytest11: dialogmock``).

Fixtures:

- ``dialogmock_server`` (session scope): one ``MockServer`` for the whole test session.
- ``dialogmock`` (function scope): a ``DialogMockTest`` on that server with a fresh test id;
  its URLs carry the id, its faults are armed for it and removed at teardown.

Binary: ``--dialogmock-binary PATH``, else ``$DIALOGMOCK_BINARY``, else the ini option
``dialogmock_binary``, else the binary the installed wheel carries, else ``mock-server`` on
PATH / the checkout's ``.build``.
Extra server arguments: ``--dialogmock-arg ARG`` (repeatable) and the ini option
``dialogmock_args``.

Attach mode: ``--dialogmock-url URL`` (else ``$DIALOGMOCK_URL``, else the ini option
``dialogmock_url``) makes ``dialogmock_server`` a client of the mock server running there
(a container, a shared instance): nothing is started or stopped, its health route is checked
first. Control token: ``--dialogmock-token`` (else ``$DIALOGMOCK_TOKEN``, else the ini option
``dialogmock_token``) is sent as ``Authorization: Bearer`` on every control request; a server the
fixture starts gets it as ``--control-token``.
"""

from __future__ import annotations

import os
import secrets

import pytest

from .server import MockServer, MockServerError
from .testing import DialogMockTest, make_test_id


def pytest_addoption(parser):
    group = parser.getgroup("dialogmock", "DialogMock mock server")
    group.addoption("--dialogmock-binary", metavar="PATH", default=None,
                    help="mock-server binary for the dialogmock fixtures (default: $DIALOGMOCK_BINARY, "
                         "the dialogmock_binary ini option, mock-server on PATH, the checkout's .build)")
    group.addoption("--dialogmock-arg", metavar="ARG", action="append", default=[],
                    help="one extra mock-server argument for dialogmock_server (repeatable; write it "
                         "with '=': --dialogmock-arg=--time-scale=0.01)")
    group.addoption("--dialogmock-url", metavar="URL", default=None,
                    help="attach to the mock server running at URL (ws://HOST:PORT or http://HOST:PORT) "
                         "instead of starting one (default: $DIALOGMOCK_URL, the dialogmock_url ini option)")
    group.addoption("--dialogmock-token", metavar="TOKEN", default=None,
                    help="control token: sent as Authorization: Bearer on control requests, and "
                         "--control-token of a server the fixture starts (default: $DIALOGMOCK_TOKEN, "
                         "the dialogmock_token ini option)")
    parser.addini("dialogmock_binary", "mock-server binary for the dialogmock fixtures", default=None)
    parser.addini("dialogmock_args", "extra mock-server arguments for dialogmock_server (shell words)",
                  type="args", default=[])
    parser.addini("dialogmock_url", "attach to the mock server running at this URL", default=None)
    parser.addini("dialogmock_token", "control token of the mock server (Authorization: Bearer)", default=None)


def _setting(config, name, variable):
    """(value or None, where it was set): --dialogmock-NAME, else $VARIABLE, else the ini option."""
    chosen = config.getoption("dialogmock_" + name)
    if chosen:
        return chosen, "--dialogmock-" + name
    if os.environ.get(variable):
        return os.environ[variable], variable
    ini = config.getini("dialogmock_" + name)
    if ini:
        return ini, f"the dialogmock_{name} ini option"
    return None, "discovery"


def _binary(config):
    """(binary or None, where it was set)."""
    return _setting(config, "binary", "DIALOGMOCK_BINARY")


def _extra_args(config):
    args = list(config.getini("dialogmock_args") or [])
    args.extend(config.getoption("dialogmock_arg") or [])
    return args


@pytest.fixture(scope="session")
def dialogmock_server(pytestconfig):
    """One mock-server for the test session (127.0.0.1, a free port, the default scenario
    unless --dialogmock-arg says otherwise), or with --dialogmock-url the running one. Tests
    that change the global scenario should call ``reset()`` afterwards, or arm a per-test
    scenario (``dialogmock.set_scenario``) instead."""
    token, _ = _setting(pytestconfig, "token", "DIALOGMOCK_TOKEN")
    url, url_origin = _setting(pytestconfig, "url", "DIALOGMOCK_URL")
    if url:
        try:
            server = MockServer(url=url, control_token=token)
            server.start()
        except (MockServerError, ValueError) as e:
            pytest.fail(f"dialogmock: {e} (URL from {url_origin})", pytrace=False)
        yield server
        return
    binary, origin = _binary(pytestconfig)
    try:
        server = MockServer(binary, extra_args=_extra_args(pytestconfig), control_token=token)
        server.start()
    except MockServerError as e:
        pytest.fail(f"dialogmock: {e} (binary from {origin})", pytrace=False)
    try:
        yield server
    finally:
        server.stop()


#: On a server shared with other runs (attach mode) a test id must not repeat across runs: the
#: server keeps the journals of earlier ones. One random suffix per pytest process.
_RUN_SUFFIX = secrets.token_hex(3)


@pytest.fixture
def dialogmock(dialogmock_server, request):
    """This test's view of the shared server: a fresh ``test_id``; ``multimodal_url``,
    ``realtime_url(model=…)`` and ``live_url(model=…)`` carry it; ``arm_fault``, ``set_scenario``,
    ``sessions``, ``journal``, ``refusals``, ``violations``, ``assert_no_violations`` are scoped
    to it (a refused upgrade is a MUST violation); its faults and scenario are removed at
    teardown. Attached to a running server, the id also carries a per-run suffix."""
    name = request.node.nodeid
    if dialogmock_server.attached:
        name = f"{name}-{_RUN_SUFFIX}"
    test = DialogMockTest(dialogmock_server, make_test_id(name))
    try:
        yield test
    finally:
        test.close()
