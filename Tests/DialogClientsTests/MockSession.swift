import Foundation
import MockServer
import ProtocolModel
import Testing
import WireJSON

/// An in-process mock on 127.0.0.1:0 and helpers to read its journal.
final class MockSession {
    let server: MockServer

    init(timeScale: Double? = nil, scenario: String? = nil) throws {
        var configuration = MockServer.Configuration()
        configuration.timeScale = timeScale
        if let scenario { configuration.scenarioSource = ("test-scenario", Array(scenario.utf8)) }
        server = try MockServer(configuration: configuration)
        try server.start()
    }

    deinit { server.stop() }

    var mmdURL: String { server.baseURL + "/api-ws/v1/inference" }
    func qwenURL(model: String = "qwen3-omni-flash-realtime") -> String {
        server.baseURL + "/api-ws/v1/realtime?model=\(model)"
    }
    /// Qwen-Audio-Live's newest path, without a model (the client adds its service model).
    var liveURL: String { server.baseURL + QwenAudioLive.livePath }

    /// The journal entries of session `id` (`s1` is the first session).
    func entries(_ id: String = "s1") async -> [JSONValue] {
        guard let text = await server.journal(session: id) else { return [] }
        return text.split(separator: "\n").compactMap { try? JSONValue.decode(String($0)) }
    }

    /// Violations journaled for session `id`, as `obligation: message`, leaving out the mock's
    /// known race (see `isSendRace`).
    func violations(_ id: String = "s1") async -> [String] {
        let entries = await entries(id)
        return entries.indices.compactMap { index in
            let entry = entries[index]
            guard entry["kind"]?.stringValue == "violation", let violation = entry["violation"] else { return nil }
            if Self.isSendRace(entries, index) { return nil }
            return "\(violation["obligation"]?.stringValue ?? "?"): \(violation["message"]?.stringValue ?? "")"
        }
    }

    /// Records an issue listing the violations of session `id`, if any.
    func expectNoViolations(_ id: String = "s1", sourceLocation: SourceLocation = #_sourceLocation) async {
        let found = await violations(id)
        #expect(found.isEmpty, "violations of \(id): \(found)", sourceLocation: sourceLocation)
        if !found.isEmpty { print(await timeline(id)) }
    }

    /// A compact timeline of session `id` for failure messages.
    func timeline(_ id: String = "s1") async -> String {
        await entries(id).compactMap { entry -> String? in
            let time = (entry["t"]?.intValue ?? 0) / 1000
            let json = entry["json"]
            let name =
                json?["payload"]?["output"]?["event"]?.stringValue ?? json?["payload"]?["input"]?["directive"]?
                .stringValue
                ?? json?["type"]?.stringValue ?? json?["header"]?["event"]?.stringValue
            switch entry["kind"]?.stringValue {
            case "text":
                return
                    "\(time) \(entry["dir"]?.stringValue ?? "") \(name ?? "?") \(json?["payload"]?["output"]?["state"]?.stringValue ?? "")"
            case "violation": return "\(time) VIOLATION \(entry["violation"]?.encodedString() ?? "")"
            case "binary": return nil
            default:
                return
                    "\(time) \(entry["kind"]?.stringValue ?? "") \(entry["message"]?.stringValue ?? entry["info"]?.stringValue ?? "")"
            }
        }.joined(separator: "\n")
    }

    /// The obligation ids of the violations of session `id`.
    func obligations(_ id: String = "s1") async -> Set<String> {
        Set(await violations(id).map { String($0.prefix { $0 != ":" }) })
    }

    /// A tap2talk frame the client sent before it could have seen `SpeechEnded`: the mock read it
    /// within 100 ms after sending SpeechEnded (the mock's service thread was busy rendering the
    /// answer, so the frame waited in its socket). Reported to the mock's owners; not a client fault.
    static func isSendRace(_ entries: [JSONValue], _ index: Int) -> Bool {
        guard entries[index]["violation"]?["obligation"]?.stringValue == "mmd.C11",
            let frame = entries[..<index].last(where: {
                $0["kind"]?.stringValue == "binary" && $0["dir"]?.stringValue == "in"
            }),
            let ended = entries[..<index].last(where: {
                ($0["json"]?["payload"]?["output"]?["event"]?.stringValue) == "SpeechEnded"
            }),
            let frameTime = frame["t"]?.intValue, let endedTime = ended["t"]?.intValue
        else { return false }
        return frameTime >= endedTime && frameTime - endedTime < 100_000
    }
}

/// Collects what callbacks reported, thread-safely.
final class Recorder: @unchecked Sendable {
    // @unchecked Sendable: every access goes through `lock`.
    private let lock = NSLock()
    private var items: [String] = []

    func add(_ item: String) { lock.withLock { items.append(item) } }
    var all: [String] { lock.withLock { items } }
    func count(_ item: String) -> Int { all.filter { $0 == item }.count }
    func contains(_ prefix: String) -> Bool { all.contains { $0.hasPrefix(prefix) } }

    /// Waits until `item` was recorded `times` times. - Returns: false on timeout.
    func wait(for item: String, times: Int = 1, timeoutMillis: Int = 15_000) async -> Bool {
        for _ in 0..<(timeoutMillis / 20) {
            if count(item) >= times { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return count(item) >= times
    }
}

/// The conformance fixtures (located from this file's path).
enum Fixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("conformance")

    static func bytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: root.appendingPathComponent(path)))
    }

    static var hello: [UInt8] { (try? bytes("fixtures/audio/hello-16k.pcm")) ?? [] }
    static var bargeIn: [UInt8] { (try? bytes("fixtures/audio/barge-in-16k.pcm")) ?? [] }
    static var frame: [UInt8] { (try? bytes("fixtures/images/frame.jpg")) ?? [] }
}
