"""Refused upgrades are findings: a client the mock refuses at the upgrade opens no session,
and its broken connect (C1) is still one of its test's MUST violations."""

import base64
import http.client
import os
import urllib.parse

import pytest

import dialogmock as dialogmock_module
from dialogmock import ControlAPIError


def raw_upgrade(url, headers=()):
    """Sends a WebSocket upgrade to `url` with the handshake headers and `headers` only (no
    Authorization unless given); returns (status, body)."""
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=5)
    try:
        connection.putrequest("GET", parts.path + ("?" + parts.query if parts.query else ""),
                              skip_accept_encoding=True)
        handshake = [("Upgrade", "websocket"), ("Connection", "Upgrade"),
                     ("Sec-WebSocket-Key", base64.b64encode(os.urandom(16)).decode()),
                     ("Sec-WebSocket-Version", "13")]
        for name, value in handshake + list(headers):
            connection.putheader(name, value)
        connection.endheaders()
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def url_of(dialogmock, protocol):
    """This test's URL of `protocol` (Qwen-Audio-Live on its own path and, by model, on the
    realtime path)."""
    return {
        "multimodal": lambda: dialogmock.multimodal_url,
        "realtime": dialogmock.realtime_url,
        "live": dialogmock.live_url,
        "live-on-realtime": lambda: dialogmock.realtime_url(model=dialogmock_module.DEFAULT_LIVE_MODEL),
    }[protocol]()


@pytest.mark.parametrize("protocol, obligation", [("multimodal", "mmd.C1"), ("realtime", "qrt.C1"),
                                                  ("live", "qal.C1"), ("live-on-realtime", "qal.C1")])
def test_an_upgrade_without_authorization_is_a_must_violation(dialogmock, protocol, obligation):
    url = url_of(dialogmock, protocol)
    status, _ = raw_upgrade(url)
    assert status == 401
    assert dialogmock.sessions() == []
    [refusal] = dialogmock.refusals()
    assert refusal["status"] == 401
    assert refusal["testId"] == dialogmock.test_id
    assert refusal["path"] == urllib.parse.urlsplit(url).path
    assert refusal["reason"].startswith("InvalidApiKey: ")
    [violation] = dialogmock.violations(level="MUST")
    assert violation["kind"] == "violation"
    assert violation["violation"]["obligation"] == obligation
    assert violation["violation"]["message"] == f"MUST: upgrade refused with 401 ({refusal['reason']})"
    assert violation["refusal"] == refusal
    assert dialogmock.violations(level="SHOULD") == []


@pytest.mark.parametrize("protocol, name", [("multimodal", "multimodal-dialog"), ("realtime", "qwen-realtime"),
                                            ("live", "qwen-audio-live"), ("live-on-realtime", "qwen-audio-live")])
def test_a_refusal_names_the_protocol_the_url_asked_for(dialogmock, dialogmock_server, protocol, name):
    # A plain request on a protocol route (no upgrade): the router refuses it, whatever the engine.
    url = url_of(dialogmock, protocol)
    with pytest.raises(ControlAPIError) as refused:
        dialogmock_server.request("GET", urllib.parse.urlsplit(url).path,
                                  query=dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query)))
    assert refused.value.status == 426
    [refusal] = dialogmock.refusals()
    assert refusal["protocol"] == name
    assert name in dialogmock_module.PROTOCOLS


def test_a_refused_client_fails_the_usual_assertion(pytester):
    from dialogmock import find_binary
    # The assertion the README recommends: it must fail when the client was refused at the
    # upgrade, and the refusal must not leak into the next test.
    pytester.makepyfile(test_inner=f"""
        import sys
        sys.path.insert(0, {os.path.dirname(__file__)!r})
        from test_refusals import raw_upgrade

        def test_refused(dialogmock):
            assert raw_upgrade(dialogmock.multimodal_url)[0] == 401
            assert dialogmock.violations(level="MUST") == []

        def test_next(dialogmock):
            assert dialogmock.violations(level="MUST") == []
    """)
    result = pytester.runpytest_subprocess(f"--dialogmock-binary={find_binary()}", "-p", "no:cacheprovider", "-vv")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*test_refused*", "*mmd.C1*upgrade refused with 401 (InvalidApiKey*"])


def test_a_misspelt_control_filter_is_refused_and_removes_nothing(dialogmock, dialogmock_server):
    fault = dialogmock.arm_fault({"kind": "drop", "match": {"type": "x"}})
    with pytest.raises(ControlAPIError) as refused:
        dialogmock_server.request("DELETE", "/_mock/faults", query={"testid": dialogmock.test_id})
    assert refused.value.status == 400
    assert refused.value.code == "UnknownQueryParameter"
    assert refused.value.message == "unknown query parameter testid; did you mean testId?"
    assert [f["id"] for f in dialogmock.faults()] == [fault]


def test_the_package_sends_only_parameters_the_routes_take(dialogmock, dialogmock_server):
    # Every filter each method can send, at once: none is refused.
    taken = {(r["method"], r["path"]): set(r.get("query", [])) for r in dialogmock_server.routes()["routes"]}
    assert taken[("GET", "/_mock/sessions")] == {"testId", "caseId", "open"}
    assert taken[("GET", "/_mock/refusals")] == {"testId", "caseId"}
    assert taken[("GET", "/_mock/faults")] == taken[("DELETE", "/_mock/faults")] == {"testId", "session"}
    assert dialogmock_server.sessions(test_id=dialogmock.test_id, case_id="c", open=False) == []
    assert dialogmock_server.refusals(test_id=dialogmock.test_id, case_id="c") == []
    assert dialogmock_server.faults(test_id=dialogmock.test_id, session="s0") == []
    assert dialogmock_server.clear_faults(test_id=dialogmock.test_id, session="s0") == []
    assert dialogmock.violations() == []
