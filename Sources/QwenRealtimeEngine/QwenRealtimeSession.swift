package import AnswerAudio
package import ProtocolModel
package import ScenarioEngine
package import SessionCore
import WireJSON

/// The Qwen realtime protocol engine for one WebSocket session: the shared core of every
/// dialect, a state machine fed by the session driver that answers with ``SessionCommand``s.
/// No sockets, no threads; every frame goes through the scenario's fault stage via `send(_:)`.
///
/// Files: `+Dispatch` (inbound frames, C2–C4), `+Output` (emitting, errors, closing),
/// `+SessionUpdate`, `+InputAudio`, `+VAD`, `+Responses`, `+Streaming`, `+Items`, `+Lifecycle`;
/// what a dialect adds or overrides lives in `Dialects/<Name>/` (``QwenDialect``).
package final class QwenRealtimeSession<Clock: ScenarioClock>: ProtocolSession {
    /// The scenario of this session.
    package let scenario: ScenarioBridge<Clock>
    /// The dialect chosen from the model name.
    package let dialect: any QwenDialect
    /// The dialect's obligation ids, audio events and error object (read once: the in-place
    /// append path asks it for every frame).
    let wire: DialectWire
    /// The model of the upgrade URL.
    package let model: String
    /// Directory against which relative `audio.file` paths of turns are resolved.
    package let baseDirectory: String
    /// Where answer audio comes from (the server passes the cache with worker threads).
    package let answerAudio: AnswerAudioCache
    /// The effective session configuration.
    package internal(set) var configuration: SessionConfiguration
    /// The conversation items.
    package internal(set) var conversation = Conversation()
    /// The engine state last entered.
    package internal(set) var phase = QwenSessionState.connecting

    /// The response's steps, planned ahead; every frame goes out on its send lane, never before
    /// an earlier one.
    var timeline = OutboundTimeline<ResponsePlan.Step>(timer: QwenRealtimeSession.responseTimer)
    /// Client events, finishing, `server_error` and closing (C3, C4, C18, C19).
    var lifecycle = SessionLifecycle()
    /// Input audio, VAD, images.
    var input = InputAudioState()
    /// The speech segment in progress, a committed turn, input not yet answered.
    var turns = UserTurns()
    /// The response in progress.
    var response: ActiveResponse?
    /// Text-to-speech: the input text buffer and the segments to speak.
    var speech = TextToSpeechState()
    /// Function calls waiting for their output and the answer after them (C13, S15).
    var tools = ToolCallLedger()
    /// Token counts of prompt texts (instructions, history items) already seen.
    var promptTokenMemo = Usage.TextTokenMemo()
    /// When the model speaks first if the user stays silent (omni `idle_timeout_ms`).
    var idleSilence = IdleSilence()
    /// When the client's playback of the last answer ends (its start plus its audio): the
    /// idle-end clock restarts there (``updateIdleHold()``).
    var answerPlaybackEndMicros: Int64 = 0
    /// The final report of a session the client closed, for ``closingNotes()``.
    var closingReport: JSONValue?
    /// Responses started (groups a response's steps on the timeline).
    var responseCount = 0
    /// The level of the last appended chunk's decoded audio, until the driver takes it.
    var receivedAudioLevel: AudioLevel?
    /// Omni `conversation_id`.
    let conversationID: String?
    /// What a dialect keeps per session beyond the core's state: its own class, created by the
    /// dialect the first time it asks (nil until then).
    var dialectState: AnyObject?

    var isClosed: Bool { lifecycle.isClosed }
    var isFinishing: Bool { lifecycle.isFinishing }
    /// A `server_error` ends the session now (the first one counts).
    func terminate() { lifecycle.terminate(atMicros: now) }

    /// Creates the engine of one accepted session of a standard dialect.
    /// - Parameters:
    ///   - scenario: The session's scenario runtime.
    ///   - model: The `model` query parameter.
    ///   - profile: The profile (from ``QwenUpgrade/check(path:queryModel:headers:apiKeys:)``).
    ///   - baseDirectory: Where relative turn audio files are looked up (the scenario's folder).
    package convenience init(
        scenario: ScenarioBridge<Clock>, model: String, profile: QwenProfile, baseDirectory: String = ".",
        answerAudio: AnswerAudioCache = .inline
    ) {
        guard let dialect = QwenDialects.standard.dialect(named: profile) else {
            preconditionFailure("no standard Qwen dialect is named \(profile)")
        }
        self.init(
            scenario: scenario, model: model, dialect: dialect, baseDirectory: baseDirectory, answerAudio: answerAudio)
    }

    /// Creates the engine of one accepted session of `dialect`.
    package init(
        scenario: ScenarioBridge<Clock>, model: String, dialect: any QwenDialect, baseDirectory: String = ".",
        answerAudio: AnswerAudioCache = .inline
    ) {
        self.scenario = scenario
        self.answerAudio = answerAudio
        self.model = model
        self.dialect = dialect
        wire = dialect.wire
        self.baseDirectory = baseDirectory
        // Qwen has the idle-end and session-cap policies, not multimodal's silence and gap rules.
        scenario.runtime.policyWatches = [.idleEnd, .sessionCap]
        let sessionID = scenario.runtime.ids.id(prefix: "sess_")
        configuration = SessionConfiguration(dialect: dialect, model: model, sessionID: sessionID)
        if let silenceMs = scenario.runtime.endOfTurnSilenceMs { configuration.useEndOfTurnSilence(ms: silenceMs) }
        conversationID = dialect.hasConversationID ? scenario.runtime.ids.id(prefix: "conv_") : nil
    }

    /// Checks an upgrade request (S1); see ``QwenUpgrade/check(path:queryModel:headers:apiKeys:)``.
    package static func checkUpgrade(
        path: String, queryModel: String?, headers: [String: String], apiKeys: [String]
    ) -> UpgradeVerdict<QwenAcceptance> {
        QwenUpgrade.check(path: path, queryModel: queryModel, headers: headers, apiKeys: apiKeys)
    }

    /// The name of the session's dialect.
    package var profile: QwenProfile { dialect.profile }

    /// The engine state last entered, by its journal name (`Idle`, `Listening`, …).
    package var state: String { phase.rawValue }

    /// The current time on the scenario clock.
    var now: Int64 { scenario.now }

    /// Whether the scenario replays a recorded session (the engine then generates nothing).
    var isReplay: Bool { scenario.runtime.scenario.replay != nil }

    package func open() -> [SessionCommand] {
        timeline.resetLane(to: now)
        var commands = enter(.idle)
        commands += handle(scenario.runtime.start())
        guard !isReplay else { return commands }
        commands += emit(.sessionCreated, ["session": configuration.json], delay: delay(before: .sessionCreated))
        return commands + dialect.opened(in: self)
    }

    package func classify(text bytes: [UInt8]) -> InboundClassification {
        if dialect.takesInputAudio, let append = inPlaceAppend(bytes) {
            return InboundClassification(
                eventType: wire.audioAppendEvent, json: nil, inPlaceAudio: append)
        }
        guard let json = try? JSONValue.decode(bytes) else { return InboundClassification(eventType: nil, json: nil) }
        return InboundClassification(eventType: json["type"]?.stringValue, json: json)
    }

    /// `{"type":"<the dialect's append event>","audio":"…"}` (`input_audio_buffer.append` in the
    /// realtime dialects), with or without an `event_id`, read in place; nil for any other frame (and for other members or non-ASCII text: the JSON path
    /// decides those).
    private func inPlaceAppend(_ bytes: [UInt8]) -> InPlaceAudioEvent? {
        var type: Range<Int>?
        var eventID: Range<Int>?
        var audio: Range<Int>?
        let complete = bytes.withUnsafeBufferPointer { input in
            InPlaceJSON.visitASCIIStringMembers(input) { key, value in
                let name = input[key]
                if type == nil, name.elementsEqual("type".utf8) {
                    type = value
                } else if audio == nil, name.elementsEqual("audio".utf8) {
                    audio = value
                } else if eventID == nil, name.elementsEqual("event_id".utf8) {
                    eventID = value
                } else {
                    return false
                }
                return true
            }
        }
        guard complete, let type, let audio,
            bytes[type].elementsEqual(wire.audioAppendEvent.utf8)
        else { return nil }
        let summary = Base64.decodedCount(ofEncoded: bytes[audio]).map {
            PCMPayload.summary(
                bytes: $0, sampleRate: configuration.inputSampleRate, channels: configuration.inputChannels)
        }
        return InPlaceAudioEvent(
            eventID: eventID.map { String(decoding: bytes[$0], as: UTF8.self) },
            base64Payload: audio, audio: summary)
    }

    package func closed(peerCode: Int?) {
        guard lifecycle.close() else { return }
        closingReport = scenario.runtime.finalReport(endReason: "clientClosed")
        _ = scenario.runtime.close()
    }

    package func takeReceivedAudioLevel() -> AudioLevel? {
        defer { receivedAudioLevel = nil }
        return receivedAudioLevel
    }

    /// The final report of a session the client closed.
    package func closingNotes() -> [JournalNote] {
        closingReport.map { [.report($0)] } ?? []
    }
}
