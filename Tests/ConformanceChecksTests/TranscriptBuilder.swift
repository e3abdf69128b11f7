import ConformanceChecks
import ProtocolModel
import WireJSON

/// Builds small transcripts with times in milliseconds for the unit tests.
struct TranscriptBuilder {
    var entries: [JournalEntry] = []
    var events: [AdapterEvent] = []
    var driven = false

    mutating func client(_ ms: Double, _ json: JSONValue) {
        entries.append(.textFrame(t: Int64(ms * 1000), .in, json: json, byteLength: 50))
    }
    mutating func server(_ ms: Double, _ json: JSONValue) {
        entries.append(.textFrame(t: Int64(ms * 1000), .out, json: json, byteLength: 50))
    }
    mutating func clientAudio(_ ms: Double, bytes: Int) {
        entries.append(.binaryFrame(t: Int64(ms * 1000), .in, byteLength: bytes))
    }
    mutating func serverAudio(_ ms: Double, bytes: Int, durationMs: Double) {
        entries.append(
            .binaryFrame(
                t: Int64(ms * 1000), .out, byteLength: bytes, audio: AudioSummary(codec: "pcm", durationMs: durationMs))
        )
    }
    mutating func state(_ ms: Double, _ name: String) {
        entries.append(JournalEntry(t: Int64(ms * 1000), kind: .state, state: name))
    }
    mutating func violation(_ ms: Double, _ id: String) {
        entries.append(
            JournalEntry(t: Int64(ms * 1000), kind: .violation, violation: Violation(obligation: id, message: "seen")))
    }
    mutating func adapter(_ ms: Double, _ name: String, _ members: JSONObject = [:]) {
        var object = members
        object["event"] = .string(name)
        events.append(AdapterEvent(t: Int64(ms * 1000), name: name, json: .object(object)))
        driven = true
    }
    var transcript: Transcript {
        Transcript(journal: entries, adapterEvents: events, client: ClientProcessResult(exitCode: 0, driven: driven))
    }

    /// A multimodal directive / output event.
    static func directive(_ name: String, action: String = "continue-task", task: String = "t1") -> JSONValue {
        [
            "header": ["action": .string(action), "task_id": .string(task)],
            "payload": ["input": ["directive": .string(name)]],
        ]
    }
    static func output(_ name: String, _ extra: JSONObject = [:]) -> JSONValue {
        var output = extra
        output["event"] = .string(name)
        return ["header": ["event": "result-generated", "task_id": "t1"], "payload": ["output": .object(output)]]
    }
    static func event(_ type: String, _ extra: JSONObject = [:]) -> JSONValue {
        var object = extra
        object["type"] = .string(type)
        return .object(object)
    }
}

/// Decodes a check literal and evaluates it.
func judge(
    _ check: String, _ transcript: Transcript, protocolName: String = "multimodal-dialog",
    level: RequirementLevel = .must
) throws -> CheckResult {
    let configured = try CheckRegistry.decode(try JSONValue.decode(check))
    let context = CheckContext(
        protocolName: protocolName, kind: configured.kind, obligation: configured.obligation ?? "mmd.C0",
        level: configured.level ?? level, schemas: RepositoryFiles.schemas)
    return configured.check.evaluate(transcript, context: context)
}
