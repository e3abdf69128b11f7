import Foundation
import ProtocolModel
import Testing

/// The Python package's `PROTOCOL_ROUTES` (mock-server/python/dialogmock/server.py) is the
/// descriptors' list in Python: every protocol, with its service path and default model. No
/// compiler asks for it when a protocol is added; this test does.
@Suite struct PythonProtocolRoutesTests {
    static let source: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let file = root.appendingPathComponent("mock-server/python/dialogmock/server.py")
        return (try? String(contentsOf: file, encoding: .utf8)) ?? ""
    }()

    /// The string a module-level constant `NAME = "…"` holds, or nil.
    static func constant(_ name: String) -> String? {
        for line in source.split(separator: "\n") where line.hasPrefix(name + " = \"") {
            return String(line.dropFirst(name.count + 4).prefix { $0 != "\"" })
        }
        return nil
    }

    @Test(arguments: DialogProtocol.allCases)
    func everyProtocolIsRoutedWithItsPathAndDefaultModel(_ dialogProtocol: DialogProtocol) throws {
        let entry = try #require(
            Self.source.split(separator: "\n").first { $0.contains("\"\(dialogProtocol.rawValue)\": (") },
            "no PROTOCOL_ROUTES entry for \(dialogProtocol.rawValue)")
        let inside = entry.drop { $0 != "(" }.dropFirst().prefix { $0 != ")" }
        let names = inside.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        try #require(names.count == 2, "\(entry)")
        #expect(Self.constant(names[0]) == dialogProtocol.servicePath, "\(entry)")
        let model = names[1] == "None" ? nil : Self.constant(names[1])
        #expect(model == dialogProtocol.descriptor.defaultModel, "\(entry)")
    }
}
