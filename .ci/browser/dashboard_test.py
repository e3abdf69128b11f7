#!/usr/bin/env python3
"""The mock-server dashboard in headless Chromium (issue 43).

Starts `.build/debug/mock-server --port 0` (and a second one with --control-token), runs a known
session against it with `.build/debug/dialogmock-adapter` (a Qwen realtime client's default
flow, test id `dash-known`), and asserts on the DOM: the session appears while the page stays
open (the live feed), its timeline shows its frames and dialog states in journal order (as
`GET /_mock/sessions/<id>/journal` gives them), arming a fault through the form arms it
(`GET /_mock/faults`) and its Remove button removes it, the per-test scenario form answers, and
the token flow (`?token=` → cookie) lets the browser in. No console errors on any page.
Screenshots go to .build/browser-test/; with --docs the dashboard's is also written to
mock-server/docs/dashboard.png (the README's picture) and the timeline's to
mock-server/docs/dashboard-timeline.png.

    python3 .ci/browser/dashboard_test.py [--docs]
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Browser, BrowserError  # noqa: E402

BUILD = os.path.join(ROOT, ".build", "debug")
OUT = os.path.join(ROOT, ".build", "browser-test")
DOCS = os.path.join(ROOT, "mock-server", "docs")
TEST_ID = "dash-known"
TOKEN = "dash-token-9c1e"


def fail(message: str) -> None:
    print(f"dashboard_test: FAIL: {message}", file=sys.stderr)
    raise SystemExit(1)


def check(condition: object, message: str) -> None:
    if not condition:
        fail(message)


class Server:
    """mock-server on a free loopback port; its base URL from the `listening` line."""

    def __init__(self, *arguments: str) -> None:
        self.process = subprocess.Popen(
            [os.path.join(BUILD, "mock-server"), "--port", "0", *arguments],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline().strip()
        if not line.startswith("listening ws://"):
            self.stop()
            fail(f"mock-server did not start: {line!r}")
        self.address = line.split("ws://", 1)[1]
        self.http = "http://" + self.address
        self.ws = "ws://" + self.address

    def get(self, path: str, token: str | None = None) -> tuple[int, str]:
        request = urllib.request.Request(self.http + path)
        if token:
            request.add_header("Authorization", "Bearer " + token)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def run_known_session(server: Server, test_id: str = TEST_ID, fault: str | None = None) -> subprocess.Popen:
    """The Qwen reference client's default flow (session.update, speech, answer, finish), or
    with `fault` one of its faulty variants (`dialogmock-adapter --list-faults`)."""
    environment = dict(os.environ, MOCK_URL=f"{server.ws}/api-ws/v1/realtime?test_id={test_id}",
                       MOCK_API_KEY="sk-dashboard-test")
    return subprocess.Popen(
        [os.path.join(BUILD, "dialogmock-adapter"), "--protocol", "qwen-realtime", "--passive",
         *(["--fault", fault] if fault else [])],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=environment,
        cwd=ROOT)


def js(value: object) -> str:
    return json.dumps(value)


def dashboard(browser: Browser, server: Server, docs: bool) -> None:
    page = browser.open(server.http + "/")
    page.wait_for("document.querySelector('#live-status').dataset.state === 'live'")
    page.wait_for("document.querySelectorAll('#fault-kind option').length > 10")
    check(page.evaluate("document.querySelectorAll('tr.session').length") == 0, "a fresh server lists sessions")

    # The session appears while the page stays open: it only refetches on the feed's events.
    client = run_known_session(server)
    try:
        page.wait_for("(() => { const r = document.querySelector('tr.session[data-session=\"s1\"]');"
                      " return r && r.dataset.open === 'true'; })()", timeout=10)
        page.screenshot(os.path.join(OUT, "dashboard-live.png"))
        _, errors = client.communicate(timeout=45)
    except subprocess.TimeoutExpired:
        client.kill()
        fail("the adapter's default flow did not end within 45 s")
    check(client.returncode == 0, f"the adapter failed ({client.returncode}): {errors[-500:]}")
    page.wait_for("document.querySelector('tr.session[data-session=\"s1\"]').dataset.open === 'false'", timeout=10)
    row = page.evaluate("(() => { const r = document.querySelector('tr.session[data-session=\"s1\"]');"
                        " return [r.dataset.protocol, r.dataset.verdict, r.cells[3].textContent]; })()")
    check(row == ["qwen-realtime", "clean", TEST_ID], f"the session row reads {row}")

    # Filters.
    page.fill("#filter-test", "no-such-test")
    check(page.evaluate("document.querySelectorAll('tr.session').length") == 0, "the test id filter kept rows")
    page.fill("#filter-test", TEST_ID)
    page.fill("#filter-verdict", "clean")
    check(page.evaluate("document.querySelectorAll('tr.session').length") == 1, "the filters lost the session")
    page.fill("#filter-verdict", "fail")
    check(page.evaluate("document.querySelectorAll('tr.session').length") == 0, "a clean session passed verdict=fail")
    page.fill("#filter-verdict", "")
    page.fill("#filter-protocol", "qwen-realtime")
    check(page.evaluate("document.querySelectorAll('tr.session').length") == 1, "the protocol filter lost it")

    # The timeline of the known session: its frames and states in journal order.
    status, text = server.get("/_mock/sessions/s1/journal")
    check(status == 200, f"journal: {status}")
    journal = [json.loads(line) for line in text.splitlines() if line]
    frames = sum(1 for entry in journal if entry["kind"] in ("text", "binary"))
    states = [entry["state"] for entry in journal if entry["kind"] == "state"]
    check(frames > 10 and len(states) >= 2, f"the known session is too small: {frames} frames, states {states}")
    page.click('tr.session[data-session="s1"]')
    page.wait_for(f"(() => {{ const t = document.querySelector('.dtl');"
                  f" return t && t.dataset.timelineEntries === {js(str(len(journal)))}; }})()", timeout=10)
    check(page.evaluate("document.querySelector('.dtl').dataset.timelineFrames") == str(frames),
          "data-timeline-frames is not the journal's frame count")
    shown = page.evaluate("Array.from(document.querySelectorAll('.dtl-row')).map(r =>"
                          " [Number(r.dataset.index), Number(r.dataset.t), r.dataset.kind, r.dataset.event || null])")
    expected = [[index, entry["t"], entry["kind"], entry.get("event")] for index, entry in enumerate(journal)]
    check(len(shown) == min(len(journal), 500), f"{len(shown)} rows for {len(journal)} entries")
    check(shown == expected[:len(shown)], "the timeline's entries are not the journal's, in its order")
    bands = page.evaluate("Array.from(document.querySelectorAll('.dtl [data-state]')).filter(e =>"
                          " e.classList.contains('dtl-band')).map(e => [e.dataset.state, Number(e.dataset.t)])")
    check([band[0] for band in bands] == states, f"state bands {bands} are not the journal's states {states}")
    check(all(a[1] <= b[1] for a, b in zip(bands, bands[1:])), "state bands are not in time order")
    check(page.evaluate("getComputedStyle(document.querySelector('.dtl-canvas')).height") != "0px", "no canvas")
    first_event = next(index for index, entry in enumerate(journal) if entry.get("event"))
    page.click(f'.dtl-row[data-index="{first_event}"]')
    detail = json.loads(page.evaluate("document.querySelector('.dtl-detail').textContent"))
    check(detail.get("event") == journal[first_event]["event"], f"the detail panel shows {detail}")
    page.screenshot(os.path.join(OUT, "timeline.png"))

    # 6,000 entries (a long streaming session) render without freezing the page.
    took = page.evaluate("""(() => {
        const journal = [];
        for (let i = 0; i < 6000; i++) {
            journal.push({t: i * 20000, dir: i % 3 ? "in" : "out", kind: "text", event: "input_audio_buffer.append",
                          bytes: 900, audio: {codec: "pcm", durationMs: 20, frames: 1, sampleRate: 16000}});
            if (i % 100 === 0) journal.push({t: i * 20000 + 1, kind: "state", state: i % 200 ? "Listening" : "Speaking"});
        }
        const host = document.createElement("div");
        document.body.appendChild(host);
        const started = performance.now();
        DialogTimeline.render(host, {journal, marks: [{t: 1e6, kind: "finding", label: "a finding"}]});
        const took = performance.now() - started;
        const frames = host.querySelector(".dtl").dataset.timelineFrames;
        host.dialogTimeline.destroy();
        host.remove();
        return [took, frames];
    })()""")
    check(took[1] == "6000" and took[0] < 3000, f"6,000 entries: {took[1]} frames in {took[0]:.0f} ms")
    print(f"dashboard_test: a 6,000-entry timeline renders in {took[0]:.0f} ms")

    # Arming a fault through the form arms it; its Remove button removes it.
    page.fill("#fault-target-kind", "testId")
    page.fill("#fault-target", "dash-fault")
    page.fill("#fault-kind", "close")
    check(json.loads(page.evaluate("document.querySelector('#fault-json').value"))["kind"] == "close",
          "choosing a kind does not fill in its example")
    page.click("#arm-fault")
    page.wait_for("document.querySelector('tr.fault') !== null", timeout=5)
    _, faults = server.get("/_mock/faults")
    armed = json.loads(faults)["faults"]
    check(len(armed) == 1 and armed[0]["testId"] == "dash-fault" and armed[0]["fault"]["kind"] == "close",
          f"GET /_mock/faults after the form: {armed}")
    check(page.evaluate("document.querySelector('#fault-message').dataset.ok") == "true", "no confirmation")
    page.fill("#fault-json", "{not json")
    page.click("#arm-fault")
    page.wait_for("document.querySelector('#fault-message').dataset.ok === 'false'", timeout=5)
    page.fill("#fault-target-kind", "session")
    page.fill("#fault-target", "s999")
    page.fill("#fault-kind", "drop")
    page.click("#arm-fault")
    page.wait_for("document.querySelector('#fault-message').textContent.includes('404')", timeout=5)
    fault_id = armed[0]["id"]
    page.click(f'button.remove-fault[data-fault-id="{fault_id}"]')
    page.wait_for("document.querySelector('tr.fault') === null", timeout=5)
    check(json.loads(server.get("/_mock/faults")[1])["faults"] == [], "the Remove button left the fault armed")

    # Per-test scenarios (control routes of contract §1): set one through the form if the server
    # has them, else the form says why.
    tests_status, _ = server.get("/_mock/tests")
    page.fill("#scenario-test", "dash-scenario")
    page.fill("#scenario-json", json.dumps({"name": "dashboard-test-scenario"}))
    page.click("#put-scenario")
    if tests_status == 404:
        page.wait_for("document.querySelector('#scenario-message').dataset.ok === 'false'", timeout=5)
    else:
        page.wait_for("document.querySelector('tr.test-scenario[data-test-id=\"dash-scenario\"]') !== null",
                      timeout=5)
        check(server.get("/_mock/tests/dash-scenario/scenario")[0] == 200, "the form armed no per-test scenario")
        page.click('tr.test-scenario[data-test-id="dash-scenario"] button.remove-scenario')
        page.wait_for("document.querySelector('tr.test-scenario[data-test-id=\"dash-scenario\"]') === null",
                      timeout=5)
        check(server.get("/_mock/tests/dash-scenario/scenario")[0] == 404, "Remove left the per-test scenario")

    # A faulty client (an event type the protocol does not define: a MUST of qrt.C2) with a
    # fault armed for its test id: verdict fail, the violation and the fault pinned on its timeline.
    page.fill("#filter-protocol", "")
    page.fill("#filter-test", "")
    page.fill("#fault-target-kind", "testId")
    page.fill("#fault-target", "dash-faulty")
    page.fill("#fault-kind", "duplicate")
    page.fill("#fault-json", json.dumps({"kind": "duplicate", "copies": 1, "match": {"type": "response.created"}}))
    page.click("#arm-fault")
    page.wait_for("document.querySelector('tr.fault') !== null", timeout=5)
    faulty = run_known_session(server, "dash-faulty", fault="unknown-event")
    try:
        _, errors = faulty.communicate(timeout=45)
    except subprocess.TimeoutExpired:
        faulty.kill()
        fail("the faulty adapter's flow did not end within 45 s")
    page.wait_for("(() => { const r = document.querySelector('tr.session[data-session=\"s2\"]');"
                  " return r && r.dataset.open === 'false' && r.dataset.verdict === 'fail'; })()", timeout=10)
    page.fill("#filter-verdict", "fail")
    check(page.evaluate("Array.from(document.querySelectorAll('tr.session')).map(r => r.dataset.session)") == ["s2"],
          "verdict=fail does not list exactly the faulty session")
    page.fill("#filter-verdict", "")
    page.click('tr.session[data-session="s2"]')
    faulty_journal = [json.loads(line) for line in server.get("/_mock/sessions/s2/journal")[1].splitlines() if line]
    page.wait_for(f"(() => {{ const t = document.querySelector('.dtl');"
                  f" return t && t.dataset.timelineEntries === {js(str(len(faulty_journal)))}; }})()", timeout=10)
    marks = page.evaluate("Array.from(document.querySelectorAll('.dtl-mark')).map(m =>"
                          " [m.dataset.markKind, Number(m.dataset.index)])")
    expected_marks = [[entry["kind"], index] for index, entry in enumerate(faulty_journal)
                      if entry["kind"] in ("violation", "fault")]
    check(any(kind == "violation" for kind, _ in expected_marks) and any(k == "fault" for k, _ in expected_marks),
          f"the faulty session journaled no violation or no fault: {expected_marks}")
    check(sorted(marks) == sorted(expected_marks), f"pinned marks {marks}, journal {expected_marks}")
    violation = next(index for kind, index in expected_marks if kind == "violation")
    page.click(f'.dtl-mark[data-index="{violation}"]')
    check(json.loads(page.evaluate("document.querySelector('.dtl-detail').textContent")).get("kind") == "violation",
          "clicking the violation's mark does not show its entry")
    clip_timeline(page, os.path.join(OUT, "timeline-faulty.png"))
    if docs:
        shutil.copy(os.path.join(OUT, "timeline-faulty.png"), os.path.join(DOCS, "dashboard-timeline.png"))

    # The server panel.
    page.wait_for("document.querySelector('#metric-values [data-name=\"sessions total\"] dd')"
                  " && document.querySelector('#metric-values [data-name=\"sessions total\"] dd').textContent === '2'")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(os.path.join(OUT, "dashboard.png"), full_page=True)
    if docs:
        shutil.copy(os.path.join(OUT, "dashboard.png"), os.path.join(DOCS, "dashboard.png"))
    errors = page.console_errors()
    check(not errors, f"console errors on the dashboard: {errors}")


def clip_timeline(page, path: str) -> None:
    """A screenshot of the session panel alone."""
    page.evaluate("window.scrollTo(0, 0)")
    box = page.evaluate("(() => { const r = document.querySelector('#session-view').getBoundingClientRect();"
                        " return [r.x, r.y, r.width, r.height]; })()")
    data = page.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True, "clip": {
        "x": box[0], "y": box[1], "width": box[2], "height": box[3], "scale": 1}})["data"]
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as file:
        file.write(base64.b64decode(data))


def token_flow(browser: Browser, server: Server) -> None:
    check(server.get("/_mock/sessions")[0] == 401, "the control API answered without the token")
    page = browser.open(server.http + "/_mock/ui")
    text = page.evaluate("document.body.innerText")
    check("?token=" in text, f"the refusal page does not say how to get in: {text[:200]}")
    page.navigate(server.http + "/_mock/ui?token=wrong")
    check("not this server's" in page.evaluate("document.body.innerText"), "a wrong token was not refused")
    page.navigate(server.http + f"/_mock/ui?token={TOKEN}")
    page.wait_for("location.search === '' && location.pathname === '/_mock/ui'")
    page.wait_for("document.querySelector('#live-status').dataset.state === 'live'")
    page.wait_for("document.querySelector('#health [data-name=\"status\"] dd') !== null")
    page.wait_for("document.querySelectorAll('#fault-kind option').length > 10")
    check(page.evaluate("document.cookie") == "", "the token cookie is visible to scripts")
    # The cookie authorises the API calls the page makes: arm and remove a fault.
    page.fill("#fault-target", "dash-token")
    page.click("#arm-fault")
    page.wait_for("document.querySelector('tr.fault') !== null", timeout=5)
    check(len(json.loads(server.get("/_mock/faults", token=TOKEN)[1])["faults"]) == 1, "no fault armed with the cookie")
    page.screenshot(os.path.join(OUT, "dashboard-token.png"))
    errors = page.console_errors()
    check(not errors, f"console errors with --control-token: {errors}")


def main() -> None:
    docs = "--docs" in sys.argv[1:]
    for binary in ("mock-server", "dialogmock-adapter"):
        check(os.path.exists(os.path.join(BUILD, binary)), f"{BUILD}/{binary} is missing: swift build first")
    os.makedirs(OUT, exist_ok=True)
    started = time.monotonic()
    open_server = Server()
    token_server = Server("--control-token", TOKEN)
    try:
        with Browser() as browser:
            dashboard(browser, open_server, docs)
            token_flow(browser, token_server)
    except BrowserError as error:
        fail(str(error))
    finally:
        open_server.stop()
        token_server.stop()
    print(f"dashboard_test: ok ({time.monotonic() - started:.1f} s; screenshots in {os.path.relpath(OUT, ROOT)}/)")


if __name__ == "__main__":
    main()
