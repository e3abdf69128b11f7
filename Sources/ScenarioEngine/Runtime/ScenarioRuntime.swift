package import WireJSON

/// The scenario engine of one session: a pure state machine over a clock and seeded
/// generators. The protocol engine feeds it what happens (client messages, audio, states,
/// timers) and gets back actions; it asks it what to say (``nextTurn()``) and when
/// (``delayMicros(before:)``, cadences); and it passes every outbound frame through
/// ``outbound(_:)``. Same scenario, seed and inputs give the same actions and ids.
package struct ScenarioRuntime<Clock: ScenarioClock>: Sendable {
    /// The scenario being run.
    package var scenario: Scenario { _read { yield scenarioBox.value } }
    /// Shared, not copied into every session: a `Scenario` is 432 bytes of fields (issue 44:
    /// an idle session's memory).
    private let scenarioBox: ScenarioBox
    /// The time source.
    package let clock: Clock
    /// Deterministic ids for the session (dialog_id, event_id, item_id, resp_…).
    package var ids: IDGenerator
    /// The outbound fault pipeline.
    package internal(set) var faultStage: FaultStage
    /// Values for `${name}` placeholders (e.g. multimodal `user_prompt_params`).
    package var variables: [String: String] = [:]
    /// The dialog state last reported by the engine.
    package private(set) var state: String?
    /// Number of turns handed out by ``nextTurn()``.
    package private(set) var turnIndex = 0
    /// Whether an ``ScenarioAction/endSession(_:)`` was returned; later inputs do nothing.
    package internal(set) var hasEnded = false
    /// The policies whose timers this session's protocol has; the engine sets it before
    /// ``start()`` (every policy until then).
    package var policyWatches: PolicyWatches = [.idleEnd, .serverSilence, .audioGap, .sessionCap]

    var delayRandom: SeededRandom
    var triggerRandom: SeededRandom
    var startMicros: Int64 = 0
    var started = false
    var idle = IdleClock()
    /// What the session did, for its final report (``finalReport(endReason:)``).
    package var report = SessionReport()
    var reportIssued = false
    var lastServerOutputMicros: Int64 = 0
    var lastAudioMicros: Int64 = 0
    var audioGapWatched = false
    var triggerFirings: [Int]
    var audioFrameCount = 0
    var audioReceivedMicros: Int64 = 0
    var clientFrameCount = 0
    var expiryCount = 0
    /// `sessionExpiry` timers by the id of their fault, and those disarmed before they fired.
    var expiryByFaultID: [String: [Int]] = [:]
    var disarmedExpiries: Set<Int> = []
    var replaySteps: [Int: [ReplayStep]] = [:]

    /// Creates the runtime of one session.
    /// - Parameters:
    ///   - scenario: The scenario to run.
    ///   - clock: The time source (``ManualClock`` in tests).
    ///   - seed: Overrides the scenario's seed (`mock-server --seed`).
    ///   - sessionOrdinal: The how-many-th session of its route (from 0): mixed into the ids
    ///     only, so each session has its own ids while delays, triggers and faults stay the
    ///     scenario's.
    package init(scenario: Scenario, clock: Clock, seed: UInt64? = nil, sessionOrdinal: UInt64 = 0) {
        let effectiveSeed = seed ?? scenario.seed
        scenarioBox = ScenarioBox(scenario)
        self.clock = clock
        ids = IDGenerator(seed: effectiveSeed, sessionOrdinal: sessionOrdinal)
        faultStage = FaultStage(faults: scenario.faults, seed: effectiveSeed)
        delayRandom = SeededRandom.stream(StreamNumber.delays, seed: effectiveSeed)
        triggerRandom = SeededRandom.stream(StreamNumber.triggers, seed: effectiveSeed)
        triggerFirings = Array(repeating: 0, count: scenario.triggers.count)
        for step in scenario.replay ?? [] {
            replaySteps[step.afterClientFrame, default: []].append(step)
        }
    }

    /// Microseconds since ``start()``.
    package var elapsedMicros: Int64 { clock.nowMicros - startMicros }

    /// Starts the session clock: policy timers, time triggers, faults armed without a match,
    /// and replayed frames due before any client input.
    package mutating func start() -> [ScenarioAction] {
        guard !started else { return [] }
        started = true
        let now = clock.nowMicros
        startMicros = now
        idle.anchorMicros = now
        lastServerOutputMicros = now
        lastAudioMicros = now
        var actions = policyTimersAtStart()
        for (index, trigger) in scenario.triggers.enumerated() {
            if case .afterTime(let ms, nil) = trigger.condition {
                actions.append(.scheduleTimer(.trigger(index), atMicros: now + scenario.scaledMicros(ms)))
            }
        }
        for fault in scenario.faults where fault.armed && !fault.actsOnFrames {
            actions += armFault(fault)
        }
        actions += replayActions(afterClientFrame: 0, at: now)
        return actions
    }

    /// A client text message arrived: its type (directive name or Qwen `type`) and JSON.
    /// `receivedAt` (when the frame came off the socket, before it was parsed) anchors replayed
    /// frames; the clock's now by default.
    package mutating func clientMessage(type: String, json: JSONValue?, receivedAt: Int64? = nil) -> [ScenarioAction] {
        guard !hasEnded else { return [] }
        let now = min(receivedAt ?? .max, clock.nowMicros)
        clientFrameCount += 1
        var actions = replayActions(afterClientFrame: clientFrameCount, at: now)
        for (index, trigger) in scenario.triggers.enumerated() {
            guard case .message(let wanted, let match) = trigger.condition else { continue }
            guard wanted.isEmpty || wanted == type else { continue }
            if let match, !match.matches(eventType: type, isText: true, json: json) { continue }
            actions += fire(index)
        }
        return actions
    }

    /// A client audio frame arrived (binary frame or base64 append) with this much audio.
    package mutating func clientAudio(byteCount: Int, durationMicros: Int64) -> [ScenarioAction] {
        guard !hasEnded else { return [] }
        let now = clock.nowMicros
        lastAudioMicros = now
        clientFrameCount += 1
        audioFrameCount += 1
        let before = audioReceivedMicros
        audioReceivedMicros += max(0, durationMicros)
        var actions = replayActions(afterClientFrame: clientFrameCount, at: now)
        for (index, trigger) in scenario.triggers.enumerated() {
            switch trigger.condition {
            case .audioFrames(let count) where audioFrameCount % count == 0:
                actions += fire(index)
            case .audioMs(let ms):
                let step = max(1, Int64((ms * 1000).rounded()))
                if audioReceivedMicros / step > before / step { actions += fire(index) }
            default:
                continue
            }
        }
        return actions
    }

    /// The protocol engine entered a dialog state (its own names: `Listening`, `Responding`…).
    package mutating func stateEntered(_ newState: String) -> [ScenarioAction] {
        guard !hasEnded else { return [] }
        state = newState
        var actions: [ScenarioAction] = []
        for (index, trigger) in scenario.triggers.enumerated() {
            if case .stateEntered(let wanted) = trigger.condition, wanted == newState {
                actions += fire(index)
            }
        }
        return actions
    }

    /// Passes one outbound frame through the fault stage; send what it returns.
    package mutating func outbound(_ frame: OutboundFrame) -> FaultStageOutput {
        let output = faultStage.process(frame)
        noteServerOutput(output)
        return output
    }

    /// Records that frames went out (for the server-silence rule).
    mutating func noteServerOutput(_ output: FaultStageOutput) {
        for frame in output.frames {
            lastServerOutputMicros = max(lastServerOutputMicros, frame.sendAtMicros)
        }
    }

    /// Content of the next turn, placeholders substituted from ``variables``.
    package mutating func nextTurn() -> TurnContent {
        defer { turnIndex += 1 }
        return scenario.turn(at: turnIndex, variables: variables)
    }

    /// Samples the delay before a server event of this type (protocol name, e.g.
    /// `SpeechStarted`, `response.created`), in microseconds.
    package mutating func delayMicros(before eventType: String) -> Int64 {
        scenario.timing.sampleDelayMicros(for: eventType, using: &delayRandom)
    }

    /// The end-of-turn silence the scenario sets for the engine's VAD (`endOfTurnSilenceMs`),
    /// in milliseconds of audio (audio time is not scaled).
    package var endOfTurnSilenceMs: Int? { scenario.policies.endOfTurnSilenceMs.map { Int($0.rounded()) } }

    /// Whether answers carry audio (`voicePlayback`).
    package var voicePlayback: Bool { scenario.policies.voicePlayback }

    /// Whether user barge-in interrupts the answer.
    package var isInterruptible: Bool { scenario.policies.interruptible }

    /// Whether the duplex audio-gap rule watches every state, not only Listening.
    package var duplexAudioGapInEveryState: Bool { scenario.policies.duplexAudioGapInEveryState }

    /// Chunk schedule of answer audio of this length (offsets relative to the first chunk).
    package func audioChunks(durationMicros: Int64) -> [AudioCadence.Chunk] {
        scenario.timing.audio.chunks(forDurationMicros: durationMicros)
    }

    /// Token schedule of answer text (offsets relative to the start of the answer).
    package func textPieces(of text: String) -> [TextCadence.Piece] {
        scenario.timing.text.pieces(of: text)
    }
}

/// A scenario behind one reference (see ``ScenarioRuntime/scenario``).
private final class ScenarioBox: Sendable {
    let value: Scenario
    init(_ value: Scenario) { self.value = value }
}
