import ProtocolModel
import Testing
import WireJSON

@testable import ScenarioEngine

@Suite struct ScenarioRuntimeTriggerTests {
    /// A scenario with no policy timers, so actions contain only what the test is about.
    func scenario(triggers: [Trigger], faults: [FaultSpec] = [], timeScale: Double = 1) -> Scenario {
        Scenario(
            timeScale: timeScale,
            policies: SessionPolicies(serverSilenceTimeoutMs: nil, audioGapTimeoutMs: nil, sessionCapMs: nil),
            triggers: triggers, faults: faults)
    }

    func sends(_ actions: [ScenarioAction]) -> [JSONValue] {
        actions.compactMap { if case .send(.json(let value), _) = $0 { value } else { nil } }
    }

    let ping: Trigger.Action = .send(frame: ["type": "ping"], delayMs: 0)

    @Test func messageTriggerMatchesTypeAndPointer() {
        let match = EventMatcher(pointer: ["payload", "input", "type"], equals: "prompt")
        let trigger = Trigger(
            condition: .message(type: "RequestToRespond", match: match), limit: .every, actions: [ping])
        let clock = ManualClock()
        var runtime = ScenarioRuntime(scenario: scenario(triggers: [trigger]), clock: clock)
        _ = runtime.start()
        #expect(sends(runtime.clientMessage(type: "HeartBeat", json: nil)).isEmpty)
        let transcript: JSONValue = ["payload": ["input": ["type": "transcript"]]]
        #expect(sends(runtime.clientMessage(type: "RequestToRespond", json: transcript)).isEmpty)
        let prompt: JSONValue = ["payload": ["input": ["type": "prompt"]]]
        #expect(sends(runtime.clientMessage(type: "RequestToRespond", json: prompt)) == [["type": "ping"]])
    }

    @Test func timeTriggersChainAndScale() {
        let first = Trigger(id: "first", condition: .afterTime(ms: 1000, from: nil), actions: [ping])
        let second = Trigger(
            id: "second", condition: .afterTime(ms: 500, from: "first"), actions: [.endSession(reason: "done")])
        let clock = ManualClock()
        var runtime = ScenarioRuntime(scenario: scenario(triggers: [first, second], timeScale: 0.1), clock: clock)
        #expect(runtime.start() == [.scheduleTimer(.trigger(0), atMicros: 100_000)])
        clock.advance(byMicros: 100_000)
        let fired = runtime.timerFired(.trigger(0))
        #expect(sends(fired).count == 1)
        #expect(fired.contains(.scheduleTimer(.trigger(1), atMicros: 150_000)))
        clock.advance(byMicros: 50_000)
        #expect(runtime.timerFired(.trigger(1)).last == .endSession(.trigger(reason: "done")))
        #expect(runtime.hasEnded)
    }

    @Test func repeatingTimeTriggerReschedulesUntilLimit() {
        let trigger = Trigger(condition: .afterTime(ms: 10, from: nil), limit: .count(2), actions: [ping])
        let clock = ManualClock()
        var runtime = ScenarioRuntime(scenario: scenario(triggers: [trigger]), clock: clock)
        _ = runtime.start()
        clock.advance(byMilliseconds: 10)
        #expect(runtime.timerFired(.trigger(0)).contains(.scheduleTimer(.trigger(0), atMicros: 20_000)))
        clock.advance(byMilliseconds: 10)
        let last = runtime.timerFired(.trigger(0))
        #expect(sends(last).count == 1)
        #expect(!last.contains { if case .scheduleTimer = $0 { true } else { false } })
    }

    @Test func audioFrameAndDurationTriggers() {
        let frames = Trigger(condition: .audioFrames(count: 3), limit: .every, actions: [ping])
        let duration = Trigger(condition: .audioMs(ms: 250), actions: [.send(frame: ["type": "ms"], delayMs: 0)])
        var runtime = ScenarioRuntime(scenario: scenario(triggers: [frames, duration]), clock: ManualClock())
        _ = runtime.start()
        var sent: [JSONValue] = []
        for _ in 0..<6 {
            sent += sends(runtime.clientAudio(byteCount: 3200, durationMicros: 100_000))
        }
        #expect(sent == [["type": "ping"], ["type": "ms"], ["type": "ping"]])
    }

    @Test func stateTriggerArmsFaultById() {
        let fault = FaultSpec(
            id: "late-drop", kind: .drop, match: EventMatcher(eventTypes: ["RespondingEnded"]), armed: false)
        let trigger = Trigger(condition: .stateEntered("Responding"), actions: [.arm(faultId: "late-drop")])
        var runtime = ScenarioRuntime(scenario: scenario(triggers: [trigger], faults: [fault]), clock: ManualClock())
        _ = runtime.start()
        let ended = OutboundFrame(eventType: "RespondingEnded", isText: true, bytes: [0x7B, 0x7D], dueAtMicros: 0)
        #expect(runtime.outbound(ended).frames.count == 1)
        let actions = runtime.stateEntered("Responding")
        #expect(actions.contains { if case .note(let note) = $0 { note.detail == "late-drop armed" } else { false } })
        #expect(runtime.outbound(ended).frames.isEmpty)
    }

    @Test func probabilityTriggerIsSeededAndLimitCountsOnlyFirings() {
        let trigger = Trigger(
            condition: .message(type: "", match: nil), probability: 0.3, limit: .count(5), actions: [ping])
        func run() -> Int {
            var runtime = ScenarioRuntime(scenario: scenario(triggers: [trigger]), clock: ManualClock(), seed: 77)
            _ = runtime.start()
            return (0..<100).map { _ in sends(runtime.clientMessage(type: "x", json: nil)).count }.reduce(0, +)
        }
        #expect(run() == 5)
    }

    @Test func inlineFaultCloseEndsSession() {
        let trigger = Trigger(
            condition: .message(type: "Stop", match: nil),
            actions: [.fault(FaultSpec(kind: .close(code: 1000, reason: "x")))])
        var runtime = ScenarioRuntime(scenario: scenario(triggers: [trigger]), clock: ManualClock())
        _ = runtime.start()
        let actions = runtime.clientMessage(type: "Stop", json: nil)
        #expect(actions.contains(.emit(.transport(.close(code: 1000, reason: "x"), atMicros: 0))))
        #expect(runtime.hasEnded)
        #expect(runtime.clientMessage(type: "Stop", json: nil).isEmpty)
    }
}
