/// The server-side dialog states the protocol announces in `DialogStateChanged` (§8.1).
///
/// `Idle` is a client-only state and is never sent, so it has no case here.
package enum DialogState: String, Sendable, Hashable, CaseIterable {
    /// The server accepts user audio and `RequestToRespond`.
    case listening = "Listening"
    /// User input is closed; the answer is being prepared.
    case thinking = "Thinking"
    /// The answer is streaming, or the device is still playing it.
    case responding = "Responding"
}
