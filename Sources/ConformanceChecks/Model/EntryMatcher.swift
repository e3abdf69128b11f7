import ProtocolModel
package import WireJSON

/// Selects journal entries in case files:
/// `{"client": TYPE}`, `{"server": TYPE}` (`"binary"` = binary frames, `"*"` = any frame),
/// `{"state": NAME}`, `{"close": "client"|"server"|"*"}`, `{"violation": ID}`, `{"fault": KIND|"*"}`,
/// optionally narrowed by `"pointer"` plus a ``ValueCondition`` (`equals`, `oneOf`, …) and by
/// `"occurrence": N` (only the N-th such entry of the session, 1-based: the second
/// `speech_started` is the barge-in, whatever ids the server gave).
package struct EntryMatcher: Sendable, Hashable, CustomStringConvertible {
    /// What kind of entry is selected.
    package enum Selector: Sendable, Hashable {
        case client(String)
        case server(String)
        case state(String)
        case close(String)
        case violation(String)
        case fault(String)
    }

    /// The selector.
    package var selector: Selector
    /// Optional pointer into the frame's JSON.
    package var pointer: JSONPointer?
    /// The condition on the pointed-at value.
    package var condition: ValueCondition?
    /// Only the N-th matching entry of the journal (1-based), if set.
    package var occurrence: Int?

    private static let selectorNames = ["client", "server", "state", "close", "violation", "fault"]

    /// Decodes a matcher object.
    /// - Throws: ``CheckParameterError`` for a missing selector or a bad member.
    package init(_ value: JSONValue) throws(CheckParameterError) {
        guard let object = value.objectValue else { throw CheckParameterError([], "a matcher must be an object") }
        let present = Self.selectorNames.filter { object[$0] != nil }
        guard present.count == 1, let key = present.first, let name = object[key]?.stringValue else {
            throw CheckParameterError(
                [], "a matcher needs exactly one of \(Self.selectorNames.joined(separator: ", ")) with a string value")
        }
        for member in object.keys
        where member != key && member != "pointer" && member != "occurrence" && !ValueCondition.names.contains(member) {
            throw CheckParameterError([member], "unknown matcher member \"\(member)\"")
        }
        switch key {
        case "client": selector = .client(name)
        case "server": selector = .server(name)
        case "state": selector = .state(name)
        case "close": selector = .close(name)
        case "violation": selector = .violation(name)
        default: selector = .fault(name)
        }
        let parameters = CheckParameters(object)
        occurrence = try parameters.int("occurrence", in: 1...1_000_000)
        pointer = try parameters.pointer("pointer")
        let condition = try ValueCondition(parameters)
        self.condition = condition.isEmpty && pointer == nil ? nil : condition
    }

    /// Convenience for code: a client message of `type`.
    package static func client(_ type: String) -> EntryMatcher {
        // Cannot fail: the literal is well formed.
        guard let matcher = try? EntryMatcher(.object(["client": .string(type)])) else { preconditionFailure() }
        return matcher
    }

    /// Whether the entry at `index` is selected.
    package func matches(_ index: Int, in transcript: Transcript) -> Bool {
        let entry = transcript.journal[index]
        switch selector {
        case .client(let type): guard frame(entry, index, .in, type, transcript) else { return false }
        case .server(let type): guard frame(entry, index, .out, type, transcript) else { return false }
        case .state(let name): guard entry.kind == .state, name == "*" || entry.state == name else { return false }
        case .close(let who):
            guard entry.kind == .close else { return false }
            if who == "client", entry.direction != .in { return false }
            if who == "server", entry.direction != .out { return false }
        case .violation(let id):
            guard entry.kind == .violation, id == "*" || entry.violation?.obligation == id else { return false }
        case .fault(let kind):
            guard entry.kind == .fault, kind == "*" || entry.fault?.kind == kind else { return false }
        }
        guard let pointer else { return true }
        let value = entry.json.flatMap { pointer.resolve(in: $0) }
        return (condition ?? ValueCondition.existsOnly).failure(for: value) == nil
    }

    private func frame(
        _ entry: JournalEntry, _ index: Int, _ direction: JournalEntry.Direction, _ type: String,
        _ transcript: Transcript
    ) -> Bool {
        guard entry.isFrame(direction) else { return false }
        switch type {
        case "*": return true
        case "binary": return entry.kind == .binary
        default: return transcript.messageType(at: index) == type
        }
    }

    /// All selected indices in order.
    package func indices(in transcript: Transcript, from start: Int = 0, to end: Int? = nil) -> [Int] {
        let upper = min(end ?? transcript.journal.count, transcript.journal.count)
        guard start < upper else { return [] }
        if occurrence != nil {
            return nth(in: transcript).map { (max(start, 0)..<upper).contains($0) ? [$0] : [] } ?? []
        }
        return (max(start, 0)..<upper).filter { matches($0, in: transcript) }
    }

    /// The first selected index at or after `start`.
    package func first(in transcript: Transcript, from start: Int = 0) -> Int? {
        guard start < transcript.journal.count else { return nil }
        if occurrence != nil { return nth(in: transcript).flatMap { $0 >= start ? $0 : nil } }
        return (max(start, 0)..<transcript.journal.count).first { matches($0, in: transcript) }
    }

    /// The `occurrence`-th matching entry of the whole journal.
    private func nth(in transcript: Transcript) -> Int? {
        guard let occurrence else { return nil }
        var seen = 0
        for index in transcript.journal.indices where matches(index, in: transcript) {
            seen += 1
            if seen == occurrence { return index }
        }
        return nil
    }

    package var description: String {
        let base: String
        switch selector {
        case .client(let type): base = "client \(type)"
        case .server(let type): base = "server \(type)"
        case .state(let name): base = "state \(name)"
        case .close(let who): base = "close by \(who)"
        case .violation(let id): base = "violation \(id)"
        case .fault(let kind): base = "fault \(kind)"
        }
        let nth = occurrence.map { " #\($0)" } ?? ""
        guard let pointer else { return base + nth }
        return base + nth + " with \(pointer)" + (condition?.summary.map { " \($0)" } ?? "")
    }
}

extension ValueCondition {
    /// A condition that only requires the value to exist.
    static let existsOnly: ValueCondition = {
        guard let condition = try? ValueCondition(CheckParameters(["exists": .bool(true)])) else {
            preconditionFailure()
        }
        return condition
    }()

    /// A short text for messages (`= "Listening"`, `∈ [...]`).
    var summary: String? {
        if let equals { return "= \(Self.short(equals))" }
        if let oneOf { return "∈ [\(oneOf.map(Self.short).joined(separator: ", "))]" }
        if let notEquals { return "≠ \(Self.short(notEquals))" }
        return nil
    }
}
