import ConformanceChecks
import ConformanceReports
import Foundation
import ProtocolModel
import Testing
import WireJSON

/// Reading report.html's parts back: its inline script and data blocks.
enum HTMLPage {
    /// The page without its `<script>` elements: what a reader sees before the script runs.
    static func visible(_ html: String) -> String {
        var text = html
        while let start = text.range(of: "<script"),
            let end = text.range(of: "</script>", range: start.upperBound..<text.endIndex)
        {
            text.removeSubrange(start.lowerBound..<end.upperBound)
        }
        return text
    }

    /// Whether the page fetches nothing: no external script, style, image or link to load, and
    /// every script inline (the page's own, or a case's JSON data block).
    static func loadsNothing(_ html: String) -> Bool {
        let scripts = html.components(separatedBy: "<script").dropFirst()
        let inline = scripts.allSatisfy {
            $0.hasPrefix(">") || $0.hasPrefix(" type=\"application/json\" class=\"case-data\">")
        }
        return inline && !html.contains("<link") && !html.contains("src=\"") && !html.contains("href=\"http")
            && !html.contains("url(") && !html.contains("@import") && !html.contains("https://")
    }

    /// The decoded data block of case `id` (`{"journal", "marks", "title"}`).
    static func caseData(_ html: String, id: String) throws -> JSONValue {
        let section = try #require(html.range(of: "<details id=\"\(id)\""))
        let start = try #require(
            html.range(
                of: "<script type=\"application/json\" class=\"case-data\">", range: section.upperBound..<html.endIndex)
        )
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        return try JSONValue.decode(String(html[start.upperBound..<end.lowerBound]))
    }

    /// The opening tag of case `id`'s `<details>`.
    static func caseTag(_ html: String, id: String) throws -> String {
        let start = try #require(html.range(of: "<details id=\"\(id)\""))
        let end = try #require(html.range(of: ">", range: start.upperBound..<html.endIndex))
        return String(html[start.lowerBound..<end.upperBound])
    }
}

