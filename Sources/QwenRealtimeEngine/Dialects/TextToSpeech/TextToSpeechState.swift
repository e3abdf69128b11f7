/// The text side of a Qwen-TTS-Realtime session (§8.12): the input text buffer, the segments
/// waiting for synthesis, and where the session is in its life.
struct TextToSpeechState: Sendable {
    /// Text appended and not yet segmented or committed.
    var buffer = ""
    /// Segments to synthesise, in order, one response each; the first is spoken next.
    var queue: [String] = []
    /// Whether text was appended since the last commit or clear (a commit without any is refused).
    var appendedSinceCommit = false
    /// The text of the response in progress (for `usage`).
    var speaking: String?
    /// Whether a response was ever created (a `session.update` is refused from then on).
    var started = false
    /// After `session.finish`: `session.finished` follows the last response.
    var finishing = false

    /// Characters that end a sentence: the mock's `server_commit` segment boundary.
    static let sentenceEnds: Set<Character> = ["。", "！", "？", ".", "!", "?", "\n"]
    /// Longest segment without a sentence end, in characters (the mock's length cap).
    static let segmentCap = 100

    /// `server_commit`: moves every complete sentence, and text past the length cap, from the
    /// buffer to the queue. A segment runs through its sentence end; a capped one is cut after
    /// the last space or comma within the cap when there is one.
    mutating func segmentSentences() {
        while true {
            if let end = buffer.firstIndex(where: Self.sentenceEnds.contains) {
                let next = buffer.index(after: end)
                enqueue(String(buffer[..<next]))
                buffer = String(buffer[next...])
            } else if buffer.count > Self.segmentCap {
                let cap = buffer.index(buffer.startIndex, offsetBy: Self.segmentCap)
                let breakAt = buffer[..<cap].lastIndex { $0 == " " || $0 == "," || $0 == "，" || $0 == "、" }
                let cut = breakAt.map { buffer.index(after: $0) } ?? cap
                enqueue(String(buffer[..<cut]))
                buffer = String(buffer[cut...])
            } else {
                return
            }
        }
    }

    /// Moves the whole buffer to the queue (a commit, or the rest at `session.finish`).
    mutating func commitBuffer() {
        enqueue(buffer)
        buffer = ""
        appendedSinceCommit = false
    }

    /// Whether the buffer holds nothing to speak (empty or only whitespace).
    var bufferIsBlank: Bool { Self.isBlank(buffer) }

    private mutating func enqueue(_ text: String) {
        if !Self.isBlank(text) { queue.append(text) }
    }

    private static func isBlank(_ text: String) -> Bool { text.allSatisfy(\.isWhitespace) }
}
