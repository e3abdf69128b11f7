import ConformanceChecks
import ConformanceHarness
import ConformanceReports
import Foundation
import Testing
import WireJSON

/// Issue 39 point 5 through `conformance run` on real processes: consequences by cause, not by
/// time. A suite copied into a scratch root gets cases whose rules the reference client breaks
/// twice: once where the mock goes on (both breaches are root causes), once after a frame the
/// mock refused (the later breach is its consequence).
@Suite("Root causes by cause", .serialized)
struct RootCauseRunTests {
    /// A case breaking qrt.C5 (the first session.update: a rule made up for the test) and qrt.C3
    /// (the event_id of the last frame, session.finish) — both MUST, both let through by the mock.
    static let twoIndependentBreaches = """
        {"id":"qrt.session.901","title":"two independent breaches","spec":{"doc":"qwen-realtime",
         "section":"12. CLIENT OBLIGATIONS","level":"MUST","quote":"test"},"obligations":["qrt.C5"],
         "description":"made-up rules the reference client breaks","scenario":"quick","faults":[],"timeoutMs":15000,
         "checks":[
          {"kind":"fieldEquals","message":{"client":"session.update"},"which":"first","pointer":"/session/voice",
           "equals":"made-up-voice"},
          {"kind":"fieldEquals","obligation":"qrt.C3","message":{"client":"session.finish"},"pointer":"/event_id",
           "equals":"made-up-id"}]}
        """

    /// The refused frame (a message item with role "robot", qrt.C15), then the same made-up C3
    /// rule on the session.finish that follows it.
    static let breachAfterARefusal = """
        {"id":"qrt.items.901","title":"a breach after a refused frame","spec":{"doc":"qwen-realtime",
         "section":"12. CLIENT OBLIGATIONS","level":"MUST","quote":"test"},"obligations":["qrt.C15"],
         "description":"the mock refuses the item; later frames follow from it","scenario":"quick","faults":[],
         "timeoutMs":15000,
         "checks":[
          {"kind":"serverViolations"},
          {"kind":"fieldEquals","obligation":"qrt.C3","message":{"client":"session.finish"},"pointer":"/event_id",
           "equals":"made-up-id"}]}
        """

    /// A copy of the repository's conformance tree and scenarios with `cases` added.
    static func scratchRoot(cases: [String: String]) throws -> URL {
        let manager = FileManager.default
        let root = manager.temporaryDirectory.appendingPathComponent("rootcause-\(UUID().uuidString)")
        for folder in ["conformance", "mock-server/scenarios"] {
            let target = root.appendingPathComponent(folder)
            try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try manager.copyItem(at: SuiteRun.root.appendingPathComponent(folder), to: target)
        }
        for (path, text) in cases {
            try Data(text.utf8).write(to: root.appendingPathComponent("conformance/suites/qwen-realtime/cases/\(path)"))
        }
        return root
    }

    func run(_ client: String, caseID: String, root: URL) async throws -> CaseEvaluation {
        var configuration = RunConfiguration(protocolName: "qwen-realtime", clientCommand: client, repositoryRoot: root)
        configuration.includes = [caseID]
        configuration.clientWorkingDirectory = SuiteRun.root
        configuration.reportDirectory = root.appendingPathComponent("report")
        configuration.progress = { _ in }
        let outcome = try await ConformanceRunner(configuration: configuration).run()
        return try #require(outcome.report.evaluations.first { $0.caseID == caseID })
    }

    @Test(.timeLimit(.minutes(3)))
    func independentBreachesAreBothRootCausesAndARefusalExplainsWhatFollows() async throws {
        let root = try Self.scratchRoot(cases: [
            "session/qrt.session.901.json": Self.twoIndependentBreaches,
            "items/qrt.items.901.json": Self.breachAfterARefusal,
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let independent = try await run("\(SuiteRun.adapter) --passive", caseID: "qrt.session.901", root: root)
        #expect(independent.verdict == .fail)
        #expect(independent.rootCause == "qrt.C5")
        #expect(independent.failedChecks == ["qrt.C5", "qrt.C3"])
        #expect(independent.consequences.isEmpty, "\(independent.checks.map { "\($0.obligation) \($0.actual)" })")

        let cascade = try await run(
            "\(SuiteRun.adapter) --passive --fault bad-item", caseID: "qrt.items.901", root: root)
        #expect(cascade.verdict == .fail)
        #expect(cascade.rootCause == "qrt.C15")
        #expect(cascade.consequences == ["qrt.C3"], "\(cascade.checks.map { "\($0.obligation) \($0.actual)" })")
    }
}
