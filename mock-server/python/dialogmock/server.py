"""MockServer: runs the ``mock-server`` binary and talks to its control API.

Standard library only: ``subprocess`` for the process, ``urllib`` for the control API.
"""

from __future__ import annotations

import collections
import copy
import json
import os
import re
import shutil
import signal
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import weakref
from pathlib import Path
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Union

__all__ = [
    "MockServer",
    "MockServerError",
    "BinaryNotFoundError",
    "ControlAPIError",
    "find_binary",
    "bundled_binary",
    "bundled_root",
    "find_repo_root",
    "violation_level",
    "format_violation",
    "DEFAULT_REALTIME_MODEL",
    "DEFAULT_LIVE_MODEL",
    "PROTOCOLS",
]

DEFAULT_REALTIME_MODEL = "qwen3-omni-flash-realtime"
#: The Qwen-Audio-Live service model of the documented upgrade URL.
DEFAULT_LIVE_MODEL = "qwen-audio-3.1-live"
MULTIMODAL_PATH = "/api-ws/v1/inference"
REALTIME_PATH = "/api-ws/v1/realtime"
#: Qwen-Audio-Live's own path; the realtime path serves it too when the URL names a live model.
LIVE_PATH = "/api-ws/v1/live"
#: Each protocol's service path and the model its URL names by default (``?model=``; None: no
#: model), as the protocol descriptors in Sources/ProtocolModel/Descriptors say.
PROTOCOL_ROUTES = {
    "multimodal-dialog": (MULTIMODAL_PATH, None),
    "qwen-realtime": (REALTIME_PATH, DEFAULT_REALTIME_MODEL),
    "qwen-audio-live": (LIVE_PATH, DEFAULT_LIVE_MODEL),
}
#: The protocol names the server, its session list and its refusals use.
PROTOCOLS = tuple(PROTOCOL_ROUTES)

_READY_LINE = re.compile(r"^listening ws://(?P<host>\[[^\]]+\]|[^:/\s]+):(?P<port>\d+)$")
_STDERR_LINES = 400          # lines of stderr kept (the tail)
_STDERR_LINE_BYTES = 4096    # longer lines are cut


class MockServerError(RuntimeError):
    """The mock-server process could not be started, exited, or is unreachable."""

    def __init__(self, message: str, stderr: str = "", returncode: Optional[int] = None):
        self.stderr = stderr
        self.returncode = returncode
        if stderr:
            message = f"{message}\n--- mock-server stderr (tail) ---\n{stderr.rstrip()}"
        super().__init__(message)


class BinaryNotFoundError(MockServerError, FileNotFoundError):
    """No mock-server binary was found."""


class ControlAPIError(Exception):
    """The control API answered with an error status.

    ``status`` is the HTTP status, ``code`` and ``message`` come from the JSON error body
    ``{"code", "message"}`` (``None`` / the raw body when it is not JSON).
    """

    def __init__(self, status: int, code: Optional[str], message: str, method: str = "",
                 path: str = "", body: bytes = b""):
        self.status = status
        self.code = code
        self.message = message
        self.method = method
        self.path = path
        self.body = body
        where = f" ({method} {path})" if method else ""
        super().__init__(f"{status} {code or 'error'}: {message}{where}")


# ------------------------------------------------------------------------------------------
# Binary discovery
# ------------------------------------------------------------------------------------------

def find_repo_root(start: Union[str, os.PathLike, None] = None) -> Optional[Path]:
    """The nearest directory at or above ``start`` (default: this package) with a Package.swift."""
    here = Path(start if start is not None else __file__).resolve()
    for directory in [here, *here.parents]:
        if (directory / "Package.swift").is_file():
            return directory
    return None


def _repo_roots() -> List[Path]:
    """The checkouts this package and the current directory sit in (deduplicated)."""
    roots: List[Path] = []
    for start in (None, Path.cwd()):
        root = find_repo_root(start)
        if root is not None and root not in roots:
            roots.append(root)
    return roots


def _executable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


#: Where a wheel of this package keeps its binaries (``dialogmock/bin``) and the suite data
#: they read (``dialogmock/share/dialogmock``, the layout ``<prefix>/bin`` + ``<prefix>/share``
#: the binaries look for beside themselves). Absent in a source install.
_PACKAGE_DIR = Path(__file__).resolve().parent


def bundled_binary(name: str = "mock-server") -> Optional[str]:
    """The binary ``name`` (``mock-server``, ``conformance``, ``dialogmock-adapter``) the
    installed wheel carries in ``dialogmock/bin``, or None (a source install has none)."""
    path = _PACKAGE_DIR / "bin" / name
    return str(path) if _executable(path) else None


def bundled_event_loop(args: Sequence[str]) -> List[str]:
    """``["--event-loop", "poll"]`` unless ``args`` choose a loop: the arguments the wheel's
    mock-server gets. lws loads its libev/libuv plugins from the absolute path it was built
    for, so on a host with a libwebsockets of its own they would be that build's, not the
    bundled one's; the poll loop needs no plugin."""
    if any(a == "--event-loop" or a.startswith("--event-loop=") for a in args):
        return []
    return ["--event-loop", "poll"]


