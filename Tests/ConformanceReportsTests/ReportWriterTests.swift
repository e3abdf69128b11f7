import ConformanceChecks
import ConformanceReports
import Foundation
import FoundationXML
import ProtocolModel
import Testing
import WireJSON

/// The report writers on a small run: a passing, a failing, an unimplemented and an error case.
@Suite struct ReportWriterTests {
    static let caseJSON = """
        {"id":"mmd.stop.900","title":"Stop","spec":{"doc":"multimodal-dialog","section":"12","level":"MUST","quote":"q"},
         "obligations":["mmd.C22"],"description":"d","scenario":"default","timeoutMs":1000,
         "checks":[{"kind":"closeBehaviour","after":{"client":"Stop"}}]}
        """

    static func report() throws -> RunReport {
        let conformanceCase = try ConformanceCase(jsonValue: try JSONValue.decode(caseJSON))
        var driven = conformanceCase
        driven.id = "mmd.stop.901"
        driven.drive = [["cmd": "stop"]]
        let stop: JSONValue = [
            "header": ["action": "finish-task", "task_id": "t"], "payload": ["input": ["directive": "Stop"]],
        ]
        let good = Transcript(journal: [
            .textFrame(t: 1000, .in, json: stop, byteLength: 40),
            JournalEntry(t: 2000, kind: .state, state: "Listening"),
            JournalEntry(
                t: 3000, kind: .fault, fault: FaultNote(faultId: nil, kind: "delay", detail: "delayed Stopped")),
        ])
        var bad = good
        bad.journal.append(.binaryFrame(t: 5000, .in, byteLength: 3200))
        let evaluator = CaseEvaluator(protocolName: "multimodal-dialog", schemas: MessageSchemaCatalog())
        var passed = evaluator.evaluate(conformanceCase, transcript: good, durationMs: 120)
        passed.latency = [LatencySample(metric: LatencyMetric.connectToFirstFrame, value: 1)]
        var failed = evaluator.evaluate(conformanceCase, transcript: bad, durationMs: 80)
        failed.caseID = "mmd.stop.902"
        failed.latency = [LatencySample(metric: LatencyMetric.connectToFirstFrame, value: 3)]
        let unimplemented = evaluator.evaluate(driven, transcript: good)
        let error = evaluator.harnessError(nil, caseID: "mmd.stop.903", message: "port in use")
        return RunReport(
            protocolName: "multimodal-dialog", client: "./client", started: Date(timeIntervalSince1970: 1_700_000_000),
            evaluations: [passed, failed, unimplemented, error])
    }

    @Test func indexHasTheContractShape() throws {
        let index = try JSONValue.decode(IndexWriter.text(try Self.report()))
        // The contract's keys, extended compatibly with `findings` and the schema's version.
        #expect(
            index.objectValue?.keys == [
                "$schema", "cases", "client", "findings", "flakyCases", "latency", "protocol", "repeat",
                "schemaVersion", "started", "strict", "summary",
            ])
        #expect(index["$schema"] == "https://dialogmock.dev/schemas/report-index/v1.json")
        #expect(index["schemaVersion"] == 1)
        try ReportContract.expectConforms(try Self.report())
        #expect(index["started"] == "2023-11-14T22:13:20Z")
        #expect(index["summary"]?["fail"] == 1)
        #expect(index["summary"]?["pass"] == 1)
        #expect(index["summary"]?["unimplemented"] == 1)
        #expect(index["summary"]?["error"] == 1)
        let failed = try #require(index["cases"]?[1])
        #expect(
            failed.objectValue?.keys == [
                "consequences", "durationMs", "failedChecks", "id", "report", "rootCause", "verdict",
            ])
        #expect(failed["rootCause"] == "mmd.C22")
        #expect(failed["failedChecks"] == ["mmd.C22"])
        #expect(failed["report"] == "cases/mmd.stop.902.json")
        // The passive run of the driven case is judged too: its session gives a third sample.
        #expect(index["latency"]?["connect.firstFrame"]?["count"] == 3)
        #expect(index["latency"]?["connect.firstFrame"]?["max"] == 3)
    }

    @Test func junitIsWellFormedWithTheRightCounts() throws {
        let text = JUnitWriter.text(try Self.report())
        let counter = ElementCounter()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = counter
        #expect(parser.parse())
        #expect(counter.counts["testcase"] == 4)
        #expect(counter.counts["failure"] == 1)
        #expect(counter.counts["skipped"] == 1)
        #expect(counter.counts["error"] == 1)
    }

    @Test func htmlIsSelfContained() throws {
        let report = try Self.report()
        let html = HTMLReportWriter.text(report)
        let timelines = report.evaluations.reduce(0) { $0 + $1.timelines.count }
        #expect(html.components(separatedBy: "<svg class=\"timeline\"").count - 1 == timelines)
        #expect(html.components(separatedBy: "<svg class=\"distribution\"").count - 1 == 1)
        #expect(HTMLPage.loadsNothing(html))
    }

    @Test func caseReportCarriesEvidenceFaultsAndTranscript() throws {
        let report = try Self.report()
        let document = try JSONValue.decode(CaseReportWriter.text(report.evaluations[1]))
        #expect(document["checks"]?[0]?["evidence"] == [3, 0])
        #expect(document["faults"]?[0]?["kind"] == "delay")
        #expect(document["transcript"]?["journal"]?.arrayValue?.count == 4)
        #expect(document["stateOrder"]?[0]?["machine"] == "mmd.dialog")
    }

    @Test func folderWriterWritesEveryFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reports-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try ReportFolderWriter.write(try Self.report(), to: directory)
        for name in [
            "index.json", "junit.xml", "ctrf.json", "summary.md", "report.html", "cases/mmd.stop.900.json",
            "cases/mmd.stop.903.json",
        ] {
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path), "\(name)")
        }
        let summary = try String(contentsOf: directory.appendingPathComponent("summary.md"), encoding: .utf8)
        #expect(summary.contains("| fail | 1 |"))
        let problems = try ReportContract.folderViolations(directory)
        #expect(problems.isEmpty, "\(problems)")
    }
}

