"""A small headless-Chromium driver over the DevTools protocol, for the browser tests in .ci/.

Chromium is started with ``--remote-debugging-pipe``: the protocol's JSON messages travel on
file descriptors 3 (to the browser) and 4 (from it), each ended by a NUL byte, so no WebSocket
client library is needed. Only the standard library is used.

    with Browser() as browser:
        page = browser.open("http://127.0.0.1:8765/")
        page.wait_for("document.querySelectorAll('.session').length > 0")
        page.click("#arm-fault")
        page.screenshot("out/dashboard.png")
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import tempfile
import time
from typing import Any


class BrowserError(RuntimeError):
    pass


def chromium_path() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    raise BrowserError("chromium not found (apt-get install chromium)")


def _above_four(fd: int) -> int:
    import fcntl

    moved = fcntl.fcntl(fd, fcntl.F_DUPFD, 10)
    os.close(fd)
    return moved


class Browser:
    """One headless Chromium process; pages are its targets."""

    def __init__(self, width: int = 1400, height: int = 900) -> None:
        self.profile = tempfile.mkdtemp(prefix="dialogmock-chromium-")
        to_browser_read, self._to_browser = os.pipe()
        self._from_browser, from_browser_write = os.pipe()
        # Above 4, so that the shell's moves below never close what they move.
        to_browser_read = _above_four(to_browser_read)
        from_browser_write = _above_four(from_browser_write)
        # The child sees the pipe ends as fds 3 and 4, which the DevTools pipe expects: bash moves
        # them there (dash takes no descriptor above 9; subprocess closes those it does not keep).
        move = f'exec "$0" "$@" 3<&{to_browser_read} 4>&{from_browser_write} {to_browser_read}<&- {from_browser_write}>&-'
        self.process = subprocess.Popen(
            [
                "/bin/bash", "-c", move,
                chromium_path(),
                "--headless=new",
                "--remote-debugging-pipe",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-extensions",
                "--disable-background-networking",
                "--hide-scrollbars",
                "--mute-audio",
                f"--window-size={width},{height}",
                f"--user-data-dir={self.profile}",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=(to_browser_read, from_browser_write),
        )
        os.close(to_browser_read)
        os.close(from_browser_write)
        self._next_id = 0
        self._buffer = b""
        self._events: list[dict[str, Any]] = []
        self.width, self.height = width, height

    # -- the wire
    def _send(self, method: str, params: dict[str, Any] | None = None, session: str | None = None) -> int:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        return self._next_id

    def _receive(self, timeout: float) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while b"\0" not in self._buffer:
            if time.monotonic() > deadline:
                raise BrowserError("no answer from chromium in time")
            if self.process.poll() is not None:
                raise BrowserError(f"chromium exited with {self.process.returncode}")
            import select

            ready, _, _ = select.select([self._from_browser], [], [], 0.2)
            if ready:
                chunk = os.read(self._from_browser, 1 << 20)
                if not chunk:
                    raise BrowserError("chromium closed the DevTools pipe")
                self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(raw)

    def call(self, method: str, params: dict[str, Any] | None = None, session: str | None = None,
             timeout: float = 30) -> dict[str, Any]:
        """Sends a command and returns its result (events that arrive meanwhile are kept)."""
        wanted = self._send(method, params, session)
        while True:
            message = self._receive(timeout)
            if message.get("id") == wanted:
                if "error" in message:
                    raise BrowserError(f"{method}: {message['error']}")
                return message.get("result", {})
            self._events.append(message)

    # -- pages
    def open(self, url: str) -> "Page":
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, session)
        page.call("Page.enable")
        page.call("Runtime.enable")
        page.call("Emulation.setDeviceMetricsOverride",
                  {"width": self.width, "height": self.height, "deviceScaleFactor": 1, "mobile": False})
        page.navigate(url)
        return page

    def close(self) -> None:
        try:
            self._send("Browser.close")
            self.process.wait(timeout=5)
        except Exception:
            self.process.kill()
            self.process.wait()
        for fd in (self._to_browser, self._from_browser):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> "Browser":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Page:
    def __init__(self, browser: Browser, session: str) -> None:
        self.browser = browser
        self.session = session

    def call(self, method: str, params: dict[str, Any] | None = None, timeout: float = 30) -> dict[str, Any]:
        return self.browser.call(method, params, self.session, timeout)

    def navigate(self, url: str, timeout: float = 30) -> None:
        result = self.call("Page.navigate", {"url": url})
        if result.get("errorText"):
            raise BrowserError(f"navigating to {url}: {result['errorText']}")
        self.wait_for("document.readyState === 'complete'", timeout=timeout)

    def evaluate(self, expression: str, timeout: float = 30) -> Any:
        """The value of a JavaScript expression (promises are awaited); page errors raise."""
        result = self.call("Runtime.evaluate", {
            "expression": expression, "returnByValue": True, "awaitPromise": True}, timeout)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            raise BrowserError(f"{expression[:80]}…: {text}")
        return result.get("result", {}).get("value")

    def wait_for(self, condition: str, timeout: float = 15, interval: float = 0.1) -> Any:
        """Polls a JavaScript expression until it is truthy; its value, or BrowserError."""
        deadline = time.monotonic() + timeout
        last: Any = None
        while time.monotonic() < deadline:
            try:
                last = self.evaluate(condition)
            except BrowserError as error:
                last = error
            else:
                if last:
                    return last
            time.sleep(interval)
        raise BrowserError(f"timed out after {timeout} s waiting for {condition!r} (last: {last!r})")

    def click(self, selector: str) -> None:
        found = self.evaluate(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)}); if (!e) return false;"
            " e.scrollIntoView(); e.click(); return true; })()")
        if not found:
            raise BrowserError(f"no element {selector}")

    def fill(self, selector: str, value: str) -> None:
        """Sets an input's, select's or textarea's value and fires input and change events."""
        found = self.evaluate(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)}); if (!e) return false;"
            f" e.value = {json.dumps(value)};"
            " e.dispatchEvent(new Event('input', {bubbles: true}));"
            " e.dispatchEvent(new Event('change', {bubbles: true})); return true; })()")
        if not found:
            raise BrowserError(f"no element {selector}")

    def console_errors(self) -> list[str]:
        """Uncaught exceptions and console.error messages seen so far on this page."""
        errors = []
        for event in self.browser._events:
            if event.get("sessionId") != self.session:
                continue
            if event.get("method") == "Runtime.exceptionThrown":
                details = event["params"]["exceptionDetails"]
                errors.append(details.get("exception", {}).get("description") or details.get("text", ""))
            elif event.get("method") == "Runtime.consoleAPICalled" and event["params"].get("type") == "error":
                errors.append(" ".join(str(a.get("value", a.get("description", ""))) for a in event["params"]["args"]))
        return errors

    def screenshot(self, path: str, full_page: bool = False) -> str:
        params: dict[str, Any] = {"format": "png"}
        if full_page:
            params["captureBeyondViewport"] = True
            size = self.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
            params["clip"] = {"x": 0, "y": 0, "width": size[0], "height": size[1], "scale": 1}
        data = self.call("Page.captureScreenshot", params)["data"]
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path, "wb") as file:
            file.write(base64.b64decode(data))
        return path
