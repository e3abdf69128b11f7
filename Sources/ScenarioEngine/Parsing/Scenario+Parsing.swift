package import WireJSON

extension Scenario {
    /// The top-level members of a scenario file.
    static let topLevelKeys = [
        "$schema", "name", "description", "seed", "timeScale", "variables", "policies", "turns", "timing",
        "triggers", "faults", "replay",
    ]

    /// Builds a scenario from a parsed scenario file, checking every member.
    ///
    /// - Parameters:
    ///   - value: The parsed document.
    ///   - file: The name to print in errors (usually the path as the user gave it).
    ///   - locate: Finds the line and column of a pointer in the source; `nil` prints errors
    ///     without a location.
    /// - Throws: ``ScenarioError`` for the first problem found: wrong type, value out of range,
    ///   unknown member (with a did-you-mean), missing member, dangling reference.
    package static func parse(
        _ value: JSONValue, file: String, locate: ScenarioSourceLocator? = nil
    ) throws(ScenarioError) -> Scenario {
        let context = ScenarioDecodingContext(file: file, locate: locate)
        let reader = try context.object(value, at: [])
        try reader.rejectUnknownKeys(allowing: topLevelKeys)
        var scenario = Scenario()
        scenario.name = try reader.string("name") ?? Self.baseName(of: file)
        scenario.description = try reader.string("description") ?? ""
        scenario.seed = UInt64(try reader.int("seed", in: 0...Int64.max) ?? 0)
        scenario.timeScale = try reader.double("timeScale", in: 0.000_001...1000) ?? 1
        scenario.variables = try reader.stringDictionary("variables") ?? [:]
        if let policies = reader.value("policies") {
            scenario.policies = try SessionPolicies.parse(policies, at: ["policies"], context: context)
        }
        if let turns = reader.value("turns") {
            scenario.turns = try TurnScript.parse(turns, at: ["turns"], context: context)
        }
        if let timing = reader.value("timing") {
            scenario.timing = try TimingModel.parse(timing, at: ["timing"], context: context)
        }
        for (index, element) in (try reader.array("faults") ?? []).enumerated() {
            scenario.faults.append(try FaultSpec.parse(element, at: ["faults", String(index)], context: context))
        }
        for (index, element) in (try reader.array("triggers") ?? []).enumerated() {
            scenario.triggers.append(try Trigger.parse(element, at: ["triggers", String(index)], context: context))
        }
        if let replay = reader.value("replay") {
            try parseReplay(replay, into: &scenario, context: context)
            // Only the recording ends a replayed session, unless the file sets policies.
            if !reader.has("policies") { scenario.policies = replayPolicies }
        }
        try checkReferences(scenario, context: context)
        return scenario
    }

    /// Checks that ids are unique and that `arm`, `disarm` and `from` name existing ids.
    private static func checkReferences(_ scenario: Scenario, context: ScenarioDecodingContext) throws(ScenarioError) {
        var faultIds: Set<String> = []
        for (index, fault) in scenario.faults.enumerated() {
            guard let id = fault.id else { continue }
            guard faultIds.insert(id).inserted else {
                throw context.error(["faults", String(index), "id"], "duplicate fault id \"\(id)\"")
            }
        }
        var triggerIds: Set<String> = []
        for (index, trigger) in scenario.triggers.enumerated() {
            guard let id = trigger.id else { continue }
            guard triggerIds.insert(id).inserted else {
                throw context.error(["triggers", String(index), "id"], "duplicate trigger id \"\(id)\"")
            }
        }
        for (index, trigger) in scenario.triggers.enumerated() {
            let base = ["triggers", String(index)]
            if case .afterTime(_, let from?) = trigger.condition, !triggerIds.contains(from) {
                throw context.error(base + ["when", "from"], unknownReference("trigger", from, Array(triggerIds)))
            }
            for (actionIndex, action) in trigger.actions.enumerated() {
                let tokens = base + ["actions", String(actionIndex)]
                switch action {
                case .arm(let id) where !faultIds.contains(id):
                    throw context.error(tokens + ["arm"], unknownReference("fault", id, Array(faultIds)))
                case .disarm(let id) where !faultIds.contains(id):
                    throw context.error(tokens + ["disarm"], unknownReference("fault", id, Array(faultIds)))
                default:
                    continue
                }
            }
        }
    }

    private static func unknownReference(_ what: String, _ id: String, _ known: [String]) -> String {
        var text = "no \(what) has id \"\(id)\""
        if let suggestion = DidYouMean.suggestion(for: id, among: known.sorted()) {
            text += "; did you mean \"\(suggestion)\"?"
        }
        return text
    }

    /// `default` for `path/to/default.json`.
    static func baseName(of file: String) -> String {
        let last = file.split(separator: "/").last.map(String.init) ?? file
        if let dot = last.lastIndex(of: "."), dot != last.startIndex { return String(last[..<dot]) }
        return last
    }
}
