import Foundation
import Testing

/// `mock-server/bad-input.md` names, for each kind of bad input, the test that holds the
/// behaviour: every `Suite.function` it names is a test in `Tests/`, so the table cannot point at
/// a test that was renamed or removed.
@Suite struct BadInputTableTests {
    static let root = ArchitectureGraphTests.root

    /// Every `Suite.function` reference in the table, in order.
    static func references() throws -> [(suite: String, function: String)] {
        let text = try String(contentsOf: root.appendingPathComponent("mock-server/bad-input.md"), encoding: .utf8)
        var found: [(String, String)] = []
        for (index, piece) in text.components(separatedBy: "`").enumerated() where index % 2 == 1 {
            let parts = piece.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0].hasSuffix("Tests"), parts[0].allSatisfy({ $0.isLetter || $0.isNumber }),
                let first = parts[1].first, first.isLowercase,
                parts[1].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
            else { continue }
            found.append((String(parts[0]), String(parts[1])))
        }
        return found
    }

    /// Test sources: file path → text.
    static func testSources() throws -> [String: String] {
        let base = root.appendingPathComponent("Tests")
        var sources: [String: String] = [:]
        let walker = try #require(FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil))
        for case let url as URL in walker where url.pathExtension == "swift" {
            sources[url.path] = try String(contentsOf: url, encoding: .utf8)
        }
        return sources
    }

    @Test func everyTestTheTableNamesExists() throws {
        let references = try Self.references()
        #expect(references.count > 60, "the table names \(references.count) tests")
        let sources = try Self.testSources()
        var missing: [String] = []
        for (suite, function) in references {
            // The suite's own files (a suite may be split over extensions), or, for a suite
            // named after its target (`FuzzTargetsTests.seedsRun`), that target's folder.
            let files = sources.filter { path, text in
                text.contains("struct \(suite) ") || text.contains("struct \(suite):")
                    || text.contains("extension \(suite) ")
                    || path.contains("/Tests/\(suite)/")
            }
            if !files.values.contains(where: { $0.contains("func \(function)(") }) {
                missing.append("\(suite).\(function)")
            }
        }
        #expect(missing.isEmpty, "bad-input.md names tests that do not exist: \(missing)")
    }

    @Test func theServerReadmeLinksTheTable() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("mock-server/README.md"), encoding: .utf8)
        #expect(readme.contains("(bad-input.md)"))
    }
}
