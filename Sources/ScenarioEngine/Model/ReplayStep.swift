/// One recorded server frame to send again: after which client frame, how long after it,
/// and what.
package struct ReplayStep: Sendable, Hashable {
    /// Send this step after the client's `afterClientFrame`-th frame (1-based; 0 = relative
    /// to session start, for frames the server sent before the client said anything).
    package var afterClientFrame: Int
    /// Delay after that client frame (or session start), already scaled, in microseconds.
    package var delayMicros: Int64
    /// The frame.
    package var frame: ScriptedFrame
    /// A recorded scenario keeps a JSON frame's audio in a file beside it (path relative to the
    /// scenario's folder): its bytes go, base64-encoded, at `audioPointer` of the frame.
    package var audioFile: String?
    /// The JSON pointer (`/delta`) the audio of `audioFile` belongs at.
    package var audioPointer: String?
    /// The recorded bytes of a binary frame (from a journal that kept them, or its `audioFile`),
    /// sent instead of synthesized audio of the same length.
    package var payload: [UInt8]?

    /// Creates a step.
    package init(
        afterClientFrame: Int, delayMicros: Int64, frame: ScriptedFrame, audioFile: String? = nil,
        audioPointer: String? = nil
    ) {
        self.afterClientFrame = afterClientFrame
        self.delayMicros = delayMicros
        self.frame = frame
        self.audioFile = audioFile
        self.audioPointer = audioPointer
    }
}
