import Foundation
import ProtocolModel
import Testing
import WireJSON

/// The Qwen event enums are the protocol's catalogue: every event of the protocol reference's
/// §4.0 / §5.0 tables and of the message schemas under `conformance/protocols/qwen-realtime/`
/// is a case, and every case is catalogued. Deliberate differences: none (the mock sends every
/// catalogued server event, voiceprint enrolment included, and handles every client event).
@Suite("Qwen realtime events")
struct QwenEventTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("conformance/protocols/qwen-realtime")

    /// The `type` const of every message schema in `client/` or `server/`.
    static func schemaTypes(_ direction: String) throws -> Set<String> {
        let directory = folder.appendingPathComponent(direction)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }
        var types: Set<String> = []
        for file in files {
            let schema = try JSONValue.decode(Array(try Data(contentsOf: directory.appendingPathComponent(file))))
            let type = try #require(schema["properties"]?["type"]?["const"]?.stringValue, "\(file) has no type const")
            types.insert(type)
        }
        return types
    }

    /// The `type` column of a catalogue table (`### 4.0 Catalogue`, `### 5.0 Catalogue`) of the
    /// protocol reference: rows `| n | \`type\` | …`.
    static func catalogueTypes(section: String) throws -> Set<String> {
        let reference = try String(contentsOf: folder.appendingPathComponent("README.md"), encoding: .utf8)
        let table = try #require(reference.components(separatedBy: "### \(section) Catalogue").dropFirst().first)
            .components(separatedBy: "\n### ")[0]
        var types: Set<String> = []
        for line in table.split(separator: "\n") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count > 2, Int(cells[0]) != nil, cells[1].hasPrefix("`"), cells[1].hasSuffix("`") else {
                continue
            }
            types.insert(String(cells[1].dropFirst().dropLast()))
        }
        return types
    }

    /// Each catalogue or schema set equals the enum's raw values, naming what either side lacks.
    static func expectSame(_ cases: Set<String>, as catalogues: [(source: String, types: Set<String>)]) {
        for (source, catalogued) in catalogues {
            #expect(
                catalogued == cases,
                "\(source) lacks \(cases.subtracting(catalogued).sorted()); enum lacks \(catalogued.subtracting(cases).sorted())"
            )
        }
    }

    @Test("Every client event of the catalogue and the schemas is a QwenClientEvent, and no other")
    func clientEventsAreTheCatalogue() throws {
        Self.expectSame(
            Set(QwenClientEvent.allCases.map(\.rawValue)),
            as: [("§4.0", try Self.catalogueTypes(section: "4.0")), ("client schemas", try Self.schemaTypes("client"))])
        #expect(QwenClientEvent.allCases.count == 14)
    }

    @Test("Every server event of the catalogue and the schemas is a QwenServerEvent, and no other")
    func serverEventsAreTheCatalogue() throws {
        Self.expectSame(
            Set(QwenServerEvent.allCases.map(\.rawValue)),
            as: [("§5.0", try Self.catalogueTypes(section: "5.0")), ("server schemas", try Self.schemaTypes("server"))])
        #expect(QwenServerEvent.allCases.count == 36)
    }

    @Test("A client event object: the type first, then the fields in their order")
    func clientEventObject() {
        #expect(
            JSONValue.object(QwenClientEvent.responseCancel.object()).encodedString() == #"{"type":"response.cancel"}"#)
        let update = QwenClientEvent.sessionUpdate.object(["session": [:], "event_id": 42])
        #expect(JSONValue.object(update).encodedString() == #"{"type":"session.update","session":{},"event_id":42}"#)
    }
}