def bundled_root() -> Optional[Path]:
    """The suite data the wheel carries (``dialogmock/share/dialogmock``: ``conformance/``,
    ``mock-server/scenarios/``), or None."""
    path = _PACKAGE_DIR / "share" / "dialogmock"
    return path if path.is_dir() else None


def find_binary(binary: Union[str, os.PathLike, None] = None) -> str:
    """Locates mock-server: ``binary``, ``$DIALOGMOCK_BINARY``, the binary the installed wheel
    carries (``dialogmock/bin/mock-server``), ``mock-server`` on PATH, then
    ``<repo>/.build/debug/mock-server`` and ``<repo>/.build/release/mock-server`` of the
    SwiftPM checkout this package (or the current directory) sits in."""
    tried: List[str] = []
    explicit = [(binary, "binary="), (os.environ.get("DIALOGMOCK_BINARY") or None, "$DIALOGMOCK_BINARY")]
    for candidate, origin in explicit:
        if candidate is None:
            continue
        text = os.fspath(candidate)
        if os.sep not in text and not os.path.exists(text):
            found = shutil.which(text)
            if found:
                return found
        path = Path(text).expanduser()
        if _executable(path):
            return str(path.resolve())
        # an explicit choice that does not work is an error, not a reason to look elsewhere
        raise BinaryNotFoundError(f"mock-server binary is not an executable file: {text} (from {origin})")
    found = bundled_binary("mock-server")
    if found:
        return found
    tried.append(str(_PACKAGE_DIR / "bin" / "mock-server"))
    found = shutil.which("mock-server")
    if found:
        return found
    tried.append("mock-server on PATH")
    for root in _repo_roots():
        for config in ("debug", "release"):
            path = root / ".build" / config / "mock-server"
            if _executable(path):
                return str(path)
            tried.append(str(path))
    raise BinaryNotFoundError(
        "mock-server binary not found (tried " + ", ".join(tried) + "); build it with "
        "`swift build --product mock-server`, install the dialogmock wheel, or pass binary= / set "
        "DIALOGMOCK_BINARY")


# ------------------------------------------------------------------------------------------
# Process helpers
# ------------------------------------------------------------------------------------------

