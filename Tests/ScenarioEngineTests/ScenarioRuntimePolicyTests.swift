import Testing
import WireJSON

@testable import ScenarioEngine

@Suite struct ScenarioRuntimePolicyTests {
    static let booleanPolicies: [(key: String, value: any KeyPath<SessionPolicies, Bool> & Sendable)] = [
        ("duplexAudioGapInEveryState", \.duplexAudioGapInEveryState), ("callDeclaredTools", \.callDeclaredTools),
        ("roundTimestamps", \.roundTimestamps),
    ]

    @Test(
        "a boolean policy parses, is off when absent, and names the field when it is not a boolean",
        arguments: booleanPolicies)
    func booleanPolicyParsing(key: String, value: any KeyPath<SessionPolicies, Bool> & Sendable) throws {
        let on = try Scenario.load(bytes: Array(#"{"policies": {"\#(key)": true}}"#.utf8), file: "on.json")
        #expect(on.policies[keyPath: value])
        #expect(try !Scenario.load(bytes: Array(#"{}"#.utf8), file: "off.json").policies[keyPath: value])
        #expect {
            _ = try Scenario.load(bytes: Array(#"{"policies": {"\#(key)": "yes"}}"#.utf8), file: "bad.json")
        } throws: { error in
            "\(error)".contains("bad.json") && "\(error)".contains(key)
        }
    }

    @Test func omittedTurnDetectionIsPushToTalkIsOnUnlessTheScenarioTurnsItOff() throws {
        // On by default: the Qwen-Audio nuisdk seed (SEED-003) makes an omitted turn_detection push-to-talk.
        #expect(try Scenario.load(bytes: Array("{}".utf8), file: "d.json").policies.omittedTurnDetectionIsPushToTalk)
        let off = try Scenario.load(
            bytes: Array(#"{"policies": {"omittedTurnDetectionIsPushToTalk": false}}"#.utf8), file: "off.json")
        #expect(!off.policies.omittedTurnDetectionIsPushToTalk)
        #expect {
            _ = try Scenario.load(
                bytes: Array(#"{"policies": {"omittedTurnDetectionIsPushToTalk": 1}}"#.utf8), file: "bad.json")
        } throws: { error in
            "\(error)".contains("bad.json") && "\(error)".contains("omittedTurnDetectionIsPushToTalk")
        }
    }

    @Test func voicesParseWithDefaultsNullAndErrorsNamingTheEntry() throws {
        // Issue 40 row 2: no list by default, so any voice passes.
        let plain = try Scenario.load(bytes: Array("{}".utf8), file: "d.json").policies
        #expect(plain.voices == nil && plain.acceptsVoice("longanyang") && plain.acceptsVoice("Cherry"))
        let listed = try Scenario.load(bytes: Array(#"{"policies": {"voices": ["a_v2", "b"]}}"#.utf8), file: "l.json")
        #expect(listed.policies.voices == ["a_v2", "b"])
        #expect(
            listed.policies.acceptsVoice("b") && listed.policies.acceptsVoice("") && !listed.policies.acceptsVoice("c"))
        let open = try Scenario.load(bytes: Array(#"{"policies": {"voices": null}}"#.utf8), file: "n.json")
        #expect(open.policies.voices == nil && open.policies.acceptsVoice("anything"))
        #expect {
            _ = try Scenario.load(bytes: Array(#"{"policies": {"voices": ["ok", 3]}}"#.utf8), file: "bad.json")
        } throws: { error in
            "\(error)".contains("bad.json") && "\(error)".contains("policies.voices[1]")
        }
    }

    @Test func turnLanguageAndEmotionParseAndAreChecked() throws {
        let scenario = try Scenario.load(
            bytes: Array(#"{"turns": [{"transcript": "hi", "language": "en", "emotion": "happy"}]}"#.utf8),
            file: "t.json")
        let turn = scenario.turn(at: 0, variables: [:])
        #expect(turn.language == "en" && turn.emotion == "happy")
        #expect {
            _ = try Scenario.load(bytes: Array(#"{"turns": [{"language": "en gb"}]}"#.utf8), file: "bad.json")
        } throws: { error in
            "\(error)".contains("bad.json") && "\(error)".contains("language")
        }
    }

    @Test func timeScaleShrinksProtocolTimeouts() {
        let scenario = Scenario(timeScale: 0.01, policies: SessionPolicies(sessionCapMs: 7_200_000))
        var runtime = ScenarioRuntime(scenario: scenario, clock: ManualClock())
        #expect(
            runtime.start() == [
                .scheduleTimer(.serverSilence, atMicros: 600_000),
                .scheduleTimer(.sessionCap, atMicros: 72_000_000),
            ])
        #expect(runtime.watchAudioGap(true) == [.scheduleTimer(.audioGap, atMicros: 200_000)])
    }

    /// A protocol without the multimodal rules (Qwen) watches only its own policies: neither
    /// timer is scheduled, and a stray one does nothing.
    @Test func unwatchedPoliciesScheduleNothing() {
        let scenario = Scenario(timeScale: 0.01, policies: SessionPolicies(idleEndMs: 1_000, sessionCapMs: 7_200_000))
        var runtime = ScenarioRuntime(scenario: scenario, clock: ManualClock())
        runtime.policyWatches = [.idleEnd, .sessionCap]
        #expect(
            runtime.start() == [
                .scheduleTimer(.idleEnd, atMicros: 10_000),
                .scheduleTimer(.sessionCap, atMicros: 72_000_000),
            ])
        #expect(runtime.watchAudioGap(true) == [])
        #expect(runtime.timerFired(.serverSilence) == [])
        #expect(runtime.timerFired(.audioGap) == [])
    }

    @Test func serverSilenceReschedulesAfterOutputAndThenEnds() {
        let clock = ManualClock()
        let scenario = Scenario(timeScale: 0.01, policies: SessionPolicies(audioGapTimeoutMs: nil, sessionCapMs: nil))
        var runtime = ScenarioRuntime(scenario: scenario, clock: clock)
        _ = runtime.start()
        clock.advance(byMilliseconds: 400)
        _ = runtime.outbound(
            OutboundFrame(eventType: "HeartBeat", isText: true, bytes: [], dueAtMicros: clock.nowMicros))
        clock.advance(byMilliseconds: 200)
        #expect(runtime.timerFired(.serverSilence) == [.scheduleTimer(.serverSilence, atMicros: 1_000_000)])
        clock.set(toMicros: 1_000_000)
        #expect(runtime.timerFired(.serverSilence) == [.endSession(.serverSilence)])
        #expect(runtime.hasEnded)
    }

    @Test func audioGapOnlyWhileWatched() {
        let clock = ManualClock()
        let scenario = Scenario(
            timeScale: 0.01, policies: SessionPolicies(serverSilenceTimeoutMs: nil, sessionCapMs: nil))
        var runtime = ScenarioRuntime(scenario: scenario, clock: clock)
        _ = runtime.start()
        _ = runtime.watchAudioGap(true)
        clock.advance(byMilliseconds: 150)
        _ = runtime.clientAudio(byteCount: 3200, durationMicros: 100_000)
        clock.advance(byMilliseconds: 50)
        #expect(runtime.timerFired(.audioGap) == [.scheduleTimer(.audioGap, atMicros: 350_000)])
        _ = runtime.watchAudioGap(false)
        clock.advance(byMilliseconds: 500)
        #expect(runtime.timerFired(.audioGap).isEmpty)
        _ = runtime.watchAudioGap(true)
        clock.advance(byMilliseconds: 200)
        #expect(runtime.timerFired(.audioGap) == [.endSession(.audioGap)])
    }

    /// SEED-004 "Configuration": "Idle duration before the session ends automatically" counts
    /// time without user input: client frames (a HeartBeat, streamed audio) do not restart it,
    /// user input does, and a held clock (a turn or an answer under way) does not run out.
    @Test func idleEndCountsUserInputOnlyAndHolds() {
        let clock = ManualClock()
        let policies = SessionPolicies(
            idleEndMs: 15_000, serverSilenceTimeoutMs: nil, audioGapTimeoutMs: nil, sessionCapMs: nil)
        var runtime = ScenarioRuntime(scenario: Scenario(timeScale: 0.1, policies: policies), clock: clock)
        #expect(runtime.start() == [.scheduleTimer(.idleEnd, atMicros: 1_500_000)])
        clock.advance(byMilliseconds: 1000)
        _ = runtime.clientMessage(type: "HeartBeat", json: nil)
        _ = runtime.clientAudio(byteCount: 3200, durationMicros: 100_000)
        #expect(runtime.userInput() == [.scheduleTimer(.idleEnd, atMicros: 2_500_000)])
        #expect(runtime.holdIdleEnd(true).isEmpty)
        clock.advance(byMilliseconds: 5000)
        #expect(runtime.timerFired(.idleEnd).isEmpty)
        // Released with the client's playback ending later than now: the clock restarts there.
        #expect(runtime.holdIdleEnd(false, restartAt: 6_500_000) == [.scheduleTimer(.idleEnd, atMicros: 8_000_000)])
        clock.set(toMicros: 7_000_000)
        #expect(runtime.timerFired(.idleEnd) == [.scheduleTimer(.idleEnd, atMicros: 8_000_000)])
        clock.set(toMicros: 8_000_000)
        #expect(runtime.timerFired(.idleEnd) == [.endSession(.idle)])
    }

    /// The end-of-turn silence (SEED-004 "Maximum permitted speech pause before the AI
    /// responds") is audio time, not scaled; the old key's value means the same.
    @Test func endOfTurnSilenceAndInterruptibleComeFromPolicies() throws {
        let policies = SessionPolicies(endOfTurnSilenceMs: 800, interruptible: false)
        let runtime = ScenarioRuntime(scenario: Scenario(timeScale: 0.5, policies: policies), clock: ManualClock())
        #expect(runtime.endOfTurnSilenceMs == 800)
        #expect(!runtime.isInterruptible)
        let old = try Scenario.load(text: #"{"policies": {"responsePauseMs": 600}}"#, file: "old.json")
        #expect(old.policies.endOfTurnSilenceMs == 600)
        #expect(
            try Scenario.load(text: #"{"policies": {"responsePauseMs": 0}}"#, file: "z.json").policies
                == SessionPolicies())
        #expect(throws: ScenarioError.self) {
            _ = try Scenario.load(
                text: #"{"policies": {"responsePauseMs": 600, "endOfTurnSilenceMs": 600}}"#, file: "both.json")
        }
    }

    /// The final report: once, only with `sessionReport`, with the first end reason.
    @Test func finalReportOnceWithFirstEndReason() {
        let clock = ManualClock()
        var plain = ScenarioRuntime(scenario: Scenario(policies: SessionPolicies()), clock: clock)
        _ = plain.start()
        #expect(plain.finalReport(endReason: "clientClosed") == nil)
        var runtime = ScenarioRuntime(
            scenario: Scenario(name: "aibuds", policies: SessionPolicies(idleEndMs: 1_000, sessionReport: true)),
            clock: clock)
        _ = runtime.start()
        runtime.report.turns = 2
        clock.advance(byMilliseconds: 1000)
        #expect(runtime.timerFired(.idleEnd) == [.endSession(.idle)])
        let report = runtime.finalReport(endReason: "serverError")
        #expect(report?["endReason"] == "idle")
        #expect(report?["turns"] == 2)
        #expect(report?["durationMs"] == 1000)
        #expect(report?["profile"] == "aibuds")
        #expect(runtime.finalReport(endReason: "serverError") == nil)
    }

    @Test func sessionExpiryFaultEndsSessionAfterScaledDelay() {
        let clock = ManualClock()
        let fault = FaultSpec(kind: .sessionExpiry(afterMs: 7_200_000))
        let scenario = Scenario(
            timeScale: 0.001,
            policies: SessionPolicies(serverSilenceTimeoutMs: nil, audioGapTimeoutMs: nil, sessionCapMs: nil),
            faults: [fault])
        var runtime = ScenarioRuntime(scenario: scenario, clock: clock)
        let start = runtime.start()
        #expect(start.contains(.scheduleTimer(.sessionExpiry(1), atMicros: 7_200_000)))
        clock.advance(byMilliseconds: 7200)
        #expect(runtime.timerFired(.sessionExpiry(1)) == [.endSession(.sessionExpiry)])
    }

    @Test func endingFlushesHeldFramesFirst() {
        let clock = ManualClock()
        let fault = FaultSpec(kind: .reorder(window: 3, holdMs: 10_000))
        let scenario = Scenario(
            timeScale: 0.01, policies: SessionPolicies(audioGapTimeoutMs: nil, sessionCapMs: nil), faults: [fault])
        var runtime = ScenarioRuntime(scenario: scenario, clock: clock)
        _ = runtime.start()
        #expect(
            runtime.outbound(OutboundFrame(eventType: "a", isText: true, bytes: [1], dueAtMicros: 0)).frames.isEmpty)
        #expect(runtime.faultStageTimer == .scheduleTimer(.faultStage, atMicros: 10_000_000))
        clock.advance(byMilliseconds: 600)
        let actions = runtime.timerFired(.serverSilence)
        #expect(
            actions.first
                == .emit(.frame(ScheduledFrame(eventType: "a", isText: true, bytes: [1], sendAtMicros: 600_000))))
        #expect(actions.last == .endSession(.serverSilence))
    }
}

/// Issue 42: `duplexInterjectMs` (Qwen-Audio-Live duplex) is 3 s by default, a duration like the
/// others: `0` or `null` turns it off.
@Suite struct DuplexInterjectPolicyTests {
    @Test func itParsesWithItsDefaultAndTurnsOff() throws {
        #expect(try Scenario.load(bytes: Array("{}".utf8), file: "d.json").policies.duplexInterjectMs == 3_000)
        let set = try Scenario.load(bytes: Array(#"{"policies": {"duplexInterjectMs": 1500}}"#.utf8), file: "s.json")
        #expect(set.policies.duplexInterjectMs == 1_500)
        for off in ["0", "null"] {
            let scenario = try Scenario.load(
                bytes: Array(#"{"policies": {"duplexInterjectMs": \#(off)}}"#.utf8), file: "off.json")
            #expect(scenario.policies.duplexInterjectMs == nil)
        }
        #expect {
            _ = try Scenario.load(bytes: Array(#"{"policies": {"duplexInterjectMs": "3s"}}"#.utf8), file: "bad.json")
        } throws: { error in
            "\(error)".contains("duplexInterjectMs")
        }
    }
}
