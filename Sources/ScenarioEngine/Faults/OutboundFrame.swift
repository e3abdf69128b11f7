package import ProtocolModel
package import WireJSON

/// A frame the protocol engine wants to send, before faults.
package struct OutboundFrame: Sendable, Hashable {
    /// The protocol's event name (multimodal: `payload.output.event`, else `header.event`;
    /// Qwen: `type`); `nil` for binary audio.
    package var eventType: String?
    /// Text (`true`) or binary (`false`) WebSocket frame.
    package var isText: Bool
    /// The payload bytes.
    package var bytes: [UInt8]
    /// When the engine wants it sent, in microseconds on the runtime clock.
    package var dueAtMicros: Int64
    /// The parsed JSON of a text frame, for pointer matches (the engine built it anyway).
    package var json: JSONValue?
    /// The level of the audio the frame carries, measured when the audio was rendered (off the
    /// service thread), for the journal; nil when not known.
    package var audioLevel: AudioLevel?

    /// Creates a frame.
    package init(
        eventType: String?, isText: Bool, bytes: [UInt8], dueAtMicros: Int64, json: JSONValue? = nil,
        audioLevel: AudioLevel? = nil
    ) {
        self.eventType = eventType
        self.isText = isText
        self.bytes = bytes
        self.dueAtMicros = dueAtMicros
        self.json = json
        self.audioLevel = audioLevel
    }
}

/// A frame to put on the socket, after faults.
package struct ScheduledFrame: Sendable, Hashable {
    /// The protocol's event name, carried through for the journal.
    package var eventType: String?
    /// Text or binary frame.
    package var isText: Bool
    /// The bytes to send (possibly truncated or corrupted by a fault).
    package var bytes: [UInt8]
    /// When to send it, in microseconds on the runtime clock; never earlier than the frame
    /// before it in the same output.
    package var sendAtMicros: Int64
    /// Send as WebSocket fragments with at most this many payload bytes each.
    package var fragmentBytes: Int?
    /// The engine's parsed JSON of a text frame whose bytes no fault changed (so the journal
    /// need not parse the frame again on the service thread); nil otherwise.
    package var json: JSONValue?
    /// The engine's level of the frame's audio when no fault changed its bytes; nil otherwise.
    package var audioLevel: AudioLevel? = nil
}