/// report.html's interactive parts: the case data the script reads, payloads written once, the
/// filter attributes, audio tracks and the baseline's marks.
@Suite struct HTMLReportPageTests {
    /// 400 bytes of a varied 16-bit signal: base64 the heuristics and the audio key both catch.
    static let pcm: [UInt8] = (0..<200).flatMap { sample -> [UInt8] in
        let value = Int16(truncatingIfNeeded: (sample * 997) % 20000 - 10000)
        return [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
    }

    /// A case whose uplink audio entry (base64 in `json.audio`) is a finding's evidence, with a
    /// binary downlink frame that kept only its summary, a fault and a hostile string.
    static func audioReport() throws -> RunReport {
        var append = JournalEntry.textFrame(
            t: 2000, .in,
            json: ["type": "input_audio_buffer.append", "audio": .string(Data(pcm).base64EncodedString())],
            eventType: "input_audio_buffer.append", byteLength: 600)
        append.audio = AudioSummary(codec: "pcm", durationMs: 12.5, frames: 1, sampleRate: 16000)
        let downlink = JournalEntry.binaryFrame(
            t: 3000, .out, byteLength: 960, audio: AudioSummary(codec: "pcm", durationMs: 20, sampleRate: 24000))
        let fault = JournalEntry(
            t: 3500, kind: .fault, fault: FaultNote(faultId: "f1", kind: "close", detail: "1011 after audio"))
        let hostile = JournalEntry.textFrame(
            t: 4000, .in, json: ["type": "conversation.item.create", "text": "</script><b>x</b>"], byteLength: 80)
        var evaluation = try ReportFixtures.evaluation(
            "qrt.audio.001", .fail, title: "Audio is PCM16", obligations: ["qrt.C8"],
            checks: [
                ReportFixtures.finding("qrt.C8", .fail, actual: "odd chunk", evidence: [1]),
                CheckResult(
                    kind: "serverViolations", obligation: "qrt.C2", verdict: .pass, expected: "e", actual: "a",
                    evidence: [3]),
            ])
        evaluation.transcript = Transcript(journal: [
            JournalEntry(t: 100, kind: .state, state: "Idle"), append, downlink, fault, hostile,
        ])
        let passed = try ReportFixtures.evaluation("qrt.session.001", .pass, title: "Session update")
        return RunReport(
            protocolName: "qwen-realtime", client: "c", started: ReportFixtures.started,
            evaluations: [evaluation, passed])
    }

    @Test func aCaseWithoutAJournalHasNoTimelineNorAudio() throws {
        let report = RunReport(
            protocolName: "qwen-realtime", client: "c", started: ReportFixtures.started,
            evaluations: [
                CaseEvaluation(caseID: "qrt.audio.002", conformanceCase: nil, verdict: .error, reason: "port in use")
            ])
        let html = HTMLReportWriter.text(report)
        #expect(!html.contains("class=\"dialog-timeline\"") && !html.contains("class=\"audio\""))
        #expect(try HTMLPage.caseData(html, id: "qrt.audio.002")["journal"] == .array([]))
        #expect(HTMLPage.loadsNothing(html))
    }

    @Test func theJournalIsInThePageOnceAndPayloadsAreAbbreviated() throws {
        let report = try Self.audioReport()
        let html = HTMLReportWriter.text(report)
        let payload = Data(Self.pcm).base64EncodedString()
        #expect(html.components(separatedBy: payload).count - 1 == 1)
        // The evidence shows the payload's start and size, and the script reads the rest from the journal.
        #expect(html.contains("<span class=\"b64\" data-entry=\"1\" data-pointer=\"/json/audio\">"))
        #expect(html.contains("base64, \(payload.utf8.count) characters = 400 bytes"))
        #expect(html.contains("<div class=\"clip\" data-entry=\"1\">pcm 16000 Hz · 12.5 ms</div>"))
        let data = try HTMLPage.caseData(html, id: "qrt.audio.001")
        let caseJSON = try JSONValue.decode(CaseReportWriter.text(report.evaluations[0]))
        #expect(data["journal"] == caseJSON["transcript"]?["journal"])
        #expect(data["title"] == "qrt.audio.001 — Audio is PCM16")
    }

    /// Any long base64 value is abbreviated (an image, a kept binary frame's `data`), not a long
    /// run of one letter nor short text.
    @Test func base64IsAbbreviatedWhereverItIs() throws {
        let image = Data((0..<300).map { UInt8(truncatingIfNeeded: $0 * 7) }).base64EncodedString()
        let binary = JournalEntry.binaryFrame(
            t: 10, .in, byteLength: 400, audio: AudioSummary(codec: "pcm", durationMs: 12.5, sampleRate: 16000),
            payload: Self.pcm)
        let evaluation = CaseEvaluation(
            caseID: "qrt.images.001", conformanceCase: nil, verdict: .fail,
            checks: [ReportFixtures.finding("qrt.C16", .fail, actual: "image first", evidence: [0, 1, 2])],
            transcript: Transcript(journal: [
                .textFrame(
                    t: 5, .in, json: ["type": "input_image_buffer.append", "image": .string(image)], byteLength: 500),
                binary,
                .textFrame(t: 20, .in, json: ["type": "x", "text": "short and plain"], byteLength: 40),
            ]))
        let html = HTMLReportWriter.text(
            RunReport(
                protocolName: "qwen-realtime", client: "c", started: ReportFixtures.started,
                evaluations: [evaluation]))
        #expect(html.contains("<span class=\"b64\" data-entry=\"0\" data-pointer=\"/json/image\">"))
        #expect(html.contains("base64, 400 characters = 300 bytes"))
        #expect(html.contains("<span class=\"b64\" data-entry=\"1\" data-pointer=\"/data\">"))
        #expect(html.contains("<div class=\"clip\" data-entry=\"1\">pcm 16000 Hz · 12.5 ms</div>"))
        #expect(html.contains("&quot;text&quot;: &quot;short and plain&quot;"))
        #expect(html.components(separatedBy: image).count - 1 == 1)
        #expect(html.components(separatedBy: Data(Self.pcm).base64EncodedString()).count - 1 == 1)
    }

    /// The page's audio budget is spent worst case first; a case past it keeps its journal
    /// without the payloads, and says how much was left out.
    @Test func audioPastThePageBudgetIsLeftOut() throws {
        var report = try Self.audioReport()
        var second = report.evaluations[0]
        second.caseID = "qrt.audio.003"
        second.verdict = .nonStrict
        report.evaluations.append(second)
        let payload = Data(Self.pcm).base64EncodedString()
        let size = payload.utf8.count
        let everything = HTMLReportWriter.text(report)
        #expect(everything.components(separatedBy: payload).count - 1 == 2)
        #expect(try HTMLPage.caseData(everything, id: "qrt.audio.003")["audioLeftOut"] == nil)
        for budget in [size, 2 * size - 1] {
            let html = HTMLReportWriter.text(report, audioBudget: budget)
            #expect(html.components(separatedBy: payload).count - 1 == 1)
            let kept = try HTMLPage.caseData(html, id: "qrt.audio.001")
            let leftOut = try HTMLPage.caseData(html, id: "qrt.audio.003")
            #expect(kept["audioLeftOut"] == nil && kept["journal"]?[1]?["json"]?["audio"] == .string(payload))
            #expect(leftOut["audioLeftOut"] == .int(Int64(size)))
            #expect(leftOut["journal"]?[1]?["json"]?["audio"] == "")
            #expect(leftOut["journal"]?[1]?["json"]?["type"] == "input_audio_buffer.append")
        }
        let none = HTMLReportWriter.text(report, audioBudget: 0)
        #expect(!none.contains(payload))
        // A case without audio costs nothing.
        #expect(try HTMLPage.caseData(none, id: "qrt.session.001")["audioLeftOut"] == nil)
    }

    @Test func noJournalTextCanCloseItsScriptElement() throws {
        let html = HTMLReportWriter.text(try Self.audioReport())
        #expect(!html.contains("</script><b>"))
        #expect(html.contains("\\u003c/script>\\u003cb>x\\u003c/b>"))
        let data = try HTMLPage.caseData(html, id: "qrt.audio.001")
        #expect(data["journal"]?[4]?["json"]?["text"] == "</script><b>x</b>")
    }

    @Test func marksPinFindingsAndFaultsNotPassingChecks() throws {
        let data = try HTMLPage.caseData(HTMLReportWriter.text(try Self.audioReport()), id: "qrt.audio.001")
        let marks = try #require(data["marks"]?.arrayValue)
        #expect(marks.count == 2)
        #expect(marks[0]["index"] == 1 && marks[0]["kind"] == "finding" && marks[0]["obligation"] == "qrt.C8")
        #expect(marks[0]["label"] == "qrt.C8 fail: odd chunk" && marks[0]["verdict"] == "fail")
        #expect(marks[1]["index"] == 3 && marks[1]["kind"] == "fault")
        #expect(marks[1]["label"] == "fault f1 close: 1011 after audio")
        let passing = try HTMLPage.caseData(HTMLReportWriter.text(try Self.audioReport()), id: "qrt.session.001")
        #expect(passing["marks"] == .array([]))
    }

    @Test func audioTracksSayWhatTheJournalKept() throws {
        let html = HTMLReportWriter.text(try Self.audioReport())
        #expect(
            html.contains(
                "<div class=\"track\" data-dir=\"in\"><b>client → mock</b> 1 chunk, 12.5 ms of pcm 16000 Hz</div>"))
        #expect(
            html.contains("<div class=\"track\" data-dir=\"out\"><b>mock → client</b> 1 chunk, 20 ms of pcm 24000 Hz"))
        #expect(html.contains("unless the mock runs with --journal-audio): durations only</div>"))
        #expect(html.contains("<div class=\"dialog-timeline\" data-entries=\"5\"></div>"))
    }

    @Test func casesCarryWhatTheFilterReads() throws {
        let report = try ReportFixtures.run()
        let html = HTMLReportWriter.text(report)
        let failed = try HTMLPage.caseTag(html, id: "qrt.tools.001")
        #expect(failed.contains(" class=\"case\" data-verdict=\"fail\" data-obligations=\"qrt.C11 qrt.C13\""))
        #expect(
            failed.contains("data-search=\"qrt.tools.001 function call round trip  qrt.c11 no function_call_output"))
        #expect(!failed.contains("data-change"))
        // One checkbox per verdict that occurs; the bar is hidden until the script shows it.
        #expect(html.contains("<form id=\"filters\" class=\"filters\" hidden>"))
        #expect(html.contains("value=\"fail\" checked> fail <span class=\"n\">1</span>"))
        #expect(!html.contains("value=\"skipped\""))
        #expect(html.contains("<option value=\"qrt.C11\">qrt.C11 (1 case, found in 1)</option>"))
        #expect(html.contains("<option value=\"qrt.C2\">qrt.C2 (1 case)</option>"))
        #expect(!html.contains("name=\"change\"") && !html.contains("id=\"baseline\""))
        // A finding's obligation links to the filter showing its cases.
        #expect(html.contains("<a href=\"#filter:obligation=qrt.C11\""))
    }

    @Test func regressionsAndImprovementsAreMarkedWithTheBaselineVerdict() throws {
        var report = try ReportFixtures.run()
        var comparison = BaselineComparison.compare(
            report,
            baseline: [
                "cases": [
                    ["id": "qrt.tools.001", "verdict": "pass", "failedChecks": []],
                    ["id": "qrt.session.002", "verdict": "fail", "failedChecks": ["qrt.C7"]],
                    ["id": "qrt.session.003", "verdict": "informational", "failedChecks": ["qrt.C9"]],
                    ["id": "qrt.gone.001", "verdict": "pass", "failedChecks": []],
                ]
            ])
        comparison.file = "reports/baselines/x.json"
        report.baseline = comparison
        let html = HTMLReportWriter.text(report)
        #expect(try HTMLPage.caseTag(html, id: "qrt.tools.001").contains("data-change=\"regression\""))
        #expect(try HTMLPage.caseTag(html, id: "qrt.session.002").contains("data-change=\"improvement\""))
        #expect(!(try HTMLPage.caseTag(html, id: "qrt.session.003").contains("data-change")))
        #expect(try HTMLPage.caseTag(html, id: "qrt.session.001").contains("data-change=\"new\""))
        #expect(
            html.contains("<span class=\"change regression\" title=\"baseline: pass\">regressed · baseline pass</span>")
        )
        #expect(
            html.contains("<span class=\"change improvement\" title=\"baseline: fail\">improved · baseline fail</span>")
        )
        #expect(html.contains("Baseline verdict <b>pass</b>, now <b>fail</b>; new findings: qrt.C11, qrt.C13"))
        #expect(
            html.contains(
                "Compared with <code>reports/baselines/x.json</code>: <span class=\"change regression\">1 regression</span>, 1 improvement"
            ))
        #expect(html.contains("Missing against the baseline: qrt.gone.001"))
        #expect(html.contains("<input type=\"radio\" name=\"change\" value=\"regression\"> regressed (1)"))
        // index.json carries the same comparison, within the published schema.
        let index = IndexWriter.json(report)
        #expect(index["baseline"]?["file"] == "reports/baselines/x.json")
        #expect(index["baseline"]?["regressions"]?[0]?["id"] == "qrt.tools.001")
        #expect(index["baseline"]?["regressions"]?[0]?["baselineVerdict"] == "pass")
        #expect(index["baseline"]?["regressions"]?[0]?["newFailedChecks"] == ["qrt.C11", "qrt.C13"])
        #expect(index["baseline"]?["improvements"]?[0]?["verdict"] == "nonStrict")
        #expect(index["baseline"]?["missingCases"] == ["qrt.gone.001"])
        try ReportContract.expectConforms(report)
        #expect(IndexWriter.json(try ReportFixtures.run())["baseline"] == nil)
    }

    @Test func theBaselineFilesAreRewrittenInTheFolder() throws {
        let directory = ReportContract.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var report = try ReportFixtures.run()
        try ReportFolderWriter.write(report, to: directory)
        let junit = try String(contentsOf: directory.appendingPathComponent("junit.xml"), encoding: .utf8)
        report.baseline = BaselineComparison.compare(
            report, baseline: ["cases": [["id": "qrt.tools.001", "verdict": "pass", "failedChecks": []]]])
        try ReportFolderWriter.writeBaselineFiles(report, to: directory)
        let index = try JSONValue.decode(Array(try Data(contentsOf: directory.appendingPathComponent("index.json"))))
        #expect(index["baseline"]?["regressions"]?[0]?["id"] == "qrt.tools.001")
        let html = try String(contentsOf: directory.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(html.contains("regressed · baseline pass"))
        #expect(try String(contentsOf: directory.appendingPathComponent("junit.xml"), encoding: .utf8) == junit)
        #expect(try ReportContract.folderViolations(directory).isEmpty)
    }
}

/// The Swift copy of report.html's script equals its source (.ci/embed-web).
@Suite struct ReportAssetsTests {
    @Test func theScriptEqualsItsSource() throws {
        let source = ReportContract.root.appendingPathComponent("Sources/ConformanceReports/web/report.js")
        var text = try String(contentsOf: source, encoding: .utf8)
        if text.hasSuffix("\n") { text.removeLast() }
        #expect(ReportAssets.script == text, "run .ci/embed-web")
    }

    /// The timeline component is in the page once, before the script that renders it.
    @Test func thePageInlinesTheTimelineComponentOnce() throws {
        let html = HTMLReportWriter.text(try ReportFixtures.run())
        #expect(html.components(separatedBy: "window.DialogTimeline = {").count - 1 == 1)
        let component = try #require(html.range(of: "window.DialogTimeline = {"))
        let script = try #require(
            html.range(of: "const cases = Array.from(document.querySelectorAll('details.case'));"))
        #expect(component.lowerBound < script.lowerBound)
    }
}
