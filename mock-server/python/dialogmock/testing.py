"""DialogMockTest: one test's view of a shared MockServer, scoped by a test id."""

from __future__ import annotations

import itertools
import re
from typing import Any, Dict, List, Mapping, Optional

from .server import (
    DEFAULT_LIVE_MODEL,
    DEFAULT_REALTIME_MODEL,
    ControlAPIError,
    MockServer,
    MockServerError,
    ScenarioInput,
    SessionRef,
    _raise_violations,
)

__all__ = ["DialogMockTest", "make_test_id"]

_counter = itertools.count(1)
_UNSAFE = re.compile(r"[^A-Za-z0-9._~-]+")


def make_test_id(name: str, max_length: int = 96) -> str:
    """A URL-safe, process-unique test id from ``name`` (e.g. a pytest node id) and a counter."""
    slug = _UNSAFE.sub("-", name).strip("-.") or "test"
    suffix = f"-{next(_counter)}"
    if len(slug) + len(suffix) > max_length:
        slug = slug[-(max_length - len(suffix)):].lstrip("-.")
    return slug + suffix


class DialogMockTest:
    """A test's handle on a shared server: every URL carries ``test_id``, faults are armed
    for it, and sessions / journals / violations are those of its sessions (and of its
    refused upgrades).

    ``close()`` (the ``dialogmock`` fixture calls it at teardown) removes its faults and its
    per-test scenario.
    """

    #: any key works unless the server was started with ``--api-key``; the mock refuses an
    #: upgrade without an ``Authorization`` header (401)
    api_key = "sk-dialogmock"

    def __init__(self, server: MockServer, test_id: str):
        self.server = server
        self.test_id = test_id
        # control requests carry X-Test-Id, so a proxy hashing on it reaches this test's replica
        self._control = server.scoped_to(test_id)
        self._scenario_armed = False

    def __repr__(self) -> str:
        return f"<DialogMockTest {self.test_id!r} on {self.server!r}>"

    # ---- URLs --------------------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        return self.server.base_url

    @property
    def http_url(self) -> str:
        return self.server.http_url

    @property
    def multimodal_url(self) -> str:
        """``ws://127.0.0.1:PORT/api-ws/v1/inference?test_id=…``"""
        return self.server.multimodal_url_for(self.test_id)

    def realtime_url(self, model: str = DEFAULT_REALTIME_MODEL) -> str:
        """``ws://127.0.0.1:PORT/api-ws/v1/realtime?model=…&test_id=…``"""
        return self.server.realtime_url_for(self.test_id, model=model)

    def live_url(self, model: str = DEFAULT_LIVE_MODEL) -> str:
        """``ws://127.0.0.1:PORT/api-ws/v1/live?model=…&test_id=…`` (Qwen-Audio-Live; the
        realtime URL with a live model reaches it too)"""
        return self.server.live_url_for(self.test_id, model=model)

    @property
    def headers(self) -> Dict[str, str]:
        """Upgrade headers: ``Authorization: Bearer <api_key>`` and ``X-Test-Id`` (for clients
        that cannot add the query parameter)."""
        return {"Authorization": f"Bearer {self.api_key}", "X-Test-Id": self.test_id}

    # ---- faults ------------------------------------------------------------------------------

    def arm_fault(self, fault: Mapping[str, Any]) -> str:
        """Arms ``fault`` for every open and later session of this test; returns its id."""
        return self._control.arm_fault(fault, test_id=self.test_id)

    def faults(self) -> List[Dict[str, Any]]:
        return self._control.faults(test_id=self.test_id)

    def remove_fault(self, fault_id: str) -> Dict[str, Any]:
        return self._control.remove_fault(fault_id)

    def clear_faults(self) -> List[str]:
        return self._control.clear_faults(test_id=self.test_id)

    # ---- per-test scenario -------------------------------------------------------------------

    def set_scenario(self, scenario: ScenarioInput) -> Dict[str, Any]:
        """Arms ``scenario`` (a dict, bytes, a file path or a shipped scenario's name, as
        ``MockServer.set_scenario``) for this test's sessions opened afterwards; other tests keep
        the server's scenario. Removed at teardown. Returns ``{"testId", "scenario"}``."""
        answer = self._control.set_test_scenario(self.test_id, scenario)
        self._scenario_armed = True
        return answer

    def scenario(self) -> Optional[Dict[str, Any]]:
        """The scenario armed for this test (``GET /_mock/tests/<id>/scenario``), or None."""
        return self._control.test_scenario(self.test_id)

    def clear_scenario(self) -> bool:
        """Removes this test's scenario; later sessions get the server's. False if none was armed."""
        self._scenario_armed = False
        return self._control.clear_test_scenario(self.test_id)

    # ---- sessions and journals ---------------------------------------------------------------

    def sessions(self, open: Optional[bool] = None) -> List[Dict[str, Any]]:
        """This test's sessions (open ones and the recently closed ones)."""
        return self._control.sessions(test_id=self.test_id, open=open)

    def wait_for_session(self, timeout: float = 5.0, closed: bool = False) -> Dict[str, Any]:
        """Waits for a session of this test (with ``closed=True``: a closed one); the newest."""
        return self._control.wait_for_session(test_id=self.test_id, timeout=timeout, closed=closed)

    def _resolve(self, session: Optional[SessionRef], timeout: float) -> SessionRef:
        if session is not None:
            return session
        return self.wait_for_session(timeout=timeout)

    def journal(self, session: Optional[SessionRef] = None, timeout: float = 5.0) -> List[Dict[str, Any]]:
        """The journal of ``session``, or of this test's newest session (waiting up to
        ``timeout`` seconds for one to exist)."""
        return self._control.journal(self._resolve(session, timeout))

    def report(self, session: Optional[SessionRef] = None, timeout: float = 5.0) -> Dict[str, Any]:
        """The final report of ``session`` (default: this test's newest), see ``MockServer.report``."""
        return self._control.report(self._resolve(session, timeout))

    def events(self, session: Optional[SessionRef] = None, direction: Optional[str] = None,
               timeout: float = 5.0) -> List[Dict[str, Any]]:
        """Frame entries with an ``event`` of ``session`` (default: the newest), ``in``/``out``."""
        return self._control.events(self._resolve(session, timeout), direction)

    def event_names(self, session: Optional[SessionRef] = None, direction: Optional[str] = None,
                    timeout: float = 5.0) -> List[str]:
        return self._control.event_names(self._resolve(session, timeout), direction)

    def refusals(self) -> List[Dict[str, Any]]:
        """The upgrades the mock refused for this test (no session opened), oldest first."""
        return self._control.refusals(test_id=self.test_id)

    def violations(self, level: Optional[str] = None) -> List[Dict[str, Any]]:
        """Violation entries of every session of this test, each with ``"session": id``, then
        one per upgrade the mock refused for it (``mmd.C1`` / ``qrt.C1``, MUST) with
        ``"refusal": {…}``; ``level="MUST"`` or ``"SHOULD"`` keeps one level."""
        return self._control.violations(test_id=self.test_id, level=level)

    def assert_no_violations(self, level: Optional[str] = "MUST") -> None:
        """Raises ``AssertionError`` when this test's sessions journaled protocol violations or
        the mock refused one of its upgrades; the message lists each: obligation id, level,
        session, the frame (event name, time) it happened at, the message, and for a refused
        upgrade its path, status and reason. ``level`` is the lowest level that fails:
        ``"MUST"`` (default), ``"SHOULD"`` (MUST and SHOULD) or None (any)."""
        _raise_violations(self.violations(), f"test {self.test_id!r}", level)

    def close(self) -> None:
        """Removes this test's faults and per-test scenario (errors are ignored when the server
        is gone)."""
        try:
            self.clear_faults()
        except (ControlAPIError, MockServerError):
            pass
        if self._scenario_armed:
            self._scenario_armed = False
            try:
                self._control.clear_test_scenario(self.test_id)
            except (ControlAPIError, MockServerError):
                pass
