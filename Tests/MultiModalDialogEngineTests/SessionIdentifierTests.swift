import MultiModalDialogEngine
import ScenarioEngine
import Testing
import WireJSON

/// Issue 40 row 1: each session has its own ids, deterministic per (seed, session ordinal), and
/// the dialog memory is per dialog_id.
@Suite("Session ids are unique per session and reproducible")
struct SessionIdentifierTests {
    /// The dialog_id and the round's ids of one answered prompt in a session of `ordinal`.
    private func ids(ordinal: UInt64, memory: DialogMemory = DialogMemory()) throws -> [String] {
        let harness = SessionHarness(memory: memory, sessionOrdinal: ordinal)
        harness.start()
        harness.directive("RequestToRespond", input: ["type": "prompt", "text": "hello"])
        harness.advance(until: "RespondingEnded")
        let content = try #require(harness.outputs("RespondingContent").last)
        return [
            try #require(harness.dialogID), try #require(content["round_id"]?.stringValue),
            try #require(content["llm_request_id"]?.stringValue),
        ]
    }

    @Test func twoSessionsGetDifferentIdsAndTheSameOrdinalTheSameIds() throws {
        let first = try ids(ordinal: 0)
        let second = try ids(ordinal: 1)
        #expect(Set(first).isDisjoint(with: second), "\(first) \(second)")
        #expect(try ids(ordinal: 1) == second)
        #expect(try ids(ordinal: 0) == first)
    }

    /// Ordinal 0 keeps the ids sessions had before ordinals existed (recorded fixtures stay valid).
    @Test func ordinalZeroIsTheScenarioSeedsStream() {
        var plain = IDGenerator(seed: 42)
        var zero = IDGenerator(seed: 42, sessionOrdinal: 0)
        var one = IDGenerator(seed: 42, sessionOrdinal: 1)
        let reference = plain.uuid()
        #expect(zero.uuid() == reference)
        #expect(one.uuid() != reference)
    }

    /// The 8-digit runs of `id`'s hex digits (dashes left out).
    private func runs(_ id: String) -> Set<String> {
        let digits = Array(id.filter { $0 != "-" })
        var result: Set<String> = []
        for start in 0...(digits.count - 8) { result.insert(String(digits[start..<(start + 8)])) }
        return result
    }

    /// No id of a session shares an 8-digit run with an id of another kind in it.
    @Test func idsOfDifferentKindsShareNoDigits() throws {
        let values = try ids(ordinal: 3)
        for (index, value) in values.enumerated() {
            for other in values[(index + 1)...] {
                #expect(runs(value).isDisjoint(with: runs(other)), "\(value) \(other)")
            }
        }
    }

    /// S21 per dialog_id: resuming A continues A's conversation even after B's turns.
    @Test func resumingContinuesThatDialogOnly() throws {
        let memory = DialogMemory()
        let userA = SessionHarness(memory: memory, sessionOrdinal: 0)
        userA.start()
        let dialogA = try #require(userA.dialogID)
        userA.directive("RequestToRespond", input: ["type": "prompt", "text": "hello"])
        userA.advance(until: "RespondingEnded")
        userA.directive("Stop")
        let userB = SessionHarness(memory: memory, sessionOrdinal: 1)
        userB.start()
        let dialogB = try #require(userB.dialogID)
        #expect(dialogB != dialogA)
        for (count, text) in [(1, "one"), (2, "two")] {
            userB.directive("RequestToRespond", input: ["type": "prompt", "text": .string(text)])
            userB.advance(until: "RespondingEnded", count: count)
            userB.directive("LocalRespondingEnded")
        }
        userB.directive("Stop")
        let resumed = SessionHarness(memory: memory, sessionOrdinal: 2)
        resumed.start(dialogID: dialogA)
        resumed.directive("RequestToRespond", input: ["type": "prompt", "text": "thanks"])
        resumed.advance(until: "RespondingEnded")
        // A's second scripted turn, not the one after B's two turns.
        #expect(resumed.outputs("RespondingContent").last?["text"] == "You're welcome, friend.")
        #expect(memory.record(for: dialogA)?.history.map(\.user) == ["hello", "thanks"])
        #expect(memory.record(for: dialogB)?.history.map(\.user) == ["one", "two"])
    }
}
