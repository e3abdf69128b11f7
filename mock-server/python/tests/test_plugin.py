"""The pytest plugin itself, in nested pytest runs (pytester)."""

import os

import pytest


@pytest.fixture
def binary():
    from dialogmock import find_binary
    return find_binary()


def test_fixtures_in_a_nested_run(pytester, binary):
    pytester.makepyfile(test_inner="""
        import re

        ids = []

        def test_a(dialogmock, dialogmock_server):
            ids.append(dialogmock.test_id)
            assert dialogmock.server is dialogmock_server
            assert dialogmock_server.health()["scenario"] == "close"
            assert "test_id=" + dialogmock.test_id in dialogmock.multimodal_url
            dialogmock.arm_fault({"kind": "drop"})

        def test_b(dialogmock, dialogmock_server):
            ids.append(dialogmock.test_id)
            assert ids[0] != ids[1]
            assert all(re.fullmatch(r"[A-Za-z0-9._~-]+", i) for i in ids)
            assert dialogmock_server.faults(test_id=ids[0]) == []    # cleared at teardown
            assert dialogmock_server.faults() == []
    """)
    result = pytester.runpytest_subprocess(f"--dialogmock-binary={binary}", "--dialogmock-arg=--scenario=close",
                                           "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)


def test_ini_option_and_missing_binary(pytester, monkeypatch):
    monkeypatch.delenv("DIALOGMOCK_BINARY", raising=False)
    pytester.makeini("[pytest]\ndialogmock_binary = /no/such/mock-server\n")
    pytester.makepyfile(test_inner="""
        def test_needs_server(dialogmock):
            pass
    """)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*dialogmock: mock-server binary is not an executable file: /no/such/mock-server*dialogmock_binary ini option*"])
