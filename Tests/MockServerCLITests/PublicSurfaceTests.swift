import Foundation
import Testing

/// `public` is the products' documented API only: the in-process mock (`DialogMock` → `MockServer`)
/// and the Swift clients (`DialogClients`, whose requests carry `WireJSON`'s `JSONValue`). Every
/// other declaration is `package` or internal, so no module leaks into a user's namespace.
@Suite struct PublicSurfaceTests {
    static let root = ArchitectureGraphTests.root

    /// Module → its Swift files' lines, for every module under Sources.
    static func sourceLines() throws -> [String: [Substring]] {
        let sources = root.appendingPathComponent("Sources")
        var lines: [String: [Substring]] = [:]
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path) {
            guard let files = FileManager.default.enumerator(atPath: sources.appendingPathComponent(module).path)
            else { continue }
            for case let file as String in files where file.hasSuffix(".swift") {
                let text = try String(
                    contentsOf: sources.appendingPathComponent(module).appendingPathComponent(file), encoding: .utf8)
                lines[module, default: []] += text.split(separator: "\n")
            }
        }
        return lines
    }

    @Test func onlyTheProductsAndWhatTheirAPINamesArePublic() throws {
        let allowed: Set = ["MockServer", "MockSessions", "DialogClients", "WireJSON"]
        for (module, lines) in try Self.sourceLines() where !allowed.contains(module) {
            let publicLines = lines.filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("public ") }
            #expect(publicLines.isEmpty, "\(module) declares public: \(publicLines.prefix(3))")
        }
    }

    /// `MockServer` names the four session-layer types its API uses (typealiases), so it imports
    /// `MockSessions` publicly; no `Wire*` module is re-exported by it.
    @Test func publicImportsAreTheDocumentedOnes() throws {
        var found: Set<String> = []
        for (module, lines) in try Self.sourceLines() {
            for line in lines where line.hasPrefix("public import ") {
                found.insert("\(module) → \(line.dropFirst("public import ".count))")
            }
        }
        #expect(found == ["MockServer → MockSessions", "DialogClients → WireJSON"])
        let sessionTypes = try #require(Self.sourceLines()["MockSessions"]).filter {
            $0.hasPrefix("public struct ") || $0.hasPrefix("public enum ") || $0.hasPrefix("public final class ")
        }.map { $0.split(separator: " ")[2].prefix { $0.isLetter } }
        #expect(Set(sessionTypes) == ["Logger", "LogLevel", "LogFormat", "ScenarioFileError"])
    }
}
