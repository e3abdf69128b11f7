package import MockSessions
package import ProtocolModel
package import ScenarioEngine
package import SessionCore
import WireAudio
import WireJSON

/// Serves a recorded session back (`mock-server --replay FILE`, or a scenario with `replay`
/// from `record-to-scenario`), for either protocol: it sends exactly what the replay scenario
/// schedules, paced by the client's frames, and nothing else. The first client frame that
/// differs from the recording's is journaled as a `replay.departure` violation; multimodal
/// frames carry the live client's task id.
package final class ReplaySession: ProtocolSession {
    package let scenario: ScenarioBridge<MonotonicScenarioClock>
    /// The recorded protocol: its error frame for an injected error.
    private let descriptor: any ProtocolDescriptor
    private let synthesizer = VoiceSynthesizer(sampleRate: 16_000, seed: 1)
    /// Client frames received so far.
    private var clientFrames = 0
    private var departed = false
    /// The live client's `header.task_id` (multimodal), put into replayed frames.
    private var taskID: String?
    /// When each replayed frame handed to the driver is due (to tell, at the close, which went out).
    private var dueTimes: [Int64] = []
    /// When the text frame being received arrived: replayed frames are timed from there.
    private var receivedAt: Int64?
    /// The replay's steps other than closes, in order (what ``scripted(_:atMicros:)`` is asked for).
    private lazy var replayedSteps: [ReplayStep] = (scenario.runtime.scenario.replay ?? []).filter {
        if case .close = $0.frame { false } else { true }
    }

    package init(runtime: ScenarioRuntime<MonotonicScenarioClock>, protocol dialogProtocol: DialogProtocol) {
        scenario = ScenarioBridge(runtime: runtime)
        descriptor = dialogProtocol.descriptor
    }

    package func open() -> [SessionCommand] { handle(scenario.runtime.start()) }

    /// The event type as both protocols name it: Qwen `type`, multimodal directive or action.
    package func classify(text bytes: [UInt8]) -> InboundClassification {
        receivedAt = scenario.now  // the driver classifies a text frame first, as it arrives
        guard let json = try? JSONValue.decode(bytes) else { return InboundClassification(eventType: nil, json: nil) }
        return InboundClassification(eventType: MessageName.ofClientFrame(json), json: json)
    }

    package func receive(text bytes: [UInt8], classification: InboundClassification) -> [SessionCommand] {
        if let id = DashScopeEnvelope.taskID(of: classification.json) { taskID = id }
        let departure = check(classification.eventType ?? (classification.json == nil ? "text" : "-"))
        return departure
            + handle(
                scenario.runtime.clientMessage(
                    type: classification.eventType ?? "", json: classification.json, receivedAt: receivedAt))
    }

    package func receive(binary bytes: [UInt8]) -> [SessionCommand] {
        // 16 kHz s16le mono is the multimodal default uplink; only used for audio triggers.
        check("binary")
            + handle(
                scenario.runtime.clientAudio(
                    byteCount: bytes.count, durationMicros: Int64(bytes.count) * 1_000_000 / 32_000))
    }

    /// Compares the client's next frame with the recording's (once: the first departure).
    private func check(_ name: String) -> [SessionCommand] {
        clientFrames += 1
        guard !departed, let recorded = scenario.runtime.scenario.replayClientFrames else { return [] }
        let expected = clientFrames <= recorded.count ? recorded[clientFrames - 1] : nil
        guard expected != name else { return [] }
        departed = true
        let message =
            "client frame \(clientFrames) is \(name); the recording had "
            + (expected ?? "only \(recorded.count) client frames")
        return [.journal(.violation(obligation: "replay.departure", message: Violation.Level.should.prefix + message))]
    }

    package func engineTimerFired(_ name: String) -> [SessionCommand] { [] }

    package func closed(peerCode: Int?) {}

    /// Consumption: how many recorded server frames were not sent (their client frame never came,
    /// or the session closed before they were due), as a `replay.unused` violation.
    package func closingNotes() -> [JournalNote] {
        let steps = scenario.runtime.scenario.replay ?? []
        let total = steps.filter { if case .close = $0.frame { false } else { true } }.count
        let now = scenario.now
        let unused = total - dueTimes.filter { $0 <= now }.count
        guard unused > 0 else { return [] }
        let recordedClient = scenario.runtime.scenario.replayClientFrames.map { ", the recording \($0.count)" } ?? ""
        return [
            .violation(
                obligation: "replay.unused",
                message: Violation.Level.should.prefix
                    + "\(unused) of \(total) recorded server frames were not sent (the client sent \(clientFrames) frames\(recordedClient))"
            )
        ]
    }

    package func render(_ request: FaultRequest, atMicros: Int64) -> [OutboundFrame] {
        switch request {
        case .unknownEvent(let type, let template):
            [json(template ?? ["type": .string(type)], at: atMicros)]
        case .injectError(let error):
            [json(descriptor.errorFrame(code: error.code, message: error.message, taskID: taskID), at: atMicros)]
        }
    }

    package func endSession(_ reason: SessionEnd) -> [SessionCommand] {
        handle(scenario.runtime.close()) + [
            .transport(.close(code: 1000, reason: "replay ended"), atMicros: scenario.now)
        ]
    }

    package func scripted(_ frame: ScriptedFrame, atMicros: Int64) -> OutboundFrame? {
        // Non-close steps reach here in step order (anchors only grow): the k-th is step k.
        let step = dueTimes.count < replayedSteps.count ? replayedSteps[dueTimes.count] : nil
        if case .close = frame {} else { dueTimes.append(atMicros) }
        if case .synthesizedAudio(let length, _) = frame, let payload = step?.payload, payload.count == length {
            return OutboundFrame(eventType: nil, isText: false, bytes: payload, dueAtMicros: atMicros)
        }
        switch frame {
        case .json(let value):
            return json(value, at: atMicros)
        case .text(let text):
            return OutboundFrame(eventType: nil, isText: true, bytes: Array(text.utf8), dueAtMicros: atMicros)
        case .synthesizedAudio(let length, _):
            return OutboundFrame(eventType: nil, isText: false, bytes: voiceLikeBytes(length), dueAtMicros: atMicros)
        case .close:
            return nil
        }
    }

    private func json(_ recorded: JSONValue, at time: Int64) -> OutboundFrame {
        var value = recorded
        if let taskID, DashScopeEnvelope.taskID(of: value) != nil, var object = value.objectValue {
            object.set(["header", "task_id"], .string(taskID))
            value = .object(object)
        }
        return OutboundFrame(
            eventType: MessageName.ofServerFrame(value), isText: true, bytes: value.encoded(), dueAtMicros: time,
            json: value)
    }

    /// Voice-like s16le audio of exactly `length` bytes (the recording kept only the length).
    private func voiceLikeBytes(_ length: Int) -> [UInt8] {
        var bytes = synthesizer.synthesize("replayed audio frame").littleEndianBytes
        while bytes.count < length { bytes += bytes }
        return Array(bytes.prefix(length))
    }
}
