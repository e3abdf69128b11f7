import AnswerAudio
import ProtocolModel
import QwenRealtimeEngine
import ScenarioEngine
import WireAudio
import WireJSON

/// Qwen-Audio-Live sessions through the real session driver (``QwenHarness``): the documented
/// `session.update`, spoken turns from the espeak-ng fixtures, the dialect's event names.
enum AudioLiveHarness {
    static let turn = TurnContent(transcript: "What is the weather like today?", answer: "It is sunny and warm today.")

    /// A session of the live service model whose appends are `session.input_audio.append`.
    static func harness(
        _ turns: [TurnContent] = [turn], policies: SessionPolicies = SessionPolicies()
    ) -> QwenHarness {
        let harness = QwenHarness(
            scenario: QwenHarness.scenario(turns, policies: policies), model: QwenAudioLive.serviceModel)
        harness.appendEvent = QwenAudioLiveClientEvent.inputAudioAppend.rawValue
        return harness
    }

    /// The documented `session` of `session.update`: a frontend model and a delegation mode.
    static func session(
        model: String = QwenAudioLive.duplexModel, delegation: String = "client", _ extra: JSONObject = [:]
    ) -> JSONObject {
        var session: JSONObject = ["model": .string(model), "delegation": ["type": .string(delegation)]]
        for (key, value) in extra { session[key] = value }
        return session
    }

    /// Sends `session.update` with `session` and lets its `session.updated` go out.
    static func configure(_ harness: QwenHarness, _ session: JSONObject = AudioLiveHarness.session()) {
        harness.send(QwenAudioLiveClientEvent.sessionUpdate.rawValue, ["session": .object(session)])
        harness.advance(ms: 10)
    }

    /// Speaks the padded fixture (1 s silence, ~1.7 s speech, 1.5 s silence), then silence.
    static func speak(_ harness: QwenHarness, silenceMs: Int = 6000) throws {
        harness.appendAudio(try Fixtures.paddedSpeech())
        harness.appendSilence(ms: silenceMs)
    }

    /// The concatenated transcript or answer text of `type`'s deltas.
    static func text(_ harness: QwenHarness, _ type: QwenAudioLiveServerEvent) -> String {
        harness.events(type.rawValue).compactMap { $0["delta"]?.stringValue }.joined()
    }

    /// The PCM bytes of the answer audio received.
    static func answerAudioBytes(_ harness: QwenHarness) -> Int {
        harness.events(QwenAudioLiveServerEvent.outputAudioDelta.rawValue).reduce(0) {
            $0 + (Base64.decode($1["delta"]?.stringValue ?? "")?.count ?? 0)
        }
    }
}
