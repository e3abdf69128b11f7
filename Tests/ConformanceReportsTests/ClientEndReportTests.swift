import ConformanceChecks
import ConformanceReports
import Foundation
import FoundationXML
import Testing
import WireJSON

/// How the client ended (exit code, signal, timeout, last stderr lines) in every report file.
@Suite struct ClientEndReportTests {
    /// The fixture run with the failing case's client ended by signal 11 after two stderr lines,
    /// the passing case's exited 3, and the harness error's client never started.
    static func report() throws -> RunReport {
        var report = try ReportFixtures.run()
        report.evaluations[1].transcript.client = ClientProcessResult(
            exitCode: nil, signal: 11, stderrTail: ["connecting", "boom <segfault>"])
        report.evaluations[0].transcript.client = ClientProcessResult(exitCode: 3)
        return report
    }

    private func testcase(_ xml: String, _ id: String) throws -> String {
        try #require(xml.components(separatedBy: "<testcase ").first { $0.contains("name=\"\(id)\"") })
    }

    @Test func endsInWords() {
        #expect(ClientProcessResult(exitCode: 0).endDescription == "exit 0")
        #expect(!ClientProcessResult(exitCode: 0).endedAbnormally)
        #expect(ClientProcessResult(exitCode: 3).endedAbnormally)
        #expect(ClientProcessResult(exitCode: nil, signal: 9).endedAbnormally)
        #expect(ClientProcessResult(exitCode: nil, timedOut: true).endedAbnormally)
        #expect(
            ClientProcessResult(exitCode: 1, stderrTail: ["a"]).reportLines() == [
                "client: exit 1", "client stderr (last 1 line):", "  | a",
            ])
    }

    @Test func theCaseReportHasATopLevelClient() throws {
        let report = try Self.report()
        let failed = try JSONValue.decode(CaseReportWriter.text(report.evaluations[1]))
        #expect(
            failed["client"] == [
                "end": "ended by signal 11", "exitCode": nil, "signal": 11, "driven": false,
                "stderrTail": ["connecting", "boom <segfault>"],
            ])
        #expect(failed["transcript"]?["client"]?["signal"] == 11)
        let passed = try JSONValue.decode(CaseReportWriter.text(report.evaluations[0]))
        #expect(passed["client"]?["end"] == "exit 3")
        // A harness error before the client ran has no end to tell (its reason does).
        let error = try JSONValue.decode(CaseReportWriter.text(report.evaluations[5]))
        #expect(error["client"] == nil)
        // The case report reads back with the client's end (conformance merge).
        let read = try CaseReportReader.evaluation(failed)
        #expect(read.clientEndJSON == failed["client"])
    }

    @Test func junitPutsTheEndInTheFailureBodyAndAnAbnormalEndOfAPassInTheOutput() throws {
        let xml = JUnitWriter.text(try Self.report())
        #expect(XMLParser(data: Data(xml.utf8)).parse())
        let failed = try testcase(xml, "qrt.tools.001")
        #expect(
            failed.contains(
                "consequence of qrt.C11) [sequence] expected: the right thing\n  actual: no response.create\nclient: ended by signal 11\nclient stderr (last 2 lines):\n  | connecting\n  | boom &lt;segfault&gt;</failure>"
            ))
        let passed = try testcase(xml, "qrt.session.001")
        #expect(passed.contains("<system-out>client: exit 3</system-out>"))
        #expect(!passed.contains("<failure"))
        // A clean exit beside a nonStrict finding is not news; the error's client never ran.
        #expect(!(try testcase(xml, "qrt.session.002")).contains("client:"))
        #expect(try testcase(xml, "qrt.audio.002").contains("<error message=\"port in use\"></error>"))
    }

    @Test func ctrfHasTheEndInTraceAndExtra() throws {
        let report = try Self.report()
        try ReportContract.expectConforms(report)
        let tests = try #require(CTRFWriter.json(report)["results"]?["tests"]?.arrayValue)
        let byName = Dictionary(uniqueKeysWithValues: tests.map { ($0["name"]?.stringValue ?? "", $0) })
        let failed = try #require(byName["qrt.tools.001"])
        #expect(failed["extra"]?["client"]?["end"] == "ended by signal 11")
        #expect(failed["extra"]?["client"]?["signal"] == 11)
        #expect(
            failed["trace"]?.stringValue?.hasSuffix(
                "\nclient: ended by signal 11\nclient stderr (last 2 lines):\n  | connecting\n  | boom <segfault>")
                == true)
        #expect(byName["qrt.session.001"]?["trace"] == "client: exit 3")
        #expect(byName["qrt.session.002"]?["extra"]?["client"]?["end"] == "exit 0")
        #expect(byName["qrt.audio.002"]?["extra"]?["client"] == nil)
    }

    @Test func summaryListsFailingCasesWithTheEnd() throws {
        let summary = SummaryWriter.text(try Self.report())
        #expect(
            summary.contains(
                """
                ## Failing cases and abnormal client ends

                - qrt.session.001 pass

                      client: exit 3

                - qrt.tools.001 fail: qrt.C11: no function_call_output for call c1

                      client: ended by signal 11
                      client stderr (last 2 lines):
                        | connecting
                        | boom <segfault>

                - qrt.audio.002 error: port in use

                ## 
                """))
        let step = SummaryWriter.stepSummary(try Self.report(), baseline: nil)
        #expect(step.contains("| qrt.C11: no function_call_output for call c1 — client: ended by signal 11 |"))
    }

    @Test func htmlShowsTheEndBesideTheVerdict() throws {
        let html = HTMLReportWriter.text(try Self.report())
        #expect(
            html.contains(
                "<b>qrt.tools.001</b> Function call round trip <span class=\"client abnormal\">client: ended by signal 11</span></summary>"
            ))
        #expect(html.contains("<b>qrt.session.002</b> Voice <span class=\"client\">client: exit 0</span></summary>"))
        #expect(html.contains("<span class=\"client abnormal\">client: exit 3</span>"))
        #expect(!html.contains("<b>qrt.audio.002</b> <span class=\"client"))
    }
}
