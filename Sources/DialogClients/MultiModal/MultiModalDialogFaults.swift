package import WireJSON

/// Deliberate misbehaviour for the conformance suite's faulty clients (`dialogmock-adapter
/// --fault …`). Each switch breaks one obligation of multimodal-dialog.md §12; the default
/// value breaks none. Package-only: not part of the library's public API.
package struct MultiModalDialogFaults: Sendable {
    /// How the handshake carries the key.
    package enum Authorization: Sendable { case bearer, bare, none }

    /// C1: `Authorization: Bearer <key>` (correct), the bare key, or no header.
    package var authorization = Authorization.bearer
    /// C8: a binary frame right after the run-task frame, before any Listening.
    package var binaryAfterStart = false
    /// C9: the next uplink audio frame carries one extra byte (an odd PCM length), in whatever
    /// mode the audio flows (inside SendSpeech … StopSpeech in push2talk).
    package var oddAudioFrame = false
    /// C19: never send LocalRespondingEnded.
    package var skipLocalRespondingEnded = false
    /// C19: send LocalRespondingEnded twice in a round.
    package var doubleLocalRespondingEnded = false
    /// C21: no automatic HeartBeat.
    package var disableHeartbeat = false
    /// C2–C5, C23: rewrites the run-task frame before it is sent.
    package var rewriteStart: (@Sendable (inout JSONObject) -> Void)?

    package init() {}
}
