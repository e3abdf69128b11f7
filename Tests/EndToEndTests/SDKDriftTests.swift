import Foundation
import MockServer
import MultiModalDialogEngine
import ProtocolModel
import Testing
import WireJSON
import WireSocket

/// Issue 12 item 8: every directive, event and parameter name the installed official clients
/// can send or react to (`Clients/sdk_names.py` reads them from the dashscope and openai
/// sources) is either handled by the mock or listed, with its reason, under "Deliberate
/// omissions" in `conformance/protocols/sdk-coverage.md`. A new SDK release that adds a name
/// fails here until the mock handles it or the list says why not; an omission the mock has
/// since implemented (or the SDK dropped) fails too, so the list stays true.
///
/// Handled means: a client directive the engine knows (`Directive`), a Qwen client event the
/// running mock does not answer with "unknown client event type", a server event with a schema
/// in `conformance/protocols/<protocol>/server/`, a parameter path declared in the protocol's
/// client schema (so the harness validates it).
@Suite("Official SDK names against the mock (drift)")
struct SDKDriftTests {
    static let protocols = SDKProcess.root.appendingPathComponent("conformance/protocols")

    struct Omission: Hashable {
        let protocolName: String
        let kind: String
        let name: String
    }

    /// The rows of the "Deliberate omissions" table: `| protocol | kind | name | reason |`.
    static func omissions() throws -> [Omission: String] {
        let text = try String(contentsOf: protocols.appendingPathComponent("sdk-coverage.md"), encoding: .utf8)
        guard let section = text.range(of: "## Deliberate omissions") else { return [:] }
        var rows: [Omission: String] = [:]
        for line in text[section.upperBound...].split(separator: "\n") {
            if line.hasPrefix("## ") { break }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count >= 6, cells[1] != "protocol", !cells[1].hasPrefix("-") else { continue }
            let name = cells[3].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            rows[Omission(protocolName: cells[1], kind: cells[2], name: name)] = cells[4]
        }
        return rows
    }

    @Test func everySDKNameIsHandledOrAnOmissionWithAReason() async throws {
        let names = try await SDKProcess.flow("sdk_names.py", [], timeout: 60)
        let omissions = try Self.omissions()
        let qwenClient = Array((names["qwen-realtime"] as? [String: Any])?["client"] as? [String: String] ?? [:]).map(
            \.key)
        // An event is known when the omni or the text-to-speech profile serves it.
        let qwenUnknown = try await Self.qwenEventsTheMockDoesNotKnow(qwenClient).intersection(
            Self.qwenEventsTheMockDoesNotKnow(qwenClient, model: "qwen3-tts-flash-realtime"))
        var unexplained: [String] = []
        var used: Set<Omission> = []
        for protocolName in ["multimodal-dialog", "qwen-realtime"] {
            let lists = try #require(names[protocolName] as? [String: Any])
            for kind in ["client", "server", "parameters"] {
                let found = try #require(lists[kind] as? [String: String], "\(protocolName) \(kind)")
                #expect(!found.isEmpty, "\(protocolName) \(kind): the SDK sources yielded no names")
                for (name, source) in found.sorted(by: { $0.key < $1.key }) {
                    let handled: Bool
                    switch (protocolName, kind) {
                    case ("multimodal-dialog", "client"): handled = Directive(rawValue: name) != nil
                    case ("qwen-realtime", "client"): handled = !qwenUnknown.contains(name)
                    case (_, "server"):
                        handled = FileManager.default.fileExists(
                            atPath: Self.protocols.appendingPathComponent("\(protocolName)/server/\(name).json").path)
                    default: handled = try Self.parameterIsDeclared(name, protocolName: protocolName)
                    }
                    let omission = Omission(protocolName: protocolName, kind: kind, name: name)
                    if handled {
                        if omissions[omission] != nil {
                            unexplained.append(
                                "\(protocolName) \(kind) \(name): handled now, remove it from the omissions")
                        }
                    } else if let reason = omissions[omission], !reason.isEmpty {
                        used.insert(omission)
                    } else {
                        unexplained.append(
                            "\(protocolName) \(kind) \(name) (from \(source)): neither handled nor a listed omission")
                    }
                }
            }
        }
        for stale in Set(omissions.keys).subtracting(used) {
            let present =
                ((names[stale.protocolName] as? [String: Any])?[stale.kind] as? [String: String])?[stale.name] != nil
            if !present {
                unexplained.append(
                    "\(stale.protocolName) \(stale.kind) \(stale.name): listed as an omission, but no SDK has it")
            }
        }
        #expect(unexplained.isEmpty, Comment(rawValue: "\n" + unexplained.sorted().joined(separator: "\n")))
    }

