import ScenarioEngine

/// The function calls of a session and what hangs on them (C13, S15): the calls waiting for
/// their `function_call_output`, the scripted answer to give once the outputs are in, and the
/// one call per session that policy `callDeclaredTools` makes unscripted, whose answer reports
/// the tool's output.
struct ToolCallLedger: Sendable {
    /// A call the engine made: its `call_id` and tool name.
    struct Call: Equatable, Sendable {
        var callID: String
        var name: String
    }

    /// Calls waiting for their output: `call_id` → tool name.
    private var awaited: [String: String] = [:]
    /// The answer to speak once the outputs are in and the client asks.
    private var answerAfterCalls: TurnContent?
    /// Whether this session already made its `callDeclaredTools` call.
    private(set) var madeDeclaredCall = false
    /// That call while its answer waits.
    private var declaredCallAwaiting: Call?

    /// Whether any call still waits for its output.
    var isAwaitingOutput: Bool { !awaited.isEmpty }

    /// A response plans `calls`; `answer` is spoken after their outputs. `declared` is the
    /// unscripted `callDeclaredTools` call among them, if any.
    mutating func planned(answer: TurnContent, declared: Call?) {
        answerAfterCalls = answer
        if let declared { declaredCallAwaiting = declared }
    }

    /// The policy chose a tool to call: it makes no other unscripted call in this session.
    mutating func declaredCallChosen() { madeDeclaredCall = true }

    /// A call's arguments are complete: it waits for its output.
    mutating func callSent(_ call: Call) { awaited[call.callID] = call.name }

    /// Whether a call with this id waits for its output.
    func awaits(_ callID: String) -> Bool { awaited[callID] != nil }

    /// The output for `callID` arrived; false when none was awaited (a second output).
    mutating func outputArrived(_ callID: String) -> Bool {
        awaited.removeValue(forKey: callID) != nil
    }

    /// `response.create` came before every output: the calls are no longer awaited. Returns
    /// their ids, sorted (C13).
    mutating func abandonAwaited() -> [String] {
        defer { awaited = [:] }
        return awaited.keys.sorted()
    }

    /// The answer that follows the outputs, taken for the response that gives it, with the
    /// declared call whose output it reports.
    mutating func takeAnswer() -> (answer: TurnContent, reporting: Call?)? {
        guard let answer = answerAfterCalls else { return nil }
        defer { (answerAfterCalls, declaredCallAwaiting) = (nil, nil) }
        return (answer, declaredCallAwaiting)
    }

    /// A response ended: when no call waits any more, nothing hangs on them.
    mutating func responseEnded() {
        if awaited.isEmpty { (answerAfterCalls, declaredCallAwaiting) = (nil, nil) }
    }
}
