package import WireJSON

/// The `replay` member of a scenario file (what `mock-server record-to-scenario` writes):
/// `{"clientFrames": [names…], "steps": [{"after", "delayUs", one of "json" | "text" |
/// "binaryBytes" | "close", "audioFile"?, "audioPointer"?}]}`. Written and read here only.
extension Scenario {
    static let replayKeys = ["clientFrames", "steps"]
    static let replayStepKeys = [
        "after", "delayUs", "json", "text", "binaryBytes", "close", "audioFile", "audioPointer",
    ]

    /// The `replay` member for this scenario's replay steps (nil without any).
    package var replayJSON: JSONValue? {
        guard let replay else { return nil }
        var object: JSONObject = [:]
        if let names = replayClientFrames { object["clientFrames"] = .array(names.map(JSONValue.string)) }
        object["steps"] = .array(replay.map(\.jsonValue))
        return .object(object)
    }

    /// Reads the `replay` member into `replay` and `replayClientFrames`.
    static func parseReplay(
        _ value: JSONValue, into scenario: inout Scenario, context: ScenarioDecodingContext
    ) throws(ScenarioError) {
        let reader = try context.object(value, at: ["replay"])
        try reader.rejectUnknownKeys(allowing: replayKeys)
        var names: [String] = []
        for (index, element) in (try reader.array("clientFrames") ?? []).enumerated() {
            guard let name = element.stringValue else {
                throw context.error(["replay", "clientFrames", String(index)], "expected a message name (string)")
            }
            names.append(name)
        }
        var steps: [ReplayStep] = []
        for (index, element) in (try reader.array("steps") ?? []).enumerated() {
            steps.append(try ReplayStep.parse(element, at: ["replay", "steps", String(index)], context: context))
        }
        scenario.replay = steps
        scenario.replayClientFrames = reader.has("clientFrames") ? names : nil
    }
}

extension ReplayStep {
    /// This step as a scenario file writes it.
    package var jsonValue: JSONValue {
        var object: JSONObject = ["after": .int(Int64(afterClientFrame)), "delayUs": .int(delayMicros)]
        switch frame {
        case .json(let value): object["json"] = value
        case .text(let text): object["text"] = .string(text)
        case .synthesizedAudio(let length, _): object["binaryBytes"] = .int(Int64(length))
        case .close(let code, let reason):
            object["close"] = ["code": .int(Int64(code)), "reason": .string(reason)]
        }
        if let audioFile { object["audioFile"] = .string(audioFile) }
        if let audioPointer { object["audioPointer"] = .string(audioPointer) }
        return .object(object)
    }

    static func parse(
        _ value: JSONValue, at tokens: [String], context: ScenarioDecodingContext
    ) throws(ScenarioError) -> ReplayStep {
        let reader = try context.object(value, at: tokens)
        try reader.rejectUnknownKeys(allowing: Scenario.replayStepKeys)
        let after = Int(try reader.int("after", in: 0...Int64(Int32.max)) ?? 0)
        let delay = try reader.int("delayUs", in: 0...(86_400 * 1_000_000)) ?? 0
        let kinds = ["json", "text", "binaryBytes", "close"].filter { reader.has($0) }
        guard kinds.count == 1 else {
            throw context.error(tokens, "expected exactly one of json, text, binaryBytes, close; got \(kinds.count)")
        }
        let frame: ScriptedFrame
        switch kinds[0] {
        case "json":
            frame = .json(try reader.required("json"))
        case "text":
            frame = .text(try reader.string("text") ?? "")
        case "binaryBytes":
            frame = .synthesizedAudio(
                byteLength: Int(try reader.int("binaryBytes", in: 0...(16 << 20)) ?? 0), audio: nil)
        default:
            let close = try context.object(try reader.required("close"), at: reader.path("close"))
            try close.rejectUnknownKeys(allowing: ["code", "reason"])
            frame = .close(
                code: Int(try close.int("code", in: 1000...4999) ?? 1000), reason: try close.string("reason") ?? "")
        }
        let audioFile = try reader.string("audioFile")
        if let audioFile, audioFile.hasPrefix("/") || audioFile.split(separator: "/").contains("..") {
            throw context.error(reader.path("audioFile"), "must be a path inside the scenario's folder")
        }
        return ReplayStep(
            afterClientFrame: after, delayMicros: delay, frame: frame, audioFile: audioFile,
            audioPointer: try reader.string("audioPointer"))
    }
}