    /// The list check can fail: a made-up name is neither handled nor listed.
    @Test func anUnknownNameIsNotHandled() async throws {
        #expect(Directive(rawValue: "ShoutLoudly") == nil)
        #expect(
            try !Self.parameterIsDeclared("payload.parameters.upstream.made_up_key", protocolName: "multimodal-dialog"))
        #expect(
            try Self.parameterIsDeclared("payload.parameters.upstream.vocabulary_id", protocolName: "multimodal-dialog")
        )
        #expect(
            try Self.parameterIsDeclared("session.turn_detection.silence_duration_ms", protocolName: "qwen-realtime"))
        #expect(
            try await Self.qwenEventsTheMockDoesNotKnow(["session.update", "conversation.item.truncate_everything"])
                == ["conversation.item.truncate_everything"])
        // The text-to-speech profile knows its own events, and refuses the others' by name.
        #expect(
            try await Self.qwenEventsTheMockDoesNotKnow(
                ["session.update", "input_text_buffer.append", "response.create", "input_text_buffer.flush"],
                model: "qwen3-tts-flash-realtime") == ["input_text_buffer.flush"])
    }

    // MARK: - Handled by the mock

    /// Sends each event (after `session.update`, `session.finish` last) to a running mock on the
    /// profile of `model` and returns those it answered with "unknown client event type".
    static func qwenEventsTheMockDoesNotKnow(
        _ types: [String], model: String = "qwen3-omni-flash-realtime"
    ) async throws -> Set<String> {
        let server = try SDKProcess.startMock()
        defer { server.stop() }
        let client = WebSocketClient()
        defer { client.shutdown() }
        let connection = try await client.connect(
            "\(server.baseURL)/api-ws/v1/realtime?model=\(model)",
            headers: [("Authorization", "Bearer sk-drift")])
        connection.send(text: #"{"type":"session.update","session":{"modalities":["text"],"turn_detection":null}}"#)
        let ordered =
            types.filter { $0 != "session.update" && $0 != "session.finish" }.sorted()
            + types.filter { $0 == "session.finish" }
        for type in ordered { connection.send(text: #"{"type":"\#(type)"}"#) }
        var unknown: Set<String> = []
        for _ in 0..<100 {
            try await Task.sleep(for: .milliseconds(50))
            let journal = await server.journal(session: "s1") ?? ""
            unknown = Set(ordered.filter { journal.contains("unknown client event type \($0)") })
            // Every event has reached the engine once the last one is journaled inbound.
            if let last = ordered.last, journal.contains(#""event":"\#(last)""#) { break }
        }
        connection.close(code: .normal)
        return unknown
    }

    /// Whether a dotted parameter path (`[]` for array items) is declared in the protocol's
    /// client schemas: the multimodal Start and RequestToRespond, the Qwen session.update.
    static func parameterIsDeclared(_ path: String, protocolName: String) throws -> Bool {
        let files =
            protocolName == "multimodal-dialog"
            ? ["client/Start.json", "client/RequestToRespond.json"] : ["client/session.update.json"]
        var components: [String] = []
        for part in path.split(separator: ".") {
            var name = String(part)
            var arrays = 0
            while name.hasSuffix("[]") {
                name.removeLast(2)
                arrays += 1
            }
            components.append(name)
            components += Array(repeating: "[]", count: arrays)
        }
        for file in files {
            let url = protocols.appendingPathComponent("\(protocolName)/\(file)")
            var schema = SchemaWalker()
            if try schema.declares(components, in: schema.load(url)) { return true }
        }
        return false
    }
}

/// Follows `properties`, `items`, `$ref` (same file or a sibling file) and `allOf` / `anyOf` /
/// `oneOf` through the protocol's JSON Schemas.
struct SchemaWalker {
    private var files: [URL: JSONValue] = [:]

    struct Node {
        let schema: JSONValue
        let file: URL
    }

    mutating func load(_ url: URL) throws -> Node {
        if let cached = files[url] { return Node(schema: cached, file: url) }
        let value = try JSONValue.decode(Array(try Data(contentsOf: url)))
        files[url] = value
        return Node(schema: value, file: url)
    }

    /// The node and every schema it is made of (refs and combinators), depth-limited.
    mutating func expand(_ node: Node, depth: Int = 0) throws -> [Node] {
        guard depth < 16 else { return [] }
        var result = [node]
        if let ref = node.schema["$ref"]?.stringValue {
            let parts = ref.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let file =
                parts[0].isEmpty
                ? node.file
                : node.file.deletingLastPathComponent().appendingPathComponent(String(parts[0])).standardized
            var target = try load(file).schema
            if parts.count == 2 {
                for token in parts[1].split(separator: "/") { target = target[String(token)] ?? .null }
            }
            result += try expand(Node(schema: target, file: file), depth: depth + 1)
        }
        for key in ["allOf", "anyOf", "oneOf"] {
            for member in node.schema[key]?.arrayValue ?? [] {
                result += try expand(Node(schema: member, file: node.file), depth: depth + 1)
            }
        }
        return result
    }

    mutating func declares(_ components: [String], in node: Node) throws -> Bool {
        guard let first = components.first else { return true }
        for part in try expand(node) {
            let next = first == "[]" ? part.schema["items"] : part.schema["properties"]?[first]
            if let next, try declares(Array(components.dropFirst()), in: Node(schema: next, file: part.file)) {
                return true
            }
        }
        return false
    }
}
