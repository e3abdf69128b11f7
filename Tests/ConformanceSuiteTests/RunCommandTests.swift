import CLISupport
import ConformanceReports
import Foundation
import Testing
import WireJSON

/// The built `conformance run` as a CI job runs it, on real client processes: the recap on
/// stderr after the per-case lines, GitHub annotations only under `GITHUB_ACTIONS=true`, and the
/// client's end (exit code, signal, stderr) in every report file.
@Suite struct RunCommandTests {
    static var conformance: String { ExecutablePath.sibling("conformance") ?? "conformance" }

    /// Runs `conformance run` on qrt.connect.001 with `client`; returns the process and the report folder.
    private func run(client: String, githubActions: Bool) async throws -> (ChildProcess.Completed, URL) {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("run-command-\(UUID().uuidString)")
        var environment = ChildProcess.currentEnvironment
        // The test may itself run in GitHub Actions: only `githubActions` decides, and no step summary is written.
        environment["GITHUB_ACTIONS"] = githubActions ? "true" : nil
        environment["GITHUB_STEP_SUMMARY"] = nil
        let completed = try await ChildProcess.run(
            Self.conformance,
            [
                "run", "--protocol", "qwen-realtime", "--client", client, "--case", "qrt.connect.001", "--report",
                report.path, "--root", SuiteRun.root.path, "--timeout-ms", "20000",
            ], environment: environment, timeout: .seconds(180))
        return (completed, report)
    }

    private func read(_ file: String, in folder: URL) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
    }

    /// Schema failures of the folder's index.json and ctrf.json.
    private func schemaViolations(_ folder: URL) throws -> [String] {
        try [("index.json", ReportSchema.indexSchemaPath), ("ctrf.json", ReportSchema.ctrfSchemaPath)].flatMap {
            file, schema in
            let document = try JSONValue.decode(read(file, in: folder))
            return ReportSchema.validate(document, schemaFile: SuiteRun.root.appendingPathComponent(schema))
        }
    }

    /// Whether any line of `text` is a workflow command.
    private func hasWorkflowCommand(_ text: String) -> Bool {
        text.split(separator: "\n").contains { $0.hasPrefix("::") }
    }

    @Test func aClientExiting3EndsTheRunWithTheRecapAndAnnotationsUnderGitHubActions() async throws {
        let (completed, folder) = try await run(
            client: "echo 'boom: cannot reach the server' >&2; exit 3", githubActions: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(completed.status == 1, "\(completed.stderr)")
        let stderr = completed.stderr
        let caseLine = try #require(stderr.range(of: "[1/1] qrt.connect.001 "), "\(stderr)")
        let recap = try #require(stderr.range(of: "conformance recap: "), "\(stderr)")
        let annotation = try #require(stderr.range(of: "\n::error title="), "\(stderr)")
        #expect(caseLine.lowerBound < recap.lowerBound && recap.lowerBound < annotation.lowerBound)
        #expect(stderr[recap.upperBound...].hasPrefix("1 fail\n  fail "))
        #expect(stderr.components(separatedBy: "conformance recap: ").count == 2)
        #expect(!hasWorkflowCommand(completed.stdout))
        #expect(completed.stdout.contains("conformance: 1 fail; report in \(folder.path)"))

        let caseReport = try JSONValue.decode(read("cases/qrt.connect.001.json", in: folder))
        #expect(caseReport["client"]?["end"] == "exit 3")
        #expect(caseReport["client"]?["exitCode"] == 3)
        #expect(caseReport["client"]?["stderrTail"] == ["boom: cannot reach the server"])
        let junit = try read("junit.xml", in: folder)
        let failure = try #require(junit.components(separatedBy: "<failure ").dropFirst().first)
        #expect(failure.contains("client: exit 3\nclient stderr (last 1 line):\n  | boom: cannot reach the server"))
        let ctrf = try JSONValue.decode(read("ctrf.json", in: folder))
        let test = try #require(ctrf["results"]?["tests"]?[0])
        #expect(test["extra"]?["client"]?["end"] == "exit 3")
        #expect(test["trace"]?.stringValue?.contains("client: exit 3") == true)
        #expect(try schemaViolations(folder) == [])
        #expect(try read("summary.md", in: folder).contains("      client: exit 3"))
        #expect(try read("report.html", in: folder).contains("<span class=\"client abnormal\">client: exit 3</span>"))
    }

    @Test func aClientEndedByASignalIsReportedAsSuchAndNoAnnotationOutsideGitHubActions() async throws {
        let (completed, folder) = try await run(
            client: "echo 'about to crash' >&2; kill -SEGV $$", githubActions: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(completed.status == 1, "\(completed.stderr)")
        #expect(completed.stderr.contains("\nconformance recap: "))
        #expect(completed.stderr.contains("    client: ended by signal 11\n"))
        #expect(!hasWorkflowCommand(completed.stderr) && !hasWorkflowCommand(completed.stdout))

        let caseReport = try JSONValue.decode(read("cases/qrt.connect.001.json", in: folder))
        #expect(caseReport["client"]?["end"] == "ended by signal 11")
        #expect(caseReport["client"]?["signal"] == 11)
        #expect(caseReport["client"]?["exitCode"] == .null)
        let junit = try read("junit.xml", in: folder)
        #expect(
            junit.contains("client: ended by signal 11\nclient stderr (last 1 line):\n  | about to crash</failure>"))
        let ctrf = try JSONValue.decode(read("ctrf.json", in: folder))
        #expect(ctrf["results"]?["tests"]?[0]?["extra"]?["client"]?["signal"] == 11)
        #expect(try schemaViolations(folder) == [])
        #expect(try read("summary.md", in: folder).contains("      client: ended by signal 11"))
        #expect(try read("report.html", in: folder).contains("client: ended by signal 11</span>"))
    }
}
