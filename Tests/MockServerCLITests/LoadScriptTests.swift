import LoadGenerator
import ProtocolModel
import Testing
import WireJSON

@testable import BenchmarkCLI

/// What the load generator's clients send and react to, per protocol, without a server: the
/// URL each connects to routes back to its own protocol, and Qwen-Audio-Live's clients follow
/// its documented flow.
@Suite struct LoadScriptTests {
    /// `load` and `soak` connect where the descriptor says: a path the mock serves as that
    /// protocol (the soak once sent Qwen's model to every protocol).
    @Test(arguments: DialogProtocol.allCases)
    func everyProtocolsPathRoutesToItself(_ dialogProtocol: DialogProtocol) {
        let path = LoadScript.path(of: dialogProtocol)
        #expect(DialogProtocol.route(path)?.protocol == dialogProtocol, "\(path)")
    }

    @Test func qwenAudioLiveConnectsToTheLivePathWithItsServiceModel() {
        #expect(LoadScript.path(of: .qwenAudioLive) == "/api-ws/v1/live?model=qwen-audio-3.1-live")
    }

    /// `session.update` with an event id and a frontend model once `session.created` arrives,
    /// audio in `session.input_audio.append`, and the orderly stop `session.close` acknowledged
    /// by `session.closed`.
    @Test func qwenAudioLiveFollowsTheDocumentedFlow() throws {
        let script = LoadScript.of(.qwenAudioLive, downRate: QwenAudioLive.outputSampleRate)
        let setup = try JSONValue.decode(script.setupText)
        #expect(setup["type"]?.stringValue == QwenAudioLiveClientEvent.sessionUpdate.rawValue)
        let eventID = try #require(setup["event_id"]?.stringValue)
        #expect(!eventID.isEmpty && eventID.count <= QwenAudioLive.maxEventIDLength)
        #expect(QwenAudioLive.frontendModels.contains(setup["session"]?["model"]?.stringValue ?? ""))
        #expect(QwenAudioLive.delegationTypes.contains(setup["session"]?["delegation"]?["type"]?.stringValue ?? ""))
        #expect(!script.setupOnOpen)
        let envelope = try #require(script.audioEnvelope)
        let append = try JSONValue.decode(envelope.prefix + "AAAA" + envelope.suffix)
        #expect(append["type"]?.stringValue == QwenAudioLiveClientEvent.inputAudioAppend.rawValue)
        #expect(append["audio"]?.stringValue == "AAAA")
        let stop = try JSONValue.decode(try #require(script.stopText))
        #expect(stop["type"]?.stringValue == QwenAudioLiveClientEvent.sessionClose.rawValue)
        func action(_ event: QwenAudioLiveServerEvent) -> lg_action? {
            script.rules.first { $0.value == event.rawValue }?.action
        }
        #expect(action(.sessionCreated) == LG_ON_SEND_SETUP)
        #expect(action(.sessionUpdated) == LG_ON_READY)
        #expect(action(.outputAudioDelta) == LG_ON_ANSWER_AUDIO_BASE64)
        #expect(action(.inputTranscriptDelta) == LG_ON_SPEECH_HEARD)
        #expect(action(.sessionClosed) == LG_ON_STOPPED)
        #expect(script.audioKey != nil)
    }

    /// The generator refuses a script whose answer audio has no member to read it from, for
    /// the answer-opening audio rule as for the plain one.
    @Test(arguments: [LG_ON_AUDIO_BASE64, LG_ON_ANSWER_AUDIO_BASE64])
    func anAudioRuleWithoutAnAudioKeyIsAnInvalidScript(_ audioAction: lg_action) {
        var script = LoadScript.of(.qwenAudioLive, downRate: QwenAudioLive.outputSampleRate)
        script.audioKey = nil
        script.rules = [LoadScript.Rule(selector: 0, value: "x", action: audioAction)]
        var config = lg_config()
        config.sessions = 1
        config.chunk_ms = 100
        config.voiced_ms = 1500
        config.silence_ms = 1500
        config.down_rate = 24000
        var result = lg_result()
        var error = [CChar](repeating: 0, count: 256)
        let status = script.withCScript { cScript in
            config.script = cScript
            return lg_run(&config, &result, &error, error.count)
        }
        lg_result_free(&result)
        #expect(status == -1)
        #expect(
            String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                == "invalid script: rule 0")
    }
}
