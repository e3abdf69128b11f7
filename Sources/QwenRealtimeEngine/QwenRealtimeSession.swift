package import AnswerAudio
import ProtocolModel
package import ScenarioEngine
package import SessionCore
import WireJSON

/// The Qwen realtime protocol engine for one WebSocket session (both profiles): a state
/// machine fed by the session driver that answers with ``SessionCommand``s. No sockets, no
/// threads; every frame goes through the scenario's fault stage via `send(_:)`.
///
/// Files: `+Dispatch` (inbound frames, C2–C4), `+Output` (emitting, errors, closing),
/// `+SessionUpdate`, `+InputAudio`, `+VAD`, `+Responses`, `+Streaming`, `+Items`, `+Lifecycle`;
/// text-to-speech in `+TextToSpeech` and `+SpeechStreaming`.
package final class QwenRealtimeSession<Clock: ScenarioClock>: ProtocolSession {
    /// The scenario of this session.
    package let scenario: ScenarioBridge<Clock>
    /// The profile chosen from the model name.
    package let profile: QwenProfile
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
    /// The engine state last entered (`Idle`, `Listening`, `Speaking`, `Responding`, …).
    package internal(set) var state = "Connecting"

    /// The response's steps, planned ahead; every frame goes out on its send lane, never before
    /// an earlier one.
    var timeline = OutboundTimeline<ResponsePlan.Step>(timer: QwenRealtimeSession.responseTimer)
    /// `session.update` events received, and when the first `session.updated` is due (C4).
    var sessionUpdates = 0
    var firstUpdatedDueMicros: Int64?
    /// Client frames handled and their event ids (C3, C4).
    var clientEvents = 0
    var seenEventIDs: Set<String> = []
    /// The `event_id` of the client event being handled, echoed in errors.
    var currentEventID: String?
    /// Violations journaled once per session (SHOULD-level repeats).
    var reportedOnce: Set<String> = []
    /// Input audio, VAD, images.
    var input = InputAudioState()
    /// The speech segment in progress (VAD modes).
    var userTurn: UserTurn?
    /// A committed push-to-talk turn waiting for `response.create`.
    var pendingTurn: TurnContent?
    /// Whether audio was committed or an item created since the last response (S12).
    var hasNewInput = false
    /// smart_turn: between `speech_started` and the turn's `response.done` (C11).
    var inSmartTurn = false
    /// The response in progress.
    var response: ActiveResponse?
    /// Text-to-speech: the input text buffer and the segments to speak.
    var speech = TextToSpeechState()
    /// Function calls waiting for their output: `call_id` → name (C13).
    var awaitedCalls: [String: String] = [:]
    /// The answer to speak once the tool outputs are in and the client asks (S15).
    var answerAfterCalls: TurnContent?
    /// Whether this session already made its `policies.callDeclaredTools` call (one per session).
    var madeDeclaredToolCall = false
    /// The call id and tool name of that call while its answer waits: the answer reports the output.
    var declaredToolCallAwaiting: (callID: String, name: String)?
    /// Input audio duration per user item, for usage.
    var itemAudioMicros: [String: Int64] = [:]
    /// Token counts of prompt texts (instructions, history items) already seen.
    var promptTokenMemo = Usage.TextTokenMemo()
    /// When the model speaks first if the user stays silent (omni `idle_timeout_ms`), and whether
    /// it already did since the user's last input (once per silence); both reset by user input.
    var speakFirstDueMicros: Int64?
    var spokeFirst = false
    /// Responses started (seeds the synthesized voice).
    var responseCount = 0
    /// Omni `conversation_id`.
    var conversationID: String?
    /// After `session.finish` (C18), after a `server_error` (C19), after closing.
    var isFinishing = false
    /// When a `server_error` ended the session (``terminate()``): frames arriving within
    /// ``serverErrorInFlightMicros`` of it were already on their way (not a C19 breach).
    var terminatedAt: Int64?
    var isTerminated: Bool { terminatedAt != nil }
    /// A `server_error` ends the session now (the first one counts).
    func terminate() { terminatedAt = terminatedAt ?? now }
    /// The in-flight grace after a `server_error` the protocol reference gives for C19 (300 ms).
    static var serverErrorInFlightMicros: Int64 { 300_000 }
    var isClosed = false

    /// Creates the engine of one accepted session.
    /// - Parameters:
    ///   - scenario: The session's scenario runtime.
    ///   - model: The `model` query parameter.
    ///   - profile: The profile (from ``QwenUpgrade/check(path:queryModel:headers:apiKeys:)``).
    ///   - baseDirectory: Where relative turn audio files are looked up (the scenario's folder).
    package init(
        scenario: ScenarioBridge<Clock>, model: String, profile: QwenProfile, baseDirectory: String = ".",
        answerAudio: AnswerAudioCache = .inline
    ) {
        self.scenario = scenario
        self.answerAudio = answerAudio
        self.model = model
        self.profile = profile
        self.baseDirectory = baseDirectory
        // Qwen has the idle-end and session-cap policies, not multimodal's silence and gap rules.
        scenario.runtime.policyWatches = [.idleEnd, .sessionCap]
        let sessionID = scenario.runtime.ids.id(prefix: "sess_")
        configuration = SessionConfiguration(profile: profile, model: model, sessionID: sessionID)
        if profile == .omni { conversationID = scenario.runtime.ids.id(prefix: "conv_") }
    }

    /// Checks an upgrade request (S1); see ``QwenUpgrade/check(path:queryModel:headers:apiKeys:)``.
    package static func checkUpgrade(
        path: String, queryModel: String?, headers: [String: String], apiKeys: [String]
    ) -> UpgradeVerdict<QwenAcceptance> {
        QwenUpgrade.check(path: path, queryModel: queryModel, headers: headers, apiKeys: apiKeys)
    }

    /// The current time on the scenario clock.
    var now: Int64 { scenario.now }

    /// Whether the scenario replays a recorded session (the engine then generates nothing).
    var isReplay: Bool { scenario.runtime.scenario.replay != nil }

    package func open() -> [SessionCommand] {
        timeline.resetLane(to: now)
        var commands = enter("Idle")
        commands += handle(scenario.runtime.start())
        guard !isReplay else { return commands }
        commands += emit(.sessionCreated, ["session": configuration.json], delay: delay(before: .sessionCreated))
        return commands
    }

    package func classify(text bytes: [UInt8]) -> InboundClassification {
        if profile != .speechSynthesis, let append = inPlaceAppend(bytes) {
            return InboundClassification(
                eventType: QwenClientEvent.inputAudioBufferAppend.rawValue, json: nil, inPlaceAudio: append)
        }
        guard let json = try? JSONValue.decode(bytes) else { return InboundClassification(eventType: nil, json: nil) }
        return InboundClassification(eventType: json["type"]?.stringValue, json: json)
    }

    /// `{"type":"input_audio_buffer.append","audio":"…"}`, with or without an `event_id`, read in
    /// place; nil for any other frame (and for other members or non-ASCII text: the JSON path
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
            bytes[type].elementsEqual(QwenClientEvent.inputAudioBufferAppend.rawValue.utf8)
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
        guard !isClosed else { return }
        isClosed = true
        _ = scenario.runtime.close()
    }
}
