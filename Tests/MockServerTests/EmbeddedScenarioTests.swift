import Foundation
import Testing

@testable import MockServer

/// The binary's embedded copies of mock-server/scenarios match the files (.ci/embed-scenarios).
@Suite("Embedded scenarios")
struct EmbeddedScenarioTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("mock-server/scenarios")

    @Test func embeddedCopiesMatchTheFiles() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter {
            $0.hasSuffix(".json")
        }
        #expect(
            Set(files.map { String($0.dropLast(5)) }) == Set(MockServer.shippedScenarioNames),
            "run .ci/embed-scenarios")
        for file in files {
            let text = try String(contentsOf: Self.folder.appendingPathComponent(file), encoding: .utf8)
            let embedded = MockServer.shippedScenario(named: String(file.dropLast(5)))
            #expect(
                embedded?.trimmingCharacters(in: .whitespacesAndNewlines)
                    == text.trimmingCharacters(in: .whitespacesAndNewlines),
                "\(file) differs from its embedded copy: run .ci/embed-scenarios")
        }
    }

    @Test func everyShippedScenarioLoads() throws {
        for name in MockServer.shippedScenarioNames {
            try MockServer.checkScenario(bytes: Array(MockServer.shippedScenario(named: name)!.utf8), file: name)
        }
    }
}
