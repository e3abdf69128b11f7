package import ProtocolModel
package import WireJSON

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
