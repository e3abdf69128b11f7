package import ProtocolModel
package import ScenarioEngine
package import SessionCore
package import WireAudio
package import WireJSON

extension QwenProfile {
    /// `qwen-audio-<d>.<d>-live` (Qwen-Audio-Live): OpenAI-Live-style `session.*` events.
    package static let audioLive = QwenProfile(rawValue: "audioLive")
}

/// Qwen-Audio-Live (conformance/protocols/qwen-audio-live): the realtime core's audio, VAD,
/// answer timeline and tool ledger behind events of its own (``QwenAudioLiveClientEvent``,
/// ``QwenAudioLiveServerEvent``): `session.update` with a frontend model and a delegation mode,
/// `session.input_audio.append` up, transcripts and `session.output_audio.delta` down, no
/// `response.*`, duplex turn-taking, client and Responses delegation, `session.close` →
/// `session.closed`. Its obligations are `qal.*`.
package struct AudioLiveDialect: QwenDialect {
    package init() {}

    package var profile: QwenProfile { .audioLive }
    package var servedModels: String { "qwen-audio-x.y-live…" }
    package func serves(model name: String) -> Bool { QwenAudioLive.isServiceModel(name) }

    package func sessionDefaults(model: String, sessionID: String) -> JSONObject {
        SessionConfiguration.audioLiveDefaults(dialect: self, sessionID: sessionID)
    }

    /// The documented fields of `session.created.turn_detection` (DOC-QAL-SE); their values are
    /// the mock's (inferred, the realtime family's defaults).
    package var defaultTurnDetection: JSONObject {
        [
            "type": "server_vad", "threshold": 0.5, "prefix_padding_ms": 300, "silence_duration_ms": 800,
            "create_response": true, "interrupt_response": true,
        ]
    }
    package var turnDetectionTypes: [String] { QwenAudioLive.turnDetectionTypes }
    package func apply(
        _ patch: JSONObject, to configuration: inout SessionConfiguration, isFirstUpdate: Bool, audioStarted: Bool
    ) -> Result<SessionUpdateResult, SessionUpdateFailure> {
        configuration.applyAudioLive(patch)
    }
    package func validateOwnSetting(_ key: String, _ value: JSONValue) -> Result<JSONValue, SessionUpdateFailure>? {
        nil
    }
    package var settingsFrozenByAudio: Set<String> { [] }
    package var ignoresVoiceAfterFirstUpdate: Bool { false }
    package var enrolsVoiceprints: Bool { false }
    package var searchesTheWeb: Bool { false }
    package func inputSampleRate(of session: JSONObject) -> Int { QwenAudioLive.inputSampleRate }
    package func outputSampleRate(of session: JSONObject) -> Int { QwenAudioLive.outputSampleRate }
    package func sendsPCMAudio(_ configuration: SessionConfiguration) -> Bool { true }

    /// Of the realtime events only `session.update` shares its name; the rest are the dialect's own.
    package var clientEventTypes: Set<QwenClientEvent> { [.sessionUpdate] }
    package var takesInputAudio: Bool { true }
    package var awaitsFirstSessionUpdated: Bool { true }
    package var wire: DialectWire { .audioLive }

    package func dispatch<Clock>(
        _ known: QwenClientEvent?, _ type: String, _ event: JSONObject, in session: QwenRealtimeSession<Clock>
    ) -> [SessionCommand] {
        guard let live = QwenAudioLiveClientEvent(rawValue: type) else { return session.rejectUnknown(type) }
        return session.receiveLive(live, event)
    }

    /// Never asked: every event goes through ``dispatch(_:_:_:in:)``.
    package func handleOwn<Clock>(
        _ known: QwenClientEvent, _ event: JSONObject, in session: QwenRealtimeSession<Clock>
    ) -> [SessionCommand]? {
        nil
    }

    package func perform<Clock>(_ step: ResponsePlan.Step, in session: QwenRealtimeSession<Clock>) -> [SessionCommand] {
        session.performLiveStep(step)
    }

    package func refuseAudio<Clock>(in session: QwenRealtimeSession<Clock>) -> [SessionCommand]? {
        session.refuseLiveAudio()
    }

    package func heard<Clock>(_ events: [VADEvent], in session: QwenRealtimeSession<Clock>) -> [SessionCommand] {
        session.hearLiveTurns(events)
    }

    package func opened<Clock>(in session: QwenRealtimeSession<Clock>) -> [SessionCommand] {
        session.scheduleUsageReport()
    }

    package func engineTimerFired<Clock>(_ name: String, in session: QwenRealtimeSession<Clock>) -> [SessionCommand] {
        session.liveTimerFired(name)
    }

    package func end<Clock>(_ reason: SessionEnd, in session: QwenRealtimeSession<Clock>) -> [SessionCommand]? {
        session.endLive(reason)
    }

    package var answers: Bool { true }
    /// Never sent: the dialect reports transcripts as `session.input_transcript.delta` itself.
    package var transcriptionDeltaEvent: QwenServerEvent { .conversationItemInputAudioTranscriptionDelta }
    package var deltasReportRecognition: Bool { false }
    package var completionReportsRecognition: Bool { false }
    /// No commit or clear events exist in this dialect.
    package var commitInVADMode: VADBufferEventRule { .refused }
    package var clearInVADMode: VADBufferEventRule { .refused }
    package var omittedTurnDetectionMayMeanPushToTalk: Bool { false }
    package var hasConversationID: Bool { false }
    package var speaksFirstAfterIdleTimeout: Bool { false }
    package var announcesScriptedEnd: Bool { false }
    package var recognisesUncommittedAudioOnFinish: Bool { false }
}

extension DialectWire {
    /// Qwen-Audio-Live's: `qal.*` obligations, `session.input_audio.append` up and
    /// `session.output_audio.delta` down, an `event_id`'s shape a SHOULD outside `session.update`
    /// (which checks its own, a MUST), the service model when `/api-ws/v1/live` names none
    /// (inferred: the C# SDK's URL has no query), and `error{code, message, client_event_id}`
    /// (the OpenAI Live shape: inferred).
    package static let audioLive = DialectWire(
        dialogProtocol: .qwenAudioLive, frameObligation: "qal.C2", eventIDObligation: "qal.C3",
        nonStringEventIDLevel: .should, orderObligation: "qal.C4", afterFinishObligation: "qal.C10",
        afterServerErrorObligation: "qal.C10",
        audioAppendEvent: QwenAudioLiveClientEvent.inputAudioAppend.rawValue,
        audioDeltaEvent: QwenAudioLiveServerEvent.outputAudioDelta.rawValue,
        modelWhenQueryOmitted: QwenAudioLive.serviceModel,
        errorObject: { error, clientEventID in
            var object: JSONObject = ["code": .string(error.code), "message": .string(error.message)]
            if let clientEventID { object["client_event_id"] = .string(clientEventID) }
            return .object(object)
        })
}
