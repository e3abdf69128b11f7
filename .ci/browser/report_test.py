#!/usr/bin/env python3
"""The conformance HTML report in headless Chromium (issue 43).

Makes a real report with the debug build: seven Qwen realtime cases run by the Swift adapter
(the baseline), then again with one case's client faulty (odd PCM chunk), one a client that does
nothing (`true`), compared with that baseline in which one case had failed — so the page has
fails and passes, two regressions and an improvement, audio, evidence with a base64 payload and
timelines. Opens report.html over file:// and asserts on the DOM: the verdict, baseline,
obligation and text filters show exactly the right cases and keep the filter in the URL; the
regressions are marked with the baseline's verdict; a case's audio players have a waveform and
a playable WAV as long as the journaled audio; base64 evidence expands from the journal; nothing
overflows the page (wide and narrow windows); the timeline has the journal's frames and its
states in journal order; no console errors. Screenshots: .build/browser-test/report-*.png.

    python3 .ci/browser/report_test.py          # after swift build
    python3 .ci/browser/report_test.py --docs   # also writes reports/docs/report.png (the README's)
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from cdp import Browser, BrowserError  # noqa: E402

BUILD = os.path.join(ROOT, ".build", "debug")
OUT = os.path.join(ROOT, ".build", "browser-test")
CASES = ["--case", "qrt.audio.*", "--case", "qrt.tools.*", "--case", "qrt.session.00[12]"]
FAULTY = "qrt.audio.001"     # odd-audio-chunk: fails qrt.C8 with an append as evidence
SILENT = "qrt.session.002"   # `true`: opens no session
IMPROVED = "qrt.tools.002"   # failed in the (edited) baseline, passes now


def fail(message: str) -> None:
    print(f"report_test: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def check(condition: bool, message: str) -> None:
    if not condition:
        fail(message)


def run(client: str, report: str, *extra: str) -> int:
    command = [os.path.join(BUILD, "conformance"), "run", "--protocol", "qwen-realtime", "--client", client,
               "--report", report, *CASES, *extra]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    if result.returncode not in (0, 1):
        fail(f"{' '.join(command)} exited {result.returncode}:\n{result.stderr[-2000:]}")
    return result.returncode


def make_report() -> tuple[str, dict]:
    adapter = os.path.join(BUILD, "dialogmock-adapter")
    for binary in ("conformance", "dialogmock-adapter"):
        check(os.access(os.path.join(BUILD, binary), os.X_OK), f".build/debug/{binary} missing: run swift build")
    shutil.rmtree(os.path.join(OUT, "report-baseline"), ignore_errors=True)
    shutil.rmtree(os.path.join(OUT, "report"), ignore_errors=True)
    baseline_dir = os.path.join(OUT, "report-baseline")
    check(run(adapter, baseline_dir) == 0, "the reference adapter's baseline run failed")
    with open(os.path.join(baseline_dir, "index.json")) as file:
        baseline = json.load(file)
    for case in baseline["cases"]:
        if case["id"] == IMPROVED:
            case["verdict"], case["failedChecks"] = "fail", ["qrt.C14"]
    baseline_file = os.path.join(OUT, "baseline.json")
    with open(baseline_file, "w") as file:
        json.dump(baseline, file)
    client = (f'case "$MOCK_CASE_ID" in {FAULTY}) exec {adapter} --fault odd-audio-chunk;; '
              f'{SILENT}) exec true;; *) exec {adapter};; esac')
    report = os.path.join(OUT, "report")
    check(run(client, report, "--fresh-client", "--baseline", baseline_file) == 1,
          "the run with regressions did not exit 1")
    with open(os.path.join(report, "index.json")) as file:
        index = json.load(file)
    return report, index


def case_json(report: str, case_id: str) -> dict:
    with open(os.path.join(report, "cases", case_id + ".json")) as file:
        return json.load(file)


def visible(page) -> list[str]:
    return page.evaluate("Array.from(document.querySelectorAll('details.case')).filter(d => !d.hidden)"
                         ".map(d => d.id)")


def no_overflow(page, label: str) -> None:
    sizes = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    check(sizes[0] <= sizes[1], f"{label}: the page is {sizes[0]} px wide in a {sizes[1]} px window")


def main() -> None:
    started = time.monotonic()
    os.makedirs(OUT, exist_ok=True)
    report, index = make_report()
    verdicts = {case["id"]: case["verdict"] for case in index["cases"]}
    ids = set(verdicts)
    check(len(ids) == 7, f"expected 7 cases, got {sorted(ids)}")
    regressions = {change["id"]: change for change in index["baseline"]["regressions"]}
    check(set(regressions) == {FAULTY, SILENT}, f"regressions {sorted(regressions)}")
    check([change["id"] for change in index["baseline"]["improvements"]] == [IMPROVED], "improvements")
    url = "file://" + os.path.join(report, "report.html")

    with Browser(width=1400, height=900) as browser:
        page = browser.open(url)
        page.wait_for("!document.getElementById('filters').hidden")
        check(sorted(visible(page)) == sorted(ids), "not every case is shown at first")
        check(page.evaluate("document.getElementById('shown').textContent") == "7 cases", "the count of cases")
        page.screenshot(os.path.join(OUT, "report-top.png"))

        # Verdict: only the failing cases; the pass group disappears; the hash keeps it.
        page.click("input[name=verdict][value=pass]")
        failing = sorted(i for i, v in verdicts.items() if v == "fail")
        check(sorted(visible(page)) == failing, f"verdict fail shows {visible(page)}, expected {failing}")
        check(page.evaluate("document.querySelector('section.group[data-verdict=pass]').hidden"), "pass group shown")
        hash_ = page.evaluate("location.hash")
        check(hash_ == "#filter:verdict=fail", f"hash {hash_}")
        page.navigate(url + "#filter:verdict=pass")
        page.wait_for("!document.getElementById('filters').hidden")
        passing = sorted(i for i, v in verdicts.items() if v == "pass")
        check(sorted(visible(page)) == passing, f"a shared #filter:verdict=pass link shows {visible(page)}")
        counts = page.evaluate("Array.from(document.querySelectorAll('.chip .n')).map(n => n.textContent)")
        check(counts == [str(len(failing)), str(len(passing))], f"chip counts {counts}")
        page.click("#clear-filters")
        check(sorted(visible(page)) == sorted(ids) and page.evaluate("location.hash") == "", "show all")

        # Obligation: the cases that declare or check it.
        def about(case_id: str, obligation: str) -> bool:
            document = case_json(report, case_id)
            return obligation in document.get("obligations", []) + [c["obligation"] for c in document["checks"]]
        for obligation in ("qrt.C8", "qrt.C13"):
            page.fill("select[name=obligation]", obligation)
            expected = sorted(i for i in ids if about(i, obligation))
            check(expected and sorted(visible(page)) == expected,
                  f"obligation {obligation} shows {visible(page)}, expected {expected}")
        page.fill("select[name=obligation]", "qrt.C8")
        page.click("input[name=verdict][value=pass]")
        check(visible(page) == [FAULTY], f"qrt.C8 and fail shows {visible(page)}")
        check(page.evaluate("location.hash") == "#filter:verdict=fail&obligation=qrt.C8", "combined hash")
        page.click("#clear-filters")
        # A finding's obligation in the findings table links to the same filter.
        page.click('a[href="#filter:obligation=qrt.C8"]')
        expected = sorted(i for i in ids if about(i, "qrt.C8"))
        page.wait_for(f"document.querySelector('select[name=obligation]').value === 'qrt.C8'")
        check(sorted(visible(page)) == expected, f"the findings table's qrt.C8 link shows {visible(page)}")
        # A link to a case the filter hides opens it and clears the filter.
        check(page.evaluate("document.getElementById('qrt.tools.001').hidden"), "qrt.tools.001 is about qrt.C8")
        page.evaluate("location.hash = '#qrt.tools.001'")
        page.wait_for("!document.getElementById('qrt.tools.001').hidden && document.getElementById('qrt.tools.001').open")
        check(sorted(visible(page)) == sorted(ids), "a case link did not clear the filter hiding the case")
        page.click("#clear-filters")

        # Search: case id, title, finding text.
        for text, expected in (("qrt.tools.001", ["qrt.tools.001"]), ("ODD PCM byte", [FAULTY]),
                               ("no session", [SILENT])):
            page.fill("input[name=q]", text)
            check(visible(page) == expected, f"search {text!r} shows {visible(page)}, expected {expected}")
        page.fill("input[name=q]", "no such thing anywhere")
        check(visible(page) == [] and "0 of 7" in page.evaluate("document.getElementById('shown').textContent"),
              "a search that matches nothing")
        page.click("#clear-filters")

        # Baseline: regressed and improved cases marked with the baseline's verdict.
        marked = page.evaluate("Object.fromEntries(Array.from(document.querySelectorAll('details.case[data-change]'))"
                               ".map(d => [d.id, d.dataset.change]))")
        check(marked == {FAULTY: "regression", SILENT: "regression", IMPROVED: "improvement"}, f"marks {marked}")
        badge = page.evaluate(f"document.getElementById('{FAULTY}').querySelector('summary .change').textContent")
        check(badge == "regressed · baseline pass", f"badge {badge!r}")
        rows = page.evaluate("document.querySelectorAll('#baseline tr.regression').length")
        check(rows == 2, f"{rows} regression rows in the baseline section")
        page.click("input[name=change][value=regression]")
        check(sorted(visible(page)) == sorted(regressions), f"regressed filter shows {visible(page)}")
        page.click("#clear-filters")

        # Audio: a passing case, opened: a waveform per direction and a WAV as long as the audio.
        case_id = "qrt.audio.002"
        journal = case_json(report, case_id)["transcript"]["journal"]
        page.evaluate(f"document.getElementById('{case_id}').open = true")
        page.evaluate(f"document.getElementById('{case_id}').scrollIntoView()")
        page.wait_for(f"document.getElementById('{case_id}').querySelectorAll('.track .player').length == 2")
        for direction in ("in", "out"):
            selector = f"document.getElementById('{case_id}').querySelector('.track[data-dir={direction}]')"
            points = page.evaluate(f"Number({selector}.querySelector('svg.wave').dataset.points || 0)")
            path = page.evaluate(f"({selector}.querySelector('svg.wave path') || {{}}).getAttribute?.('d') || ''")
            check(points > 100 and path.count("L") > 200, f"{direction} waveform has {points} columns")
            expected = sum(e["audio"]["durationMs"] for e in journal if e.get("dir") == direction and "audio" in e)
            duration = page.wait_for(f"{selector}.querySelector('audio').duration")
            check(abs(duration * 1000 - expected) <= max(5, expected * 0.02),
                  f"{direction} player is {duration:.3f} s, the journal has {expected:.1f} ms")
            check(page.evaluate(f"{selector}.querySelector('audio').src.startsWith('blob:')"), "player source")
        page.evaluate(f"document.getElementById('{case_id}').scrollIntoView()")
        page.screenshot(os.path.join(OUT, "report-audio.png"))

        # Evidence: the odd append's payload, abbreviated, expands from the journal; its clip.
        faulty = f"document.getElementById('{FAULTY}')"
        page.evaluate(f"{faulty}.scrollIntoView()")
        page.wait_for(f"{faulty}.querySelector('.clip .player') !== null")
        span = f"{faulty}.querySelector('.b64')"
        check(page.evaluate(f"{span} !== null"), "no abbreviated base64 in the faulty case's evidence")
        entry = case_json(report, FAULTY)["transcript"]["journal"][int(page.evaluate(f"{span}.dataset.entry"))]
        page.evaluate(f"{span}.querySelector('.b64-expand').click()")
        shown = page.evaluate(f"{span}.querySelector('.b64-full').textContent")
        check(shown == entry["json"]["audio"], "the expanded payload is not the journal's")
        check(page.evaluate(f"{faulty}.querySelector('.clip .player') !== null"), "no clip player on audio evidence")

        # Timeline: every frame of the journal, the state bands in journal order.
        page.evaluate(f"document.getElementById('{case_id}').scrollIntoView()")
        root = f"document.getElementById('{case_id}').querySelector('[data-timeline-frames]')"
        frames = page.wait_for(f"{root} && Number({root}.dataset.timelineFrames)")
        expected_frames = sum(1 for e in journal if e["kind"] in ("text", "binary"))
        check(frames == expected_frames, f"timeline draws {frames} frames, the journal has {expected_frames}")
        bands = page.evaluate(f"Array.from({root}.querySelectorAll('[data-state][data-machine]'))"
                              ".map(b => [Number(b.dataset.index), b.dataset.state])")
        states = [[i, e["state"]] for i, e in enumerate(journal) if e["kind"] == "state"]
        check(len(bands) >= 3 and bands == states, f"state bands {bands} are not the journal's states {states}")
        marks = page.evaluate(f"{faulty}.querySelectorAll('[data-mark-kind=finding][data-obligation=\"qrt.C8\"]').length")
        check(marks >= 1, "the faulty case's timeline has no qrt.C8 finding mark")
        page.screenshot(os.path.join(OUT, "report-timeline.png"))

        # The picture of the README: the regressed case, its evidence, audio and timeline.
        page.evaluate(f"{faulty}.querySelector('.b64-expand').click()")
        page.evaluate(f"{faulty}.querySelector('.state-order').open = false")
        page.evaluate(f"window.scrollTo(0, {faulty}.getBoundingClientRect().top + scrollY - 90)")
        page.screenshot(os.path.join(OUT, "report-case.png"))
        if "--docs" in sys.argv:
            os.makedirs(os.path.join(ROOT, "reports", "docs"), exist_ok=True)
            shutil.copy(os.path.join(OUT, "report-case.png"), os.path.join(ROOT, "reports", "docs", "report.png"))

        # Nothing overflows, with every case open and a payload expanded, wide and narrow. An open
        # case comes alive when it nears the viewport: scroll through the page.
        page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        for _ in range(200):
            if page.evaluate("scrollY + innerHeight >= document.documentElement.scrollHeight - 2"):
                break
            page.evaluate("window.scrollBy(0, innerHeight)")
            time.sleep(0.05)
        page.wait_for("document.querySelectorAll('details.case .dialog-timeline [data-timeline-frames]').length >= 6")
        no_overflow(page, "1400 px")
        page.call("Emulation.setDeviceMetricsOverride",
                  {"width": 700, "height": 900, "deviceScaleFactor": 1, "mobile": False})
        time.sleep(0.3)
        no_overflow(page, "700 px")
        page.screenshot(os.path.join(OUT, "report-narrow.png"))
        page.call("Emulation.setDeviceMetricsOverride",
                  {"width": 1400, "height": 900, "deviceScaleFactor": 1, "mobile": False})

        errors = page.console_errors()
        check(not errors, f"console errors: {errors}")
    size = os.path.getsize(os.path.join(report, "report.html"))
    print(f"report_test: PASS (7 cases, 2 regressions, filters, audio, timeline; report.html {size} bytes; "
          f"{time.monotonic() - started:.1f} s; screenshots in .build/browser-test/)")


if __name__ == "__main__":
    try:
        main()
    except BrowserError as error:
        fail(str(error))