class _StderrTail:
    """Reads a pipe to EOF in a daemon thread, keeping the last lines (so the pipe never fills)."""

    def __init__(self, stream, lines: int = _STDERR_LINES):
        self._lines: "collections.deque[str]" = collections.deque(maxlen=lines)
        self._lock = threading.Lock()
        self._stream = stream
        self.thread = threading.Thread(target=self._run, name="dialogmock-stderr", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            for raw in iter(self._stream.readline, b""):
                line = raw[:_STDERR_LINE_BYTES].decode("utf-8", "replace").rstrip("\r\n")
                with self._lock:
                    self._lines.append(line)
        except (OSError, ValueError):
            pass

    def text(self, lines: Optional[int] = None) -> str:
        with self._lock:
            kept = list(self._lines)
        if lines is not None:
            kept = kept[-lines:]
        return "\n".join(kept)


def _terminate(process: subprocess.Popen, timeout: float) -> Optional[int]:
    if process.poll() is None:
        try:
            process.send_signal(signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            try:
                process.kill()
            except ProcessLookupError:
                pass
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                pass
    return process.returncode


def _finalize(process: subprocess.Popen) -> None:
    # garbage collection or interpreter exit without stop(): do not leave the server running
    _terminate(process, 2.0)


# ------------------------------------------------------------------------------------------
# MockServer
# ------------------------------------------------------------------------------------------

SessionRef = Union[str, Mapping[str, Any]]


def _session_id(session: SessionRef) -> str:
    if isinstance(session, Mapping):
        return str(session["id"])
    return str(session)


class MockServer:
    """One ``mock-server`` process on 127.0.0.1 and a free port, or (``url=``) a running mock
    server this object is a client of.

    ::

        with MockServer(scenario="close") as server:
            url = server.realtime_url_for("t1")
            ...
            print(server.sessions(test_id="t1"))

    ``start()`` runs ``mock-server --host 127.0.0.1 --port 0 [options]`` and returns once the
    server printed ``listening ws://HOST:PORT``; ``stop()`` sends SIGTERM, then SIGKILL.

    Attach mode: ``MockServer(url="http://mock:8765", control_token=…)`` (or
    ``MockServer.attach(url)``) starts nothing; ``start()`` checks ``/_mock/health`` and, with a
    token, that the control API accepts it; ``stop()`` leaves the server running.

    ``control_token``: sent as ``Authorization: Bearer <token>`` on every control request; a
    server this object starts gets ``--control-token <token>``.
    """

    def __init__(
        self,
        binary: Union[str, os.PathLike, None] = None,
        *,
        scenario: Union[str, os.PathLike, None] = None,
        api_keys: Optional[Iterable[str]] = None,
        time_scale: Optional[float] = None,
        seed: Optional[int] = None,
        record: Union[str, os.PathLike, None] = None,
        log_level: Optional[str] = None,
        extra_args: Optional[Sequence[str]] = None,
        host: str = "127.0.0.1",
        startup_timeout: float = 15.0,
        stop_timeout: float = 5.0,
        request_timeout: float = 10.0,
        env: Optional[Mapping[str, str]] = None,
        cwd: Union[str, os.PathLike, None] = None,
        url: Optional[str] = None,
        control_token: Optional[str] = None,
    ):
        self.control_token = control_token or None
        self.url: Optional[str] = None
        self.startup_timeout = startup_timeout
        self.stop_timeout = stop_timeout
        self.request_timeout = request_timeout
        self._process: Optional[subprocess.Popen] = None
        self._stderr: Optional[_StderrTail] = None
        self._finalizer = None
        self._host: Optional[str] = None
        self._port: Optional[int] = None
        self._scheme = "http"
        self._attached = False
        # headers every control request of this object carries (``scoped_to`` sets X-Test-Id)
        self._default_headers: Dict[str, str] = {}
        # never route 127.0.0.1 through an http_proxy from the environment
        self._opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        if url is not None:
            start_options = {"binary": binary, "scenario": scenario, "api_keys": api_keys,
                             "time_scale": time_scale, "seed": seed, "record": record,
                             "log_level": log_level, "extra_args": extra_args, "env": env, "cwd": cwd}
            given = [name for name, value in start_options.items() if value is not None]
            if given:
                raise ValueError(f"url= attaches to a running server; {', '.join(given)} only apply to a "
                                 "server this object starts")
            self._scheme, self._host, self._port = _parse_server_url(url)
            self.url = f"{self._scheme}://{self._host}:{self._port}"
            self.binary = None
            self.args: List[str] = []
            self._env = None
            self._cwd = None
            return
        self.binary = find_binary(binary)
        args = ["--host", host, "--port", "0"]
        if scenario is not None:
            args += ["--scenario", os.fspath(scenario)]
        for key in api_keys or ():
            args += ["--api-key", str(key)]
        if time_scale is not None:
            args += ["--time-scale", repr(float(time_scale))]
        if seed is not None:
            args += ["--seed", str(int(seed))]
        if record is not None:
            args += ["--record", os.fspath(record)]
        if log_level is not None:
            args += ["--log-level", str(log_level)]
        if self.control_token is not None:
            args += ["--control-token", self.control_token]
        args += [str(a) for a in (extra_args or ())]
        if self.binary == bundled_binary("mock-server"):
            args += bundled_event_loop(args)
        self.args = args
        self._env = dict(env) if env is not None else None
        self._cwd = cwd

    @classmethod
    def attach(cls, url: str, control_token: Optional[str] = None, *, request_timeout: float = 10.0,
               check: bool = True) -> "MockServer":
        """A client of the mock server running at ``url`` (``http://HOST:PORT`` or
        ``ws://HOST:PORT``; ``https``/``wss`` too). With ``check`` (default) it is started,
        i.e. its health route and the token are checked now."""
        server = cls(url=url, control_token=control_token, request_timeout=request_timeout)
        return server.start() if check else server

    def scoped_to(self, test_id: str) -> "MockServer":
        """This server as one test sees it: the same process and connection settings, and every
        control request carries ``X-Test-Id: <test_id>``, so an L7 proxy that hashes on the test
        id (several replicas: the README's "Many replicas") sends a test's journal, report and
        fault requests to the replica that holds its sessions, even for routes whose URL names
        no test id. Starting or stopping it is the original's business."""
        scoped = copy.copy(self)
        scoped._default_headers = {**self._default_headers, "X-Test-Id": test_id}
        return scoped

    @property
    def attached(self) -> bool:
        """True for a client of a running server (``url=``): nothing to start or stop."""
        return self.url is not None

    # ---- lifecycle ---------------------------------------------------------------------------

    @property
    def command(self) -> List[str]:
        if self.binary is None:
            return []
        return [self.binary, *self.args]

    def start(self) -> "MockServer":
        """Starts the process and waits for its ready line (attach mode: checks the server's
        health route, and the control token on ``GET /_mock/``). Returns self."""
        if self.attached:
            self._check_attached()
            return self
        if self.running:
            return self
        if self._process is not None:
            raise MockServerError("this MockServer was stopped; create a new one")
        try:
            process = subprocess.Popen(
                self.command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                env=self._env, cwd=self._cwd, close_fds=True)
        except OSError as e:
            raise MockServerError(f"cannot run {self._describe()}: {e}") from e
        self._process = process
        self._stderr = _StderrTail(process.stderr)
        self._finalizer = weakref.finalize(self, _finalize, process)

        ready: Dict[str, Any] = {}
        got_line = threading.Event()

        def read_stdout() -> None:
            try:
                first = process.stdout.readline()
                ready["line"] = first.decode("utf-8", "replace").rstrip("\r\n")
                got_line.set()
                for _ in iter(process.stdout.readline, b""):   # keep draining
                    pass
            except (OSError, ValueError):
                pass
            finally:
                got_line.set()

        threading.Thread(target=read_stdout, name="dialogmock-stdout", daemon=True).start()
        if not got_line.wait(self.startup_timeout):
            self._abort()
            raise MockServerError(
                f"mock-server printed no ready line within {self.startup_timeout:g} s: {self._describe()}",
                self.stderr_tail(), process.returncode)
        line = ready.get("line", "")
        match = _READY_LINE.match(line)
        if not match:
            if line:
                self._abort()
                raise MockServerError(f"unexpected first stdout line {line!r}: {self._describe()}",
                                      self.stderr_tail(), process.returncode)
            try:
                process.wait(2)
            except subprocess.TimeoutExpired:
                self._abort()
            self._join_stderr()
            raise MockServerError(
                f"mock-server exited with status {process.returncode} before listening: {self._describe()}",
                self.stderr_tail(), process.returncode)
        self._host = match.group("host")
        self._port = int(match.group("port"))
        return self

    def _check_attached(self) -> None:
        where = f"the mock server at {self.url}"
        try:
            health = self._json("GET", "/_mock/health")
        except ControlAPIError as e:
            raise MockServerError(f"{where} is not a DialogMock mock-server: GET /_mock/health answered "
                                  f"{e.status} {e.message}") from None
        except MockServerError as e:
            raise MockServerError(f"{where} is unreachable: {e}") from None
        if not isinstance(health, dict) or health.get("status") != "ok":
            raise MockServerError(f"{where} is not healthy: GET /_mock/health answered {health!r}")
        try:
            self._json("GET", "/_mock/")
        except ControlAPIError as e:
            if e.status == 401:
                said = "no control token was given" if self.control_token is None else "the control token was refused"
                raise MockServerError(
                    f"{where} refused the control API: {said} (401 {e.message}); pass the server's "
                    "--control-token value (control_token=, --dialogmock-token or $DIALOGMOCK_TOKEN)") from None
            if e.status == 403:
                raise MockServerError(f"{where} refused the control API (403 {e.message})") from None
            raise
        self._attached = True

    def _describe(self) -> str:
        return " ".join(self.command)

    def _join_stderr(self) -> None:
        if self._stderr is not None:
            self._stderr.thread.join(2)

    def _abort(self) -> None:
        if self._process is not None:
            try:
                self._process.kill()
            except ProcessLookupError:
                pass
            try:
                self._process.wait(5)
            except subprocess.TimeoutExpired:
                pass
        self._join_stderr()

    def stop(self, timeout: Optional[float] = None) -> Optional[int]:
        """SIGTERM, wait ``timeout`` (default ``stop_timeout``) seconds, then SIGKILL.
        Returns the exit status (0 after a clean SIGTERM shutdown). Idempotent. Attach mode:
        does nothing (the server is not ours) and returns None."""
        if self.attached:
            self._attached = False
            return None
        process = self._process
        if process is None:
            return None
        code = _terminate(process, self.stop_timeout if timeout is None else timeout)
        if self._finalizer is not None:
            self._finalizer.detach()
        self._join_stderr()
        for stream in (process.stdout, process.stderr):
            try:
                stream.close()
            except Exception:
                pass
        return code

    def __enter__(self) -> "MockServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def __repr__(self) -> str:
        if self.attached:
            return f"<MockServer attached to {self.base_url}{'' if self._attached else ' (not checked)'}>"
        state = f"ws://{self._host}:{self._port}" if self.running else "not running"
        return f"<MockServer {state}>"

    @property
    def running(self) -> bool:
        if self.attached:
            return self._attached
        return self._process is not None and self._process.poll() is None and self._port is not None

    @property
    def pid(self) -> Optional[int]:
        return self._process.pid if self._process is not None else None

    @property
    def returncode(self) -> Optional[int]:
        return self._process.poll() if self._process is not None else None

    def stderr_tail(self, lines: Optional[int] = None) -> str:
        """The last lines the server wrote to stderr (its log)."""
        return self._stderr.text(lines) if self._stderr is not None else ""

    # ---- URLs --------------------------------------------------------------------------------

    def _require_port(self) -> int:
        if self._port is None:
            raise MockServerError("the mock server is not started")
        return self._port

    @property
    def host(self) -> str:
        self._require_port()
        return self._host or "127.0.0.1"

    @property
    def port(self) -> int:
        return self._require_port()

    @property
    def base_url(self) -> str:
        scheme = "wss" if self._scheme == "https" else "ws"
        return f"{scheme}://{self.host}:{self.port}"

    @property
    def http_url(self) -> str:
        return f"{self._scheme}://{self.host}:{self.port}"

    @property
    def multimodal_url(self) -> str:
        return self.base_url + MULTIMODAL_PATH

    def realtime_url(self, model: str = DEFAULT_REALTIME_MODEL) -> str:
        return self.base_url + REALTIME_PATH + "?" + urllib.parse.urlencode({"model": model})

    def multimodal_url_for(self, test_id: str) -> str:
        return self.multimodal_url + "?" + urllib.parse.urlencode({"test_id": test_id})

    def realtime_url_for(self, test_id: str, model: str = DEFAULT_REALTIME_MODEL) -> str:
        return self.base_url + REALTIME_PATH + "?" + urllib.parse.urlencode({"model": model, "test_id": test_id})

    def live_url(self, model: str = DEFAULT_LIVE_MODEL) -> str:
        return self.base_url + LIVE_PATH + "?" + urllib.parse.urlencode({"model": model})

    def live_url_for(self, test_id: str, model: str = DEFAULT_LIVE_MODEL) -> str:
        return self.base_url + LIVE_PATH + "?" + urllib.parse.urlencode({"model": model, "test_id": test_id})

    def case_url(self, case_id: str, protocol: str = "multimodal-dialog",
                 model: Optional[str] = None) -> str:
        """A conformance case's endpoint (``/case/<id>/…``), running that case's scenario; a
        protocol whose URL names a model gets ``model``, else its default one."""
        if protocol not in PROTOCOL_ROUTES:
            raise ValueError(f"unknown protocol {protocol!r} (one of: {', '.join(PROTOCOLS)})")
        path, default_model = PROTOCOL_ROUTES[protocol]
        url = f"{self.base_url}/case/{urllib.parse.quote(case_id, safe='')}{path}"
        if default_model is None:
            return url
        return url + "?" + urllib.parse.urlencode({"model": model or default_model})

    # ---- HTTP --------------------------------------------------------------------------------

    def request(self, method: str, path: str, query: Optional[Mapping[str, Any]] = None,
                body: Union[bytes, str, Mapping, list, None] = None,
                timeout: Optional[float] = None) -> bytes:
        """One control API request; returns the body. Errors raise ControlAPIError."""
        url = self.http_url + path
        params = {k: _query_value(v) for k, v in (query or {}).items() if v is not None}
        if params:
            url += "?" + urllib.parse.urlencode(params)
        data: Optional[bytes] = None
        headers = {"Accept": "application/json", **self._default_headers}
        if self.control_token is not None:
            headers["Authorization"] = f"Bearer {self.control_token}"
        if body is not None:
            if isinstance(body, bytes):
                data = body
            elif isinstance(body, str):
                data = body.encode("utf-8")
            else:
                data = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        req = urllib.request.Request(url, data=data, method=method, headers=headers)
        try:
            with self._opener.open(req, timeout=self.request_timeout if timeout is None else timeout) as resp:
                return resp.read()
        except urllib.error.HTTPError as e:
            raw = e.read() or b""
            code, message = None, raw.decode("utf-8", "replace").strip() or (e.reason or "")
            try:
                parsed = json.loads(raw)
                if isinstance(parsed, dict):
                    code = parsed.get("code")
                    message = parsed.get("message") or parsed.get("error") or message
            except ValueError:
                pass
            raise ControlAPIError(e.code, code, str(message), method, path, raw) from None
        except (urllib.error.URLError, ConnectionError, TimeoutError, OSError) as e:
            reason = getattr(e, "reason", e)
            if self.attached:
                state = ""
            else:
                state = "" if self.running else f" (the server is not running; exit status {self.returncode})"
            raise MockServerError(f"{method} {url} failed: {reason}{state}", self.stderr_tail(40)) from e

    def _json(self, method: str, path: str, **kwargs) -> Any:
        raw = self.request(method, path, **kwargs)
        return json.loads(raw) if raw.strip() else None

    # ---- control API -------------------------------------------------------------------------

    def health(self) -> Dict[str, Any]:
        """``GET /_mock/health``."""
        return self._json("GET", "/_mock/health")

    def metrics(self) -> str:
        """``GET /_mock/metrics``: Prometheus text."""
        return self.request("GET", "/_mock/metrics").decode("utf-8")

    def routes(self) -> Dict[str, Any]:
        """``GET /_mock/``: the control API's routes."""
        return self._json("GET", "/_mock/")

    def openapi(self) -> Dict[str, Any]:
        """``GET /_mock/openapi.json``."""
        return self._json("GET", "/_mock/openapi.json")

    def sessions(self, test_id: Optional[str] = None, case_id: Optional[str] = None,
                 open: Optional[bool] = None) -> List[Dict[str, Any]]:
        """``GET /_mock/sessions``: open sessions and the last closed ones, optionally filtered."""
        answer = self._json("GET", "/_mock/sessions",
                            query={"testId": test_id, "caseId": case_id, "open": open})
        return list(answer.get("sessions", []))

    def session(self, session_id: SessionRef) -> Dict[str, Any]:
        """One entry of ``sessions()`` by id (ControlAPIError 404 if unknown)."""
        sid = _session_id(session_id)
        for entry in self.sessions():
            if entry.get("id") == sid:
                return entry
        raise ControlAPIError(404, "NotFound", f"no session {sid}", "GET", "/_mock/sessions")

    def journal(self, session_id: SessionRef) -> List[Dict[str, Any]]:
        """``GET /_mock/sessions/<id>/journal``, parsed from JSON Lines."""
        sid = urllib.parse.quote(_session_id(session_id), safe="")
        raw = self.request("GET", f"/_mock/sessions/{sid}/journal").decode("utf-8")
        return [json.loads(line) for line in raw.splitlines() if line.strip()]

    def refusals(self, test_id: Optional[str] = None, case_id: Optional[str] = None) -> List[Dict[str, Any]]:
        """``GET /_mock/refusals``: the upgrades the mock refused (no session opened), oldest
        first: ``time``, ``path``, ``status``, ``reason``, ``testId``/``caseId`` if carried,
        ``violation`` (``{"obligation", "message"}`` as in a journal)."""
        answer = self._json("GET", "/_mock/refusals", query={"testId": test_id, "caseId": case_id})
        return list(answer.get("refusals", []))

    def violations(self, session_id: Optional[SessionRef] = None, *, test_id: Optional[str] = None,
                   level: Optional[str] = None) -> List[Dict[str, Any]]:
        """Journal entries of kind ``violation`` of one session, or of every session of
        ``test_id`` (each then carries ``"session": id``) followed by the upgrades the mock
        refused for ``test_id``: a refused client has no session, and its broken connect
        (``mmd.C1`` / ``qrt.C1``, MUST) is a violation too (each carries ``"refusal": {…}``,
        the ``refusals()`` entry). ``level="MUST"`` / ``"SHOULD"`` keeps one level (see
        ``violation_level``). A session's entries carry ``"frame"``: the last frame journaled
        before the violation (``{"event", "dir", "t", "kind"}``; ``dir`` ``in`` = from the client), the
        one the mock was handling, or None."""
        if session_id is not None:
            found = _violations_in(self.journal(session_id))
        else:
            found = []
            for entry in self.sessions(test_id=test_id):
                for v in _violations_in(self.journal(entry["id"])):
                    found.append({**v, "session": entry["id"]})
            for refusal in self.refusals(test_id=test_id):
                found.append({"kind": "violation", "violation": refusal["violation"], "refusal": refusal})
        if level is not None:
            wanted = level.upper()
            found = [v for v in found if violation_level(v) == wanted]
        return found

    def assert_no_violations(self, session_id: Optional[SessionRef] = None, *, test_id: Optional[str] = None,
                             level: Optional[str] = "MUST") -> None:
        """Raises ``AssertionError`` listing the protocol violations of one session, or of the
        sessions and refused upgrades of ``test_id`` (neither: of every session the server
        lists and every refused upgrade), one per line: obligation id, level, session, the frame
        it happened at, the message. ``level`` is the lowest level that fails: ``"MUST"``
        (default) ignores SHOULD findings, ``"SHOULD"`` fails on MUST and SHOULD, None on any."""
        found = self.violations(session_id, test_id=test_id)
        if session_id is not None:
            found = [{**v, "session": _session_id(session_id)} for v in found]
            scope = f"session {_session_id(session_id)}"
        elif test_id is not None:
            scope = f"test {test_id!r}"
        else:
            scope = f"the mock server at {self.http_url}"
        _raise_violations(found, scope, level)

    def events(self, session_id: SessionRef, direction: Optional[str] = None) -> List[Dict[str, Any]]:
        """Journal entries that carry a protocol ``event`` (frames), optionally only ``in``
        (from the client) or ``out`` (to the client)."""
        if direction not in (None, "in", "out"):
            raise ValueError("direction must be None, 'in' or 'out'")
        return [e for e in self.journal(session_id)
                if e.get("event") is not None and e.get("kind") in ("text", "binary")
                and (direction is None or e.get("dir") == direction)]

    def event_names(self, session_id: SessionRef, direction: Optional[str] = None) -> List[str]:
        """The ``event`` names of ``events()``, in order."""
        return [e["event"] for e in self.events(session_id, direction)]

    def wait_for_session(self, test_id: Optional[str] = None, timeout: float = 5.0,
                         closed: bool = False, case_id: Optional[str] = None,
                         poll_interval: float = 0.05) -> Dict[str, Any]:
        """Polls ``sessions()`` until a session (of ``test_id`` / ``case_id``) exists — with
        ``closed=True`` until one is closed — and returns the newest such one."""
        deadline = time.monotonic() + timeout
        seen: List[Dict[str, Any]] = []
        while True:
            seen = self.sessions(test_id=test_id, case_id=case_id)
            matching = [s for s in seen if not closed or not s.get("open", True)]
            if matching:
                return matching[-1]
            if time.monotonic() >= deadline:
                what = "closed session" if closed else "session"
                scope = f" with test id {test_id!r}" if test_id is not None else ""
                raise TimeoutError(f"no {what}{scope} within {timeout:g} s; sessions: {seen}")
            time.sleep(poll_interval)

    def report(self, session_id: SessionRef) -> Dict[str, Any]:
        """``GET /_mock/sessions/<id>/report``: the final report a session of a scenario with
        ``sessionReport`` (the ``aibuds`` profile) journaled when it ended (ControlAPIError 404
        while it is open or when it has none)."""
        sid = urllib.parse.quote(_session_id(session_id), safe="")
        return self._json("GET", f"/_mock/sessions/{sid}/report")

    def scenario(self) -> Dict[str, Any]:
        """``GET /_mock/scenario``: the scenario new sessions get."""
        return self._json("GET", "/_mock/scenario")

    def set_scenario(self, scenario: "ScenarioInput") -> Dict[str, Any]:
        """``PUT /_mock/scenario``: a dict (the scenario file's JSON), bytes, a path to a
        scenario file, or the name of a shipped one (``"close"``) from the checkout the package
        sits in or the wheel's copy. Serves every session opened afterwards."""
        return self._json("PUT", "/_mock/scenario", body=_scenario_body(scenario))

    # ---- per-test scenarios ------------------------------------------------------------------

    @staticmethod
    def _test_scenario_path(test_id: str) -> str:
        if not test_id:
            raise ValueError("a per-test scenario needs a non-empty test id")
        return f"/_mock/tests/{urllib.parse.quote(str(test_id), safe='')}/scenario"

    def set_test_scenario(self, test_id: str, scenario: "ScenarioInput") -> Dict[str, Any]:
        """``PUT /_mock/tests/<test_id>/scenario``: sessions opened afterwards with that test id
        get ``scenario`` (same inputs as ``set_scenario``); other sessions keep the global one.
        Returns ``{"testId", "scenario": <description>}``."""
        return self._json("PUT", self._test_scenario_path(test_id), body=_scenario_body(scenario))

    def test_scenario(self, test_id: str) -> Optional[Dict[str, Any]]:
        """``GET /_mock/tests/<test_id>/scenario``: the scenario armed for the test id, or None."""
        try:
            return self._json("GET", self._test_scenario_path(test_id))
        except ControlAPIError as e:
            if e.status == 404:
                return None
            raise

    def clear_test_scenario(self, test_id: str) -> bool:
        """``DELETE /_mock/tests/<test_id>/scenario``. Returns False when none was armed."""
        try:
            self._json("DELETE", self._test_scenario_path(test_id))
        except ControlAPIError as e:
            if e.status == 404:
                return False
            raise
        return True

    def tests(self) -> List[Dict[str, Any]]:
        """``GET /_mock/tests``: every test id with a per-test scenario or an armed fault
        (``testId``, ``scenario`` name, ``faults`` and ``sessions`` counts)."""
        answer = self._json("GET", "/_mock/tests")
        return list(answer.get("tests", []))

    def arm_fault(self, fault: Mapping[str, Any], *, session: Optional[SessionRef] = None,
                  test_id: Optional[str] = None) -> str:
        """``POST /_mock/faults``: arms ``fault`` (a scenario ``faults`` entry, e.g.
        ``{"kind": "close", "code": 4000}``) on one open session, or on every open and later
        session of ``test_id``. Returns the fault id."""
        if (session is None) == (test_id is None):
            raise ValueError("arm_fault needs exactly one of session= or test_id=")
        body: Dict[str, Any] = {"session": _session_id(session)} if session is not None else {"testId": test_id}
        body["fault"] = dict(fault)
        return self.arm_fault_raw(body)["id"]

    def arm_fault_raw(self, body: Union[bytes, str, Mapping[str, Any]]) -> Dict[str, Any]:
        """``POST /_mock/faults`` with a body as given; returns the whole answer
        (``{"status": "armed", "id", …}``)."""
        return self._json("POST", "/_mock/faults", body=body)

    def faults(self, test_id: Optional[str] = None, session: Optional[SessionRef] = None) -> List[Dict[str, Any]]:
        """``GET /_mock/faults``: the faults armed through the API (``id``, ``fault``,
        ``sessions``, ``testId`` or ``session``)."""
        answer = self._json("GET", "/_mock/faults", query={
            "testId": test_id, "session": _session_id(session) if session is not None else None})
        return list(answer.get("faults", []))

    def remove_fault(self, fault_id: str) -> Dict[str, Any]:
        """``DELETE /_mock/faults/<id>``; open sessions disarm it."""
        return self._json("DELETE", "/_mock/faults/" + urllib.parse.quote(str(fault_id), safe=""))

    def clear_faults(self, test_id: Optional[str] = None, session: Optional[SessionRef] = None) -> List[str]:
        """``DELETE /_mock/faults``: removes every armed fault, or those of ``test_id`` /
        ``session``. Returns the removed ids."""
        answer = self._json("DELETE", "/_mock/faults", query={
            "testId": test_id, "session": _session_id(session) if session is not None else None})
        return list(answer.get("removed", []))

    def reset(self) -> Dict[str, Any]:
        """``POST /_mock/reset``: removes every fault and per-test scenario, restores the
        start-up scenario and forgets closed sessions and refused upgrades."""
        # a body on purpose: early builds of mock-server handled a POST with
        # "Content-Length: 0" (what urllib sends without data) twice, so the counts read 0
        return self._json("POST", "/_mock/reset", body=b"{}")


def violation_level(entry: Mapping[str, Any]) -> str:
    """``"MUST"`` or ``"SHOULD"`` of a violation journal entry: the mock prefixes every
    violation message with its level (``"SHOULD: directives carry no dialog_id …"``). A
    message without a known prefix counts as ``"MUST"``."""
    violation = entry.get("violation", entry)
    message = str(violation.get("message", "")) if isinstance(violation, Mapping) else ""
    prefix = message.split(":", 1)[0].strip().upper()
    return prefix if prefix in ("MUST", "SHOULD", "MAY") else "MUST"


ScenarioInput = Union[str, os.PathLike, bytes, Mapping[str, Any]]


def _scenario_body(scenario: ScenarioInput) -> Union[bytes, Mapping[str, Any]]:
    """The request body for a scenario given as a dict, bytes, a file path or a shipped name."""
    if isinstance(scenario, Mapping):
        return scenario
    if isinstance(scenario, bytes):
        return scenario
    path = Path(os.fspath(scenario)).expanduser()
    if not path.is_file():
        name = os.fspath(scenario)
        stem = name[:-5] if name.endswith(".json") else name
        roots = list(_repo_roots())
        bundled = bundled_root()
        if bundled is not None:
            roots.append(bundled)
        shipped = [root / "mock-server" / "scenarios" / f"{stem}.json" for root in roots]
        shipped = [p for p in shipped if os.sep not in name and p.is_file()]
        if not shipped:
            raise FileNotFoundError(f"scenario file not found: {scenario}")
        path = shipped[0]
    return path.read_bytes()


def _violations_in(journal: Sequence[Mapping[str, Any]]) -> List[Dict[str, Any]]:
    """The violation entries of a journal, each with ``"frame"``: the last frame entry before it
    (``{"event", "dir", "t", "kind"}``) or None."""
    found: List[Dict[str, Any]] = []
    frame: Optional[Dict[str, Any]] = None
    for entry in journal:
        kind = entry.get("kind")
        if kind in ("text", "binary"):
            frame = {"event": entry.get("event"), "dir": entry.get("dir"), "t": entry.get("t"), "kind": kind}
        elif kind == "violation":
            found.append({**entry, "frame": frame})
    return found


_LEVELS = ("MUST", "SHOULD", "MAY")


def _millis(micros: Any) -> str:
    return f"{micros / 1000:.1f} ms" if isinstance(micros, (int, float)) else "?"


def format_violation(entry: Mapping[str, Any]) -> str:
    """One line for a ``violations()`` entry: ``qrt.C3 MUST session s1 at 12.5 ms (client frame
    input_audio_buffer.append at 12.4 ms): message`` or, for a refused upgrade, ``qrt.C1 MUST
    refused upgrade /path: status 401, reason (message)``."""
    violation = entry.get("violation") or {}
    obligation = violation.get("obligation", "?")
    level = violation_level(entry)
    message = str(violation.get("message", ""))
    if message.split(":", 1)[0].strip().upper() == level:
        message = message.split(":", 1)[1].strip()
    refusal = entry.get("refusal")
    if refusal is not None:
        return (f"{obligation} {level} refused upgrade {refusal.get('path', '?')}: status {refusal.get('status')}, "
                f"{refusal.get('reason', '')} ({message})")
    where = [f"session {entry['session']}"] if entry.get("session") else []
    where.append(f"at {_millis(entry.get('t'))}")
    frame = entry.get("frame")
    if frame:
        side = {"in": "client ", "out": "server "}.get(frame.get("dir"), "")
        if frame.get("event"):
            what = f"{side}frame {frame['event']}"
        else:
            what = f"{side}{frame.get('kind') or ''} frame without an event name".replace("  ", " ")
        where.append(f"({what} at {_millis(frame.get('t'))})")
    else:
        where.append("(before any frame)")
    return f"{obligation} {level} {' '.join(where)}: {message}"


def _raise_violations(found: Sequence[Mapping[str, Any]], scope: str, level: Optional[str]) -> None:
    if level is None:
        wanted = set(_LEVELS)
    else:
        threshold = str(level).upper()
        if threshold not in _LEVELS:
            raise ValueError(f"level must be one of {', '.join(_LEVELS)} or None, not {level!r}")
        wanted = set(_LEVELS[:_LEVELS.index(threshold) + 1])
    failing = [v for v in found if violation_level(v) in wanted]
    if not failing:
        return
    levels = "any level" if level is None else (
        "MUST" if wanted == {"MUST"} else f"{str(level).upper()} or stricter")
    noun = "violation" if len(failing) == 1 else "violations"
    lines = [f"{len(failing)} protocol {noun} ({levels}) in {scope}:"]
    lines += ["  " + format_violation(v) for v in failing]
    raise AssertionError("\n".join(lines))


def _parse_server_url(url: str):
    """(http scheme, host, port) of a running server's URL: ``ws://`` / ``http://`` (and
    ``wss://`` / ``https://``) with a host; only the scheme, host and port are used."""
    parts = urllib.parse.urlsplit(str(url).strip())
    schemes = {"http": "http", "ws": "http", "https": "https", "wss": "https"}
    if parts.scheme.lower() not in schemes or not parts.hostname:
        raise ValueError(f"not a mock server URL: {url!r} (expected ws://HOST:PORT or http://HOST:PORT)")
    scheme = schemes[parts.scheme.lower()]
    try:
        port = parts.port
    except ValueError:
        raise ValueError(f"not a mock server URL: {url!r} (bad port)") from None
    if port is None:
        port = 443 if scheme == "https" else 80
    host = parts.hostname
    if ":" in host:
        host = f"[{host}]"
    return scheme, host, port


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
