import ConformanceChecks
import ConformanceReports
import Foundation
import ProtocolModel
import Testing
import WireJSON

/// Issue 40: the reports name where each obligation comes from — per check in the case JSON
/// and report.html, per obligation in summary.md, per case in JUnit and CTRF.
@Suite struct ProvenanceReportTests {
    static let suiteJSON = """
        {"prefix": "mmd", "title": "t", "protocol": "multimodal-dialog",
         "spec": {"doc": "multimodal-dialog", "path": "p.md"},
         "obligations": [{"id": "mmd.C22", "level": "MUST+SHOULD", "sources": ["DOC-MMWS", "PY-MMD"],
                          "inferred": "the close after Stopped"}],
         "sections": [{"id": "stop", "title": "Stop"}]}
        """

    static func report() throws -> RunReport {
        let suite = try SuiteDefinition(jsonValue: try JSONValue.decode(suiteJSON))
        let conformanceCase = try ConformanceCase(jsonValue: try JSONValue.decode(ReportWriterTests.caseJSON))
        var evaluator = CaseEvaluator(protocolName: "multimodal-dialog", schemas: MessageSchemaCatalog())
        evaluator.provenance = suite.provenanceByID
        let stop: JSONValue = [
            "header": ["action": "finish-task", "task_id": "t"], "payload": ["input": ["directive": "Stop"]],
        ]
        let transcript = Transcript(journal: [
            .textFrame(t: 1000, .in, json: stop, byteLength: 40), .binaryFrame(t: 5000, .in, byteLength: 3200),
        ])
        let evaluation = evaluator.evaluate(conformanceCase, transcript: transcript)
        return RunReport(
            protocolName: "multimodal-dialog", client: "./client", started: Date(timeIntervalSince1970: 0),
            evaluations: [evaluation], suite: suite)
    }

    @Test func everyReportShowsTheSources() throws {
        let report = try Self.report()
        let evaluation = try #require(report.evaluations.first)
        let caseJSON = CaseReportWriter.json(evaluation)
        let check = try #require(caseJSON["checks"]?.arrayValue?.first { $0["obligation"] == "mmd.C22" })
        #expect(check["sources"] == ["DOC-MMWS", "PY-MMD"])
        #expect(check["inferred"] == "the close after Stopped")
        // Read back (`conformance merge`) with the sources.
        let reread = try CaseReportReader.evaluation(caseJSON)
        #expect(reread.checks.first { $0.obligation == "mmd.C22" }?.provenance == evaluation.checks.first?.provenance)
        #expect(
            SummaryWriter.text(report).contains("| mmd.C22 | DOC-MMWS, PY-MMD; inferred (the close after Stopped) |"))
        #expect(
            HTMLReportWriter.text(report).contains(
                "<small>DOC-MMWS, PY-MMD; inferred (the close after Stopped)</small>"))
        #expect(
            JUnitWriter.text(report).contains(
                #"<property name="sources" value="mmd.C22: DOC-MMWS, PY-MMD; inferred (the close after Stopped)"/>"#))
        let ctrf = CTRFWriter.json(report)
        #expect(
            ctrf["results"]?["tests"]?[0]?["extra"]?["sources"]?["mmd.C22"]?["sources"] == ["DOC-MMWS", "PY-MMD"])
    }
}
