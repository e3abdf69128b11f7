import WireJSON

/// The turns of a conversation: a list, what to say beyond its end, and whether to cycle.
package struct TurnScript: Sendable, Hashable {
    /// Turn contents in order (placeholders not yet substituted).
    package var list: [TurnContent]
    /// Content for turns past the end of `list` when not cycling.
    package var fallback: TurnContent
    /// Whether turn `list.count` starts again at the first entry.
    package var cycle: Bool

    /// Creates a script.
    package init(list: [TurnContent] = [], fallback: TurnContent = TurnScript.genericFallback, cycle: Bool = false) {
        self.list = list
        self.fallback = fallback
        self.cycle = cycle
    }

    /// The content used when a scenario gives no default turn.
    package static let genericFallback = TurnContent(
        transcript: "Hello.", answer: "Hello! How can I help you today?")

    /// The raw content of the zero-based turn `index`.
    package func content(at index: Int) -> TurnContent {
        guard !list.isEmpty, index >= 0 else { return fallback }
        if index < list.count { return list[index] }
        return cycle ? list[index % list.count] : fallback
    }
}

extension TurnScript {
    /// Parses `turns`: either an array (the list) or `{"list", "default", "cycle"}`.
    static func parse(
        _ value: JSONValue, at tokens: [String], context: ScenarioDecodingContext
    ) throws(ScenarioError) -> TurnScript {
        if case .array(let elements) = value {
            return TurnScript(list: try parseList(elements, at: tokens, context: context))
        }
        let reader = try context.object(value, at: tokens)
        try reader.rejectUnknownKeys(allowing: ["list", "default", "cycle"])
        var script = TurnScript()
        if let elements = try reader.array("list") {
            script.list = try parseList(elements, at: reader.path("list"), context: context)
        }
        if let fallback = reader.value("default") {
            script.fallback = try parseTurn(fallback, at: reader.path("default"), context: context)
        }
        script.cycle = try reader.bool("cycle") ?? false
        return script
    }

    private static func parseList(
        _ elements: [JSONValue], at tokens: [String], context: ScenarioDecodingContext
    ) throws(ScenarioError) -> [TurnContent] {
        var turns: [TurnContent] = []
        for (index, element) in elements.enumerated() {
            turns.append(try parseTurn(element, at: tokens + [String(index)], context: context))
        }
        return turns
    }

    /// Parses one turn object.
    static func parseTurn(
        _ value: JSONValue, at tokens: [String], context: ScenarioDecodingContext
    ) throws(ScenarioError) -> TurnContent {
        let reader = try context.object(value, at: tokens)
        try reader.rejectUnknownKeys(allowing: [
            "transcript", "answer", "spoken", "audio", "commands", "extraInfo", "functionCalls", "errors", "intent",
            "language", "emotion",
        ])
        var turn = TurnContent(
            transcript: try reader.string("transcript") ?? "", answer: try reader.string("answer") ?? "",
            spoken: try reader.string("spoken"))
        if let audio = try reader.object("audio") {
            turn.audio = try parseAudio(audio)
        }
        if let commands = reader.value("commands") {
            guard commands.arrayValue != nil || commands.objectValue != nil else {
                throw reader.typeError("commands", "array or object", commands)
            }
            turn.commands = commands
        }
        if let extra = try reader.object("extraInfo") {
            try extra.rejectUnknownKeys(allowing: ["agent_info", "tool_calls", "dialog_debug", "timestamps"])
            var info = JSONObject()
            for key in ["agent_info", "dialog_debug", "timestamps"] {
                if let value = try extra.object(key) { info[key] = .object(value.object) }
            }
            if let calls = try extra.array("tool_calls") {
                for (index, call) in calls.enumerated() {
                    _ = try context.object(call, at: extra.path("tool_calls") + [String(index)])
                }
                info["tool_calls"] = .array(calls)
            }
            turn.extraInfo = info
        }
        for (index, element) in (try reader.array("functionCalls") ?? []).enumerated() {
            let call = try context.object(element, at: reader.path("functionCalls") + [String(index)])
            try call.rejectUnknownKeys(allowing: ["name", "arguments", "callId"])
            guard let name = try call.string("name"), !name.isEmpty else {
                throw context.error(call.tokens, "missing required key \"name\"")
            }
            let arguments = call.value("arguments") ?? .object([:])
            guard arguments.objectValue != nil else { throw call.typeError("arguments", "object", arguments) }
            turn.functionCalls.append(.init(name: name, arguments: arguments, callId: try call.string("callId")))
        }
        for (index, element) in (try reader.array("errors") ?? []).enumerated() {
            turn.errors.append(
                try ErrorSpec.parse(element, at: reader.path("errors") + [String(index)], context: context))
        }
        turn.intent = try reader.enumeration("intent", as: TurnContent.Intent.self) ?? .valid
        for key in ["language", "emotion"] {
            guard let value = try reader.string(key) else { continue }
            guard !value.isEmpty, value.count <= 32, value.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
                throw reader.context.error(
                    reader.path(key), "\"\(value)\" must be a short code such as \"en\" or \"happy\"")
            }
            if key == "language" { turn.language = value } else { turn.emotion = value }
        }
        return turn
    }

    private static func parseAudio(_ reader: FieldReader) throws(ScenarioError) -> TurnContent.Audio {
        try reader.rejectUnknownKeys(allowing: ["synth", "file", "none"])
        if let path = try reader.string("file") {
            guard TurnContent.Audio.staysInside(path) else {
                throw reader.context.error(
                    reader.path("file"),
                    "\"\(path)\" must be a path inside the scenario's folder (relative, never above it with \"..\")")
            }
            return .file(path: path)
        }
        if try reader.bool("none") == true {
            return .none
        }
        if let synth = try reader.object("synth") {
            try synth.rejectUnknownKeys(allowing: ["rate"])
            return .synthesized(rate: try synth.double("rate", in: 0.25...4) ?? 1)
        }
        throw reader.context.error(reader.tokens, "expected one of \"synth\", \"file\" or \"none\"")
    }
}
