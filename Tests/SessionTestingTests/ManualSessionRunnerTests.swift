import ScenarioEngine
import SessionCore
import SessionTesting
import Testing
import WireJSON

/// The runner every engine test and fuzz target drives sessions through.
@Suite("ManualSessionRunner")
struct ManualSessionRunnerTests {
    static func runner(_ text: String) throws -> ManualSessionRunner<ScriptOnlySession> {
        let clock = ManualClock()
        return ManualSessionRunner(
            session: ScriptOnlySession(try Scenario.load(text: text, file: "t.json"), clock: clock), clock: clock)
    }

    @Test func timersFireInTimeOrderWithTheClockAtTheirDueTime() throws {
        let runner = try Self.runner(
            #"""
            {"triggers": [{"when": {"afterMs": 300}, "actions": [{"send": {"type": "third"}}]},
                          {"when": {"afterMs": 100}, "actions": [{"send": {"type": "first"}}]},
                          {"when": {"afterMs": 200}, "actions": [{"send": {"type": "second"}}]}]}
            """#)
        #expect(runner.timers.count == 3)
        runner.advance(ms: 250)
        #expect(runner.sent.map(\.eventType) == ["first", "second"])
        #expect(runner.sent.map(\.sendAtMicros) == [100_000, 200_000])
        #expect(runner.nowMicros == 250_000)
        runner.advance(toMicros: 1_000_000)
        #expect(runner.sent.map(\.eventType) == ["first", "second", "third"])
        #expect(runner.timers.isEmpty)
    }

    @Test func closesAndTransportActionsAreRecorded() throws {
        let runner = try Self.runner(
            #"{"triggers": [{"when": {"message": "bye"}, "actions": [{"fault": {"kind": "stall", "direction": "write", "ms": 50}}, {"endSession": "done"}]}]}"#
        )
        runner.receive(text: Array(#"{"type":"bye"}"#.utf8))
        #expect(runner.transports.map(\.action).first == .stall(.write, durationMicros: 50_000))
        #expect(runner.closes.map(\.code) == [1000])
        #expect(runner.session.ends == [.trigger(reason: "done")])
    }
}
