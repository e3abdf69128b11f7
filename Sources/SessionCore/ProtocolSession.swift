package import ProtocolModel
package import ScenarioEngine
package import WireJSON

/// One client session's protocol logic: a state machine fed by the server's session driver on
/// the service thread and answering with commands. No sockets, no threads: tests drive it with
/// a `ManualClock` and read the commands.
package protocol ProtocolSession: AnyObject {
    associatedtype Clock: ScenarioClock

    /// The scenario of this session (content, timing, faults, policies).
    var scenario: ScenarioBridge<Clock> { get }

    /// The session is open (after the upgrade).
    func open() -> [SessionCommand]
    /// A text frame arrived. `classification` was computed by ``classify(text:)``.
    func receive(text bytes: [UInt8], classification: InboundClassification) -> [SessionCommand]
    /// A binary frame arrived.
    func receive(binary bytes: [UInt8]) -> [SessionCommand]
    /// An engine timer came due (scenario timers are handled by ``timerFired(_:)``).
    func engineTimerFired(_ name: String) -> [SessionCommand]
    /// The peer closed, or the connection dropped; no command can be sent any more.
    func closed(peerCode: Int?)

    /// Parses an inbound text frame far enough to journal it (type, JSON); nil JSON when the
    /// frame is not JSON.
    func classify(text bytes: [UInt8]) -> InboundClassification
    /// Builds a frame a fault asked for (an unknown event type, the protocol's error event).
    func render(_ request: FaultRequest, atMicros: Int64) -> [OutboundFrame]
    /// Ends the session the protocol's way for a scenario reason (timeouts, expiry, triggers).
    func endSession(_ reason: SessionEnd) -> [SessionCommand]
    /// Turns a scenario-given frame (trigger `send`, replay) into an outbound frame.
    func scripted(_ frame: ScriptedFrame, atMicros: Int64) -> OutboundFrame?

    /// What the audio a text frame carries (base64 in a JSON field) held, for the journal. Nil
    /// when the frame carries no audio.
    func audioSummary(ofText json: JSONValue, eventType: String?, inbound: Bool) -> AudioSummary?
    /// What a binary frame's audio held, for the journal (nil when it cannot be told exactly).
    func audioSummary(ofBinary bytes: [UInt8], inbound: Bool) -> AudioSummary?
    /// The level of the audio the frame just received carried, measured from the samples the
    /// engine decoded anyway while handling it; nil when it decoded none. Taking it clears it
    /// (the driver asks after each `receive`, for the frame's journal entry).
    func takeReceivedAudioLevel() -> AudioLevel?
    /// Notes for the journal once the session is closed (after ``closed(peerCode:)``), e.g. what
    /// of a recording a replay did not use.
    func closingNotes() -> [JournalNote]
}

extension ProtocolSession {
    package func closingNotes() -> [JournalNote] { [] }
    package func audioSummary(ofText json: JSONValue, eventType: String?, inbound: Bool) -> AudioSummary? { nil }
    package func audioSummary(ofBinary bytes: [UInt8], inbound: Bool) -> AudioSummary? { nil }
    package func takeReceivedAudioLevel() -> AudioLevel? { nil }
}

/// Summaries of s16le PCM payloads.
package enum PCMPayload {
    /// A PCM payload of `bytes` at `sampleRate` with `channels`.
    package static func summary(bytes: Int, sampleRate: Int, channels: Int = 1) -> AudioSummary {
        AudioSummary(
            codec: "pcm", durationMs: Double(bytes) / Double(2 * max(1, channels) * max(1, sampleRate)) * 1000,
            frames: 1, sampleRate: sampleRate)
    }

}

extension ProtocolSession {
    /// A timer came due: scenario timers go to the scenario, engine timers to the engine.
    package func timerFired(_ timer: SessionTimer) -> [SessionCommand] {
        switch timer {
        case .scenario(let scenarioTimer): handle(scenario.runtime.timerFired(scenarioTimer))
        case .engine(let name): engineTimerFired(name)
        }
    }

    /// Sends a frame through the fault stage.
    package func send(_ frame: OutboundFrame) -> [SessionCommand] {
        handle(scenario.outbound(frame))
    }

    /// Carries out scenario actions: timers, fault emissions, scripted frames, session ends. The
    /// one interpreter of scenario actions for every session kind: what it cannot do without the
    /// protocol (a fault's frame, a scripted frame, ending the session the protocol's way) it asks
    /// of the session through ``render(_:atMicros:)``, ``scripted(_:atMicros:)`` and
    /// ``endSession(_:)``, and their commands take the place of the action in order.
    package func handle(_ actions: [ScenarioAction]) -> [SessionCommand] {
        var commands: [SessionCommand] = []
        for action in actions {
            switch action {
            case .scheduleTimer(let timer, let at):
                commands.append(.scheduleTimer(.scenario(timer), atMicros: at))
            case .emit(let emission):
                commands += handle(emission)
            case .send(let frame, let at):
                if case .close(let code, let reason) = frame {
                    commands.append(.transport(.close(code: code, reason: reason), atMicros: at))
                } else if let outbound = scripted(frame, atMicros: at) {
                    commands += send(outbound)
                }
            case .endSession(let reason):
                commands += endSession(reason)
            case .note(let note):
                commands.append(.journal(.fault(note)))
            }
        }
        return commands
    }

    /// Carries out a fault-stage output.
    package func handle(_ output: FaultStageOutput) -> [SessionCommand] {
        var commands = output.notes.map { SessionCommand.journal(.fault($0)) }
        for emission in output.emissions { commands += handle(emission) }
        if let timer = scenario.runtime.faultStageTimer { commands += handle([timer]) }
        return commands
    }

    private func handle(_ emission: OutboundEmission) -> [SessionCommand] {
        switch emission {
        case .frame(let frame):
            return [.send(frame)]
        case .transport(let action, let at):
            return [.transport(action, atMicros: at)]
        case .request(let request, let at):
            return render(request, atMicros: at).flatMap { send($0) }
        }
    }
}
