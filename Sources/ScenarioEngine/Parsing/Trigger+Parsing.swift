import WireJSON

extension Trigger {
    /// Parses `{"id"?, "when": {…}, "probability"?, "repeat"?, "actions": […]}`.
    static func parse(
        _ value: JSONValue, at tokens: [String], context: ScenarioDecodingContext
    ) throws(ScenarioError) -> Trigger {
        let reader = try context.object(value, at: tokens)
        try reader.rejectUnknownKeys(allowing: ["id", "when", "probability", "repeat", "actions", "description"])
        guard let when = try reader.object("when") else {
            throw context.error(tokens, "missing required key \"when\"")
        }
        let condition = try parseCondition(when)
        var actions: [Action] = []
        guard let elements = try reader.array("actions"), !elements.isEmpty else {
            throw context.error(tokens, "missing required key \"actions\" (a non-empty array)")
        }
        for (index, element) in elements.enumerated() {
            actions.append(try parseAction(element, at: reader.path("actions") + [String(index)], context: context))
        }
        return Trigger(
            id: try reader.string("id"), condition: condition,
            probability: try reader.double("probability", in: 0...1) ?? 1,
            limit: try RepeatLimit.parse(reader, key: "repeat") ?? .once, actions: actions)
    }

    private static func parseCondition(_ reader: FieldReader) throws(ScenarioError) -> Condition {
        let kinds = ["message", "afterMs", "audioFrames", "audioMs", "state"]
        try reader.rejectUnknownKeys(allowing: kinds + ["match", "from"])
        let present = kinds.filter { reader.has($0) }
        guard present.count == 1 else {
            throw reader.context.error(
                reader.tokens,
                "expected exactly one of \(kinds.joined(separator: ", ")); got \(present.isEmpty ? "none" : present.joined(separator: ", "))"
            )
        }
        if reader.has("match"), present[0] != "message" {
            throw reader.context.error(reader.path("match"), "\"match\" only applies to \"message\"")
        }
        if reader.has("from"), present[0] != "afterMs" {
            throw reader.context.error(reader.path("from"), "\"from\" only applies to \"afterMs\"")
        }
        switch present[0] {
        case "message":
            let type = try reader.string("message") ?? ""
            let match = try reader.value("match").map { value throws(ScenarioError) in
                try EventMatcher.parse(value, at: reader.path("match"), context: reader.context)
            }
            return .message(type: type, match: match)
        case "afterMs":
            return .afterTime(
                ms: try reader.double("afterMs", in: 0...86_400_000) ?? 0, from: try reader.string("from"))
        case "audioFrames":
            return .audioFrames(count: Int(try reader.int("audioFrames", in: 1...100_000_000) ?? 1))
        case "audioMs":
            return .audioMs(ms: try reader.double("audioMs", in: 1...86_400_000) ?? 1)
        default:
            return .stateEntered(try reader.string("state") ?? "")
        }
    }

    private static func parseAction(
        _ value: JSONValue, at tokens: [String], context: ScenarioDecodingContext
    ) throws(ScenarioError) -> Action {
        let reader = try context.object(value, at: tokens)
        let kinds = ["arm", "disarm", "fault", "send", "endSession"]
        try reader.rejectUnknownKeys(allowing: kinds + ["delayMs"])
        let present = kinds.filter { reader.has($0) }
        guard present.count == 1 else {
            throw context.error(
                tokens,
                "expected exactly one of \(kinds.joined(separator: ", ")); got \(present.isEmpty ? "none" : present.joined(separator: ", "))"
            )
        }
        switch present[0] {
        case "arm": return .arm(faultId: try reader.string("arm") ?? "")
        case "disarm": return .disarm(faultId: try reader.string("disarm") ?? "")
        case "fault":
            return .fault(try FaultSpec.parse(try reader.required("fault"), at: reader.path("fault"), context: context))
        case "send":
            guard let frame = try reader.object("send") else { throw context.error(tokens, "missing \"send\"") }
            return .send(frame: .object(frame.object), delayMs: try reader.double("delayMs", in: 0...86_400_000) ?? 0)
        default:
            return .endSession(reason: try reader.string("endSession") ?? "")
        }
    }
}
