package import ProtocolModel
package import WireJSON

/// What of the realtime core's own checks and framing a dialect names its own way: the protocol
/// (and so the obligation ids) the shared checks journal under, the events that carry audio,
/// and the `error` object. The realtime dialects share ``realtime``; a dialect with events of
/// its own (Qwen-Audio-Live) gives its own.
package struct DialectWire: Sendable {
    /// The protocol the dialect's obligations belong to: its connect (C1) and audio-format
    /// obligations (``DialogProtocol/audioFormatObligation``).
    package var dialogProtocol: DialogProtocol
    /// A frame that is not a JSON object with a known string `type`, or a binary frame.
    package var frameObligation: String
    /// A malformed or repeated `event_id`.
    package var eventIDObligation: String
    /// How much an `event_id` that is not a string weighs (a repeat is always a SHOULD).
    package var nonStringEventIDLevel: Violation.Level
    /// `session.update` first, nothing before its `session.updated`.
    package var orderObligation: String
    /// A client event after the client ended the session (the core's `finish`).
    package var afterFinishObligation: String
    /// A client event after the server ended the session (a `server_error`; beyond the in-flight
    /// grace).
    package var afterServerErrorObligation: String
    /// The client event carrying base64 input audio in `audio` (read in place on the hot path).
    package var audioAppendEvent: String
    /// The server event carrying base64 answer audio in `delta`.
    package var audioDeltaEvent: String
    /// The model a missing `model` query names on the protocol's own path, or nil (refused).
    package var modelWhenQueryOmitted: String?
    /// The object inside an `error` event for `error`, caused by the client event `clientEventID`.
    package var errorObject: @Sendable (_ error: QwenError, _ clientEventID: String?) -> JSONValue

    /// The obligation of the uplink audio's format.
    package var audioFormatObligation: String { dialogProtocol.audioFormatObligation }

    /// The obligation a refused upgrade breaks.
    package var connectObligation: String { dialogProtocol.connectObligation }

    package init(
        dialogProtocol: DialogProtocol, frameObligation: String, eventIDObligation: String,
        nonStringEventIDLevel: Violation.Level, orderObligation: String,
        afterFinishObligation: String, afterServerErrorObligation: String, audioAppendEvent: String,
        audioDeltaEvent: String, modelWhenQueryOmitted: String?,
        errorObject: @escaping @Sendable (_ error: QwenError, _ clientEventID: String?) -> JSONValue
    ) {
        self.dialogProtocol = dialogProtocol
        self.frameObligation = frameObligation
        self.eventIDObligation = eventIDObligation
        self.nonStringEventIDLevel = nonStringEventIDLevel
        self.orderObligation = orderObligation
        self.afterFinishObligation = afterFinishObligation
        self.afterServerErrorObligation = afterServerErrorObligation
        self.audioAppendEvent = audioAppendEvent
        self.audioDeltaEvent = audioDeltaEvent
        self.modelWhenQueryOmitted = modelWhenQueryOmitted
        self.errorObject = errorObject
    }

    /// The Qwen realtime protocol's (§4–§5 of its reference): every dialect of the realtime events.
    package static let realtime = DialectWire(
        dialogProtocol: .qwenRealtime, frameObligation: "qrt.C2", eventIDObligation: "qrt.C3",
        nonStringEventIDLevel: .must, orderObligation: "qrt.C4", afterFinishObligation: "qrt.C18",
        afterServerErrorObligation: "qrt.C19",
        audioAppendEvent: QwenClientEvent.inputAudioBufferAppend.rawValue,
        audioDeltaEvent: QwenServerEvent.responseAudioDelta.rawValue, modelWhenQueryOmitted: nil,
        errorObject: { error, clientEventID in error.json(eventID: clientEventID) })
}