/// Counts XML elements by name.
final class ElementCounter: NSObject, XMLParserDelegate {
    var counts: [String: Int] = [:]
    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        counts[elementName, default: 0] += 1
    }
}

/// Findings per obligation across cases: the root cause first, consequences marked, in every format.
@Suite struct FindingsReportTests {
    /// A case about C10 where the client's RequestToRespond outside Listening (C13, journaled by
    /// the mock) stalled the flow and the case's own check failed later.
    static func report() throws -> RunReport {
        let conformanceCase = try ConformanceCase(
            jsonValue: try JSONValue.decode(
                """
                {"id":"mmd.push2talk.900","title":"t","spec":{"doc":"multimodal-dialog","section":"12","level":"MUST","quote":"q"},
                 "obligations":["mmd.C10"],"description":"d","scenario":"default","timeoutMs":1000,
                 "checks":[{"kind":"sequence","steps":[{"client":"SendSpeech"}]}]}
                """))
        let respond: JSONValue = [
            "header": ["action": "continue-task", "task_id": "t"],
            "payload": ["input": ["directive": "RequestToRespond"]],
        ]
        var violation = JournalEntry(t: 1100, kind: .violation)
        violation.violation = Violation(obligation: "mmd.C13", level: .must, "RequestToRespond outside Listening")
        let transcript = Transcript(journal: [.textFrame(t: 1000, .in, json: respond, byteLength: 40), violation])
        let evaluator = CaseEvaluator(protocolName: "multimodal-dialog", schemas: MessageSchemaCatalog())
        let evaluation = evaluator.evaluate(conformanceCase, transcript: transcript)
        return RunReport(
            protocolName: "multimodal-dialog", client: "./client", started: Date(timeIntervalSince1970: 1_700_000_000),
            evaluations: [evaluation])
    }

    @Test func theJournaledRootCauseComesFirstEverywhere() throws {
        let report = try Self.report()
        let evaluation = report.evaluations[0]
        #expect(evaluation.rootCause == "mmd.C13")
        #expect(evaluation.failedChecks == ["mmd.C13", "mmd.C10"])
        #expect(evaluation.consequences == ["mmd.C10"])
        #expect(report.findings.map(\.obligation) == ["mmd.C13", "mmd.C10"])
        #expect(report.findings[1].asConsequence == ["mmd.push2talk.900"])

        try ReportContract.expectConforms(report)
        let index = try JSONValue.decode(IndexWriter.text(report))
        #expect(index["findings"]?[0]?["obligation"] == "mmd.C13")
        #expect(index["findings"]?[1]?["asConsequence"] == ["mmd.push2talk.900"])
        #expect(index["cases"]?[0]?["consequences"] == ["mmd.C10"])
        let document = CaseReportWriter.json(evaluation)
        #expect(document["checks"]?[0]?["consequenceOf"] == "mmd.C13")
        #expect(document["checks"]?[1]?["kind"] == "journaledViolation")
        let summary = SummaryWriter.text(report)
        #expect(summary.contains("| mmd.C13 | fail | mmd.push2talk.900 | — |"))
        #expect(summary.contains("| mmd.C10 | fail | — | mmd.push2talk.900 |"))
        #expect(summary.contains("| mmd.C13, (mmd.C10) |"))
        let junit = JUnitWriter.text(report)
        #expect(junit.contains("failure message=\"mmd.C13: mmd.C13: MUST: RequestToRespond outside Listening\""))
        #expect(junit.contains("mmd.C10 (consequence of mmd.C13)"))
        #expect(
            junit.contains(
                "Findings by obligation:\nmmd.C13 fail: in mmd.push2talk.900\nmmd.C10 fail: as a consequence in mmd.push2talk.900"
            ))
        #expect(HTMLReportWriter.text(report).contains("Root cause: <b>mmd.C13</b>"))
    }
}
