"""pytest plugin (entry point ``pytest11: dialogmock``).

Fixtures:

- ``dialogmock_server`` (session scope): one ``MockServer`` for the whole test session.
- ``dialogmock`` (function scope): a ``DialogMockTest`` on that server with a fresh test id;
  its URLs carry the id, its faults are armed for it and removed at teardown.

Binary: ``--dialogmock-binary PATH``, else ``$DIALOGMOCK_BINARY``, else the ini option
``dialogmock_binary``, else ``mock-server`` on PATH / the checkout's ``.build``.
Extra server arguments: ``--dialogmock-arg ARG`` (repeatable) and the ini option
``dialogmock_args``.
"""

from __future__ import annotations

import os

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
    parser.addini("dialogmock_binary", "mock-server binary for the dialogmock fixtures", default=None)
    parser.addini("dialogmock_args", "extra mock-server arguments for dialogmock_server (shell words)",
                  type="args", default=[])


def _binary(config):
    """(binary or None, where it was set)."""
    chosen = config.getoption("dialogmock_binary")
    if chosen:
        return chosen, "--dialogmock-binary"
    if os.environ.get("DIALOGMOCK_BINARY"):
        return os.environ["DIALOGMOCK_BINARY"], "DIALOGMOCK_BINARY"
    ini = config.getini("dialogmock_binary")
    if ini:
        return ini, "the dialogmock_binary ini option"
    return None, "discovery"


def _extra_args(config):
    args = list(config.getini("dialogmock_args") or [])
    args.extend(config.getoption("dialogmock_arg") or [])
    return args


@pytest.fixture(scope="session")
def dialogmock_server(pytestconfig):
    """One mock-server for the test session (127.0.0.1, a free port, the default scenario
    unless --dialogmock-arg says otherwise). Tests that change the scenario should call
    ``reset()`` afterwards, or start their own ``MockServer``."""
    binary, origin = _binary(pytestconfig)
    try:
        server = MockServer(binary, extra_args=_extra_args(pytestconfig))
        server.start()
    except MockServerError as e:
        pytest.fail(f"dialogmock: {e} (binary from {origin})", pytrace=False)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def dialogmock(dialogmock_server, request):
    """This test's view of the shared server: a fresh ``test_id``; ``multimodal_url``,
    ``realtime_url(model=…)`` and ``live_url(model=…)`` carry it; ``arm_fault``, ``sessions``, ``journal``,
    ``refusals``, ``violations`` are scoped to it (a refused upgrade is a MUST violation);
    its faults are removed at teardown."""
    test = DialogMockTest(dialogmock_server, make_test_id(request.node.nodeid))
    try:
        yield test
    finally:
        test.close()
