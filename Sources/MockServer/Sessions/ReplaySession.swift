import ProtocolModel
import ScenarioEngine
import SessionCore
import WireAudio
import WireJSON

/// Serves a recorded journal back (`mock-server --replay FILE`), for either protocol: it sends
/// exactly what the replay scenario schedules, paced by the client's frames, and nothing else.
final class ReplaySession: ProtocolSession {
    let scenario: ScenarioBridge<MonotonicScenarioClock>
    private let synthesizer = VoiceSynthesizer(sampleRate: 16_000, seed: 1)

    init(runtime: ScenarioRuntime<MonotonicScenarioClock>) {
        scenario = ScenarioBridge(runtime: runtime)
    }

    func open() -> [SessionCommand] { handle(scenario.runtime.start()) }

    /// The event type as both protocols name it: Qwen `type`, multimodal directive or action.
    func classify(text bytes: [UInt8]) -> InboundClassification {
        guard let json = try? JSONValue.decode(bytes) else { return InboundClassification(eventType: nil, json: nil) }
        return InboundClassification(eventType: MessageName.ofClientFrame(json), json: json)
    }

    func receive(text bytes: [UInt8], classification: InboundClassification) -> [SessionCommand] {
        handle(scenario.runtime.clientMessage(type: classification.eventType ?? "", json: classification.json))
    }

    func receive(binary bytes: [UInt8]) -> [SessionCommand] {
        // 16 kHz s16le mono is the multimodal default uplink; only used for audio triggers.
        handle(
            scenario.runtime.clientAudio(
                byteCount: bytes.count, durationMicros: Int64(bytes.count) * 1_000_000 / 32_000))
    }

    func engineTimerFired(_ name: String) -> [SessionCommand] { [] }

    func closed(peerCode: Int?) {}

    func render(_ request: FaultRequest, atMicros: Int64) -> [OutboundFrame] {
        switch request {
        case .unknownEvent(let type, let template):
            [json(template ?? ["type": .string(type)], at: atMicros)]
        case .injectError(let error):
            [
                json(
                    ["type": "error", "error": ["code": .string(error.code), "message": .string(error.message)]],
                    at: atMicros)
            ]
        }
    }

    func endSession(_ reason: SessionEnd) -> [SessionCommand] {
        handle(scenario.runtime.close()) + [
            .transport(.close(code: 1000, reason: "replay ended"), atMicros: scenario.now)
        ]
    }

    func scripted(_ frame: ScriptedFrame, atMicros: Int64) -> OutboundFrame? {
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

    private func json(_ value: JSONValue, at time: Int64) -> OutboundFrame {
        OutboundFrame(
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
