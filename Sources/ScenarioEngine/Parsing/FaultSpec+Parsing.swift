import WireJSON

extension FaultSpec {
    /// Members every fault may have, whatever its kind.
    static let commonKeys = ["id", "kind", "match", "skip", "repeat", "probability", "armed", "description"]

    /// Parses one fault object: the common members plus the parameters of its kind.
    static func parse(
        _ value: JSONValue, at tokens: [String], context: ScenarioDecodingContext
    ) throws(ScenarioError) -> FaultSpec {
        let reader = try context.object(value, at: tokens)
        guard let name = try reader.enumeration("kind", as: KindName.self) else {
            throw context.error(tokens, "missing required key \"kind\"")
        }
        try reader.rejectUnknownKeys(allowing: commonKeys + parameterNames(name))
        let (kind, _) = try parseKind(name, reader)
        var fault = FaultSpec(kind: kind)
        fault.id = try reader.string("id")
        if let match = reader.value("match") {
            fault.match = try EventMatcher.parse(match, at: reader.path("match"), context: context)
            if case .sessionExpiry = kind {
                throw context.error(reader.path("match"), "sessionExpiry does not take \"match\"")
            }
        }
        fault.skip = Int(try reader.int("skip", in: 0...1_000_000) ?? 0)
        fault.limit = try RepeatLimit.parse(reader, key: "repeat") ?? .once
        fault.probability = try reader.double("probability", in: 0...1) ?? 1
        fault.armed = try reader.bool("armed") ?? true
        return fault
    }

    /// The parameter members of each kind.
    static func parameterNames(_ name: KindName) -> [String] {
        switch name {
        case .close: ["code", "reason"]
        case .abruptClose, .malformedJSON, .drop: []
        case .stall: ["direction", "ms", "forever"]
        case .slowClose: ["ms"]
        case .bandwidthCap: ["bytesPerSecond"]
        case .fragment: ["frameBytes"]
        case .truncateJSON: ["keepFraction"]
        case .unknownEvent: ["eventType", "template"]
        case .duplicate: ["copies"]
        case .reorder: ["window", "holdMs"]
        case .delay: ["ms"]
        case .injectError: ["error"]
        case .sessionExpiry: ["afterMs"]
        }
    }

    /// The kind with its parameters, and the parameter names the kind accepts.
    private static func parseKind(_ name: KindName, _ reader: FieldReader) throws(ScenarioError) -> (Kind, [String]) {
        let day = 0...86_400_000.0
        switch name {
        case .close:
            let code = Int(try reader.int("code", in: 1000...4999) ?? 1000)
            return (.close(code: code, reason: try reader.string("reason") ?? ""), ["code", "reason"])
        case .abruptClose:
            return (.abruptClose, [])
        case .stall:
            let direction = try reader.enumeration("direction", as: StallDirection.self) ?? .write
            let forever = try reader.bool("forever") ?? false
            let ms = try reader.double("ms", in: day)
            guard forever || ms != nil else {
                throw reader.context.error(reader.tokens, "stall needs \"ms\" or \"forever\": true")
            }
            return (.stall(direction, ms: forever ? nil : ms), ["direction", "ms", "forever"])
        case .slowClose:
            return (.slowClose(ms: try reader.double("ms", in: day) ?? 5000), ["ms"])
        case .bandwidthCap:
            guard let rate = try reader.int("bytesPerSecond", in: 1...1_000_000_000) else {
                throw reader.context.error(reader.tokens, "missing required key \"bytesPerSecond\"")
            }
            return (.bandwidthCap(bytesPerSecond: Int(rate)), ["bytesPerSecond"])
        case .fragment:
            return (.fragment(frameBytes: Int(try reader.int("frameBytes", in: 1...16_777_216) ?? 16)), ["frameBytes"])
        case .truncateJSON:
            return (
                .truncateJSON(keepFraction: try reader.double("keepFraction", in: 0...0.99) ?? 0.5), ["keepFraction"]
            )
        case .malformedJSON:
            return (.malformedJSON, [])
        case .unknownEvent:
            var template: JSONValue?
            if let object = try reader.object("template") { template = .object(object.object) }
            let eventType = try reader.string("eventType") ?? "mock.unknown_event"
            return (.unknownEvent(eventType: eventType, template: template), ["eventType", "template"])
        case .duplicate:
            return (.duplicate(copies: Int(try reader.int("copies", in: 1...100) ?? 1)), ["copies"])
        case .drop:
            return (.drop, [])
        case .reorder:
            let window = Int(try reader.int("window", in: 2...1000) ?? 3)
            return (
                .reorder(window: window, holdMs: try reader.double("holdMs", in: 1...60_000) ?? 1000),
                ["window", "holdMs"]
            )
        case .delay:
            guard let ms = try reader.double("ms", in: day) else {
                throw reader.context.error(reader.tokens, "missing required key \"ms\"")
            }
            return (.delay(ms: ms), ["ms"])
        case .injectError:
            let error = try ErrorSpec.parse(
                try reader.required("error"), at: reader.path("error"), context: reader.context)
            return (.injectError(error), ["error"])
        case .sessionExpiry:
            guard let ms = try reader.double("afterMs", in: 1...day.upperBound) else {
                throw reader.context.error(reader.tokens, "missing required key \"afterMs\"")
            }
            return (.sessionExpiry(afterMs: ms), ["afterMs"])
        }
    }
}
