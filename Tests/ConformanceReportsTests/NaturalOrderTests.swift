import ConformanceReports
import Foundation
import Testing

/// Reports sort case ids and obligations without ICU; the order must stay the one Foundation's
/// `localizedStandardCompare` gave.
@Suite struct NaturalOrderTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every case id of the shipped suites (their file names) and every obligation they cite.
    static func suiteIdentifiers() throws -> [String] {
        var identifiers: Set<String> = []
        let suites = root.appendingPathComponent("conformance/suites")
        let walker = try #require(FileManager.default.enumerator(at: suites, includingPropertiesForKeys: nil))
        for case let url as URL in walker where url.pathExtension == "json" && url.path.contains("/cases/") {
            identifiers.insert(url.deletingPathExtension().lastPathComponent)
            let text = try String(contentsOf: url, encoding: .utf8)
            for line in text.components(separatedBy: "\"obligation\"").dropFirst() {
                let value = line.drop { $0 != "\"" }.dropFirst().prefix { $0 != "\"" }
                identifiers.insert(String(value))
            }
        }
        return identifiers.sorted()
    }

    @Test func shippedIdentifiersSortAsLocalizedStandardCompare() throws {
        let identifiers = try Self.suiteIdentifiers()
        #expect(identifiers.count > 50)
        let expected = identifiers.sorted { $0.localizedStandardCompare($1) == .orderedAscending }
        #expect(identifiers.sorted(by: NaturalOrder.precedes) == expected)
    }

    @Test func edgeCasesSortAsLocalizedStandardCompare() {
        let identifiers = [
            "qrt.C2", "qrt.C10", "qrt.c3", "QRT.C1", "qrt.C02", "qrt.C2a", "qrt", "qrt.", "schema", "mmd.C9",
            "mmd.C10", "a-b", "a_b", "a.b", "a1", "a01", "a", "A", "b", "case 2", "case 10", "x9y", "x10y",
        ]
        let expected = identifiers.sorted { $0.localizedStandardCompare($1) == .orderedAscending }
        #expect(identifiers.sorted(by: NaturalOrder.precedes) == expected)
    }
}
