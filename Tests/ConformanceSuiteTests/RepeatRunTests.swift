import ConformanceChecks
import ConformanceHarness
import ConformanceReports
import Foundation
import Synchronization
import Testing
import WireJSON

/// `conformance run --repeat N` against a real client: every run is judged on its own
/// sessions, and a case whose verdict changes is flaky in every report format.
@Suite("Repeated runs and flaky cases")
struct RepeatRunTests {
    @Test func aCaseWhoseVerdictChangesIsFlakyInEveryReport() async throws {
        // The reference client, except that it gives up at once on the second run of qrt.connect.001.
        let client =
            #"if [ "$MOCK_CASE_ID" = qrt.connect.001 ] && [ "$MOCK_RUN" = 2 ]; then exit 3; fi; exec "#
            + SuiteRun.adapter
        var configuration = RunConfiguration(
            protocolName: "qwen-realtime", clientCommand: client, repositoryRoot: SuiteRun.root)
        configuration.includes = ["qrt.connect.001", "qrt.session.001"]
        configuration.repeatCount = 3
        // The wrapper decides per process start; a reused adapter would not run it again.
        configuration.reuseAdapters = false
        configuration.jobs = 2
        configuration.reportDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "repeat-\(UUID().uuidString)")
        let lines = LineLog()
        configuration.progress = { lines.append($0) }
        let outcome = try await ConformanceRunner(configuration: configuration).run()
        defer { try? FileManager.default.removeItem(at: outcome.directory) }
        let report = outcome.report

        let flaky = try #require(report.evaluations.first { $0.caseID == "qrt.connect.001" })
        let repeats = try #require(flaky.repeats)
        #expect(repeats.verdicts == [.pass, .fail, .pass])
        #expect(repeats.isFlaky && repeats.representative == 1)
        #expect(flaky.verdict == .fail)  // the worst run is the case's verdict and evidence
        #expect(abs(repeats.passRate(strict: false) - 2.0 / 3) < 1e-9)
        let stable = try #require(report.evaluations.first { $0.caseID == "qrt.session.001" })
        #expect(stable.repeats?.verdicts == [.pass, .pass, .pass] && stable.repeats?.isFlaky == false)
        #expect(stable.repeats?.latencySpread["sessionCreated.sessionUpdate"]?.count == 3)
        #expect(report.flakyCases == ["qrt.connect.001"])
        #expect(report.exitCode(strict: false) == 1)
        #expect(lines.all.filter { $0.contains("(run ") }.count == 6)
        #expect(lines.all.contains { $0.contains("qrt.connect.001 flaky: pass ×2, fail ×1") })

        let folder = outcome.directory
        let index = try JSONValue.decode(Array(try Data(contentsOf: folder.appendingPathComponent("index.json"))))
        #expect(ReportSchema.validateIndex(index, repositoryRoot: SuiteRun.root) == [])
        #expect(index["repeat"] == 3)
        #expect(index["flakyCases"] == ["qrt.connect.001"])
        let entry = index["cases"]?.arrayValue?.first { $0["id"] == "qrt.connect.001" }
        #expect(entry?["repeats"]?["verdicts"] == ["pass", "fail", "pass"])
        #expect(entry?["repeats"]?["flaky"] == true)
        #expect(entry?["repeats"]?["passRate"] == .double(0.6667))
        let ctrf = try JSONValue.decode(Array(try Data(contentsOf: folder.appendingPathComponent("ctrf.json"))))
        #expect(
            ReportSchema.validate(ctrf, schemaFile: SuiteRun.root.appendingPathComponent(ReportSchema.ctrfSchemaPath))
                == [])
        let test = ctrf["results"]?["tests"]?.arrayValue?.first { $0["name"] == "qrt.connect.001" }
        #expect(test?["flaky"] == true && test?["retries"] == 2)
        let junit = try String(contentsOf: folder.appendingPathComponent("junit.xml"), encoding: .utf8)
        #expect(junit.contains(#"<property name="flaky" value="true"/>"#))
        #expect(junit.contains(#"message="flaky (2/3 runs passed): "#))
        let summary = try String(contentsOf: folder.appendingPathComponent("summary.md"), encoding: .utf8)
        #expect(
            summary.contains("## Flaky cases")
                && summary.contains("| qrt.connect.001 | pass ×2, fail ×1 | 2/3 runs passed |"))
        let html = try String(contentsOf: folder.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(html.contains("Flaky cases (1)") && html.contains(#"<span class="flaky">flaky</span>"#))

        // The case reports keep every run, so a merge of shards says the same.
        let merged = try ReportMerger.merge([folder], suite: nil)
        #expect(merged.repeatCount == 3)
        #expect(merged.flakyCases == ["qrt.connect.001"])
        #expect(merged.evaluations.first { $0.caseID == "qrt.connect.001" }?.repeats?.verdicts == repeats.verdicts)
    }
}

/// Progress lines collected from the runner's tasks.
final class LineLog: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}
