import ConformanceChecks
import ConformanceHarness
import ConformanceReports
import Foundation
import Testing

/// The API key the harness hands its clients never reaches the report folder: not in the
/// index, the case reports (journals, transcripts, refusals), JUnit, CTRF, summary or HTML.
@Suite("Report secret hygiene")
struct ReportSecretHygieneTests {
    static let canary = "sk-canary-report-7e3a"

    @Test(arguments: [
        ("qwen-realtime", ["qrt.connect.001", "qrt.session.001", "qrt.errors.003"]),
        ("multimodal-dialog", ["mmd.connect.001", "mmd.start.001"]),
    ])
    func theClientsKeyAppearsInNoReportFile(protocolName: String, cases: [String]) async throws {
        var configuration = RunConfiguration(
            protocolName: protocolName, clientCommand: SuiteRun.adapter, repositoryRoot: SuiteRun.root)
        configuration.includes = cases
        configuration.apiKey = Self.canary
        configuration.reportDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "secrets-\(UUID().uuidString)")
        configuration.progress = { _ in }
        let outcome = try await ConformanceRunner(configuration: configuration).run()
        defer { try? FileManager.default.removeItem(at: outcome.directory) }
        #expect(
            outcome.report.evaluations.allSatisfy { $0.verdict.rawValue == "pass" },
            "the key was used: the sessions ran")
        let files =
            FileManager.default.enumerator(at: outcome.directory, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { !$0.hasDirectoryPath } ?? []
        #expect(files.count >= 5 + cases.count)  // index, JUnit, CTRF, summary, HTML, a report per case
        for file in files {
            let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
            #expect(
                !text.contains(Self.canary) && !text.contains("canary-report"),
                "\(file.lastPathComponent) holds the key")
        }
    }
}
