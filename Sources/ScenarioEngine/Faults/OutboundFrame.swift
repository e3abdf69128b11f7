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

    /// Creates a frame.
    package init(eventType: String?, isText: Bool, bytes: [UInt8], dueAtMicros: Int64, json: JSONValue? = nil) {
        self.eventType = eventType
        self.isText = isText
        self.bytes = bytes
        self.dueAtMicros = dueAtMicros
        self.json = json
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
}

/// Something the socket layer must do, rather than send a frame.
package enum TransportAction: Sendable, Hashable {
    /// Close handshake with a code and reason.
    case close(code: Int, reason: String)
    /// Drop the TCP connection without a close frame.
    case abruptClose
    /// Stop reading and/or writing for a while (`nil` = forever: the connection stays open
    /// but dead, i.e. half-open).
    case stall(FaultSpec.StallDirection, durationMicros: Int64?)
    /// Send the close frame now and close TCP only after `delayMicros`.
    case slowClose(delayMicros: Int64)
    /// From now on, send at most this many bytes per second.
    case bandwidthCap(bytesPerSecond: Int)
    /// From now on, fragment every frame into pieces of at most `frameBytes` payload bytes.
    case fragment(frameBytes: Int)

    /// Whether the connection ends with this action.
    package var endsConnection: Bool {
        switch self {
        case .close, .abruptClose, .slowClose: true
        default: false
        }
    }
}

/// A frame the protocol engine must render itself (it owns the envelope), then send.
package enum FaultRequest: Sendable, Hashable {
    /// A frame of an event type the protocol does not define. With a template, send the
    /// template (the engine fills ids); without, the engine builds a minimal envelope.
    case unknownEvent(eventType: String, template: JSONValue?)
    /// The protocol's error event.
    case injectError(ErrorSpec)
}

/// One ordered step of a fault stage's output.
package enum OutboundEmission: Sendable, Hashable {
    /// Send a frame.
    case frame(ScheduledFrame)
    /// Act on the socket at a time.
    case transport(TransportAction, atMicros: Int64)
    /// Render and send a protocol frame at a time.
    case request(FaultRequest, atMicros: Int64)
}

/// What the fault stage returns for one input: emissions in order, and journal notes.
package struct FaultStageOutput: Sendable, Hashable {
    /// Frames and actions in the order they must happen.
    package var emissions: [OutboundEmission] = []
    /// One note per fault application.
    package var notes: [FaultNote] = []

    /// Creates an empty output.
    package init() {}

    /// The frames among the emissions, in order.
    package var frames: [ScheduledFrame] {
        emissions.compactMap { if case .frame(let frame) = $0 { frame } else { nil } }
    }

    /// The transport actions among the emissions, in order.
    package var transportActions: [TransportAction] {
        emissions.compactMap { if case .transport(let action, _) = $0 { action } else { nil } }
    }

    /// Appends another output after this one.
    package mutating func append(_ other: FaultStageOutput) {
        emissions += other.emissions
        notes += other.notes
    }
}
