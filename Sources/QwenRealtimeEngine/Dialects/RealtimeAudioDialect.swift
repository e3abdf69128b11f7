package import ProtocolModel
package import ScenarioEngine
package import SessionCore
package import WireAudio
package import WireJSON

/// The shared answers of the dialects that take audio through the realtime session core
/// (audio, omni, transcription): its `session.update`, its response steps, its sample rates.
/// A dialect adopting it still names everything that makes it itself.
package protocol RealtimeAudioDialect: QwenDialect {}

extension QwenClientEvent {
    /// The client events of the answering core: audio in, items, responses.
    package static let answeringCore: Set<QwenClientEvent> = [
        .sessionUpdate, .inputAudioBufferAppend, .inputAudioBufferCommit, .inputAudioBufferClear,
        .conversationItemCreate, .conversationItemRetrieve, .conversationItemDelete, .responseCreate, .responseCancel,
    ]
}

extension RealtimeAudioDialect {
    package func apply(
        _ patch: JSONObject, to configuration: inout SessionConfiguration, isFirstUpdate: Bool, audioStarted: Bool
    ) -> Result<SessionUpdateResult, SessionUpdateFailure> {
        configuration.applyRealtimeSession(patch, isFirstUpdate: isFirstUpdate, audioStarted: audioStarted)
    }

    package func outputSampleRate(of session: JSONObject) -> Int {
        SessionConfiguration.nestedOutputSampleRate(of: session)
    }

    package func sendsPCMAudio(_ configuration: SessionConfiguration) -> Bool { true }

    package var takesInputAudio: Bool { true }

    package var awaitsFirstSessionUpdated: Bool { true }

    package var wire: DialectWire { .realtime }

    package func refuseAudio<Clock>(in session: QwenRealtimeSession<Clock>) -> [SessionCommand]? { nil }

    package func heard<Clock>(_ events: [VADEvent], in session: QwenRealtimeSession<Clock>) -> [SessionCommand] {
        session.hearTurns(events)
    }

    package func opened<Clock>(in session: QwenRealtimeSession<Clock>) -> [SessionCommand] { [] }

    package func engineTimerFired<Clock>(_ name: String, in session: QwenRealtimeSession<Clock>) -> [SessionCommand] {
        []
    }

    package func end<Clock>(_ reason: SessionEnd, in session: QwenRealtimeSession<Clock>) -> [SessionCommand]? { nil }

    package func perform<Clock>(_ step: ResponsePlan.Step, in session: QwenRealtimeSession<Clock>) -> [SessionCommand] {
        session.performAnswerStep(step)
    }
}
