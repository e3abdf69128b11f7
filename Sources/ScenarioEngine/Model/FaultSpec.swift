import ProtocolModel
package import WireJSON

/// One fault: what goes wrong, which outbound frames it applies to, and how often.
///
/// Frame faults (`duplicate`, `drop`, `reorder`, `delay`, `truncateJSON`, `malformedJSON`)
/// act on outbound frames that match ``match`` (every frame when `nil`); `fragment` with a
/// match fragments the matching frames, without one it fragments every frame from arming on.
/// Transport faults (`close`, `abruptClose`, `stall`, `slowClose`, `bandwidthCap`) and
/// requests (`unknownEvent`, `injectError`) happen when the fault is armed, or — with a
/// ``match`` — right after a matching frame has been sent. `sessionExpiry` starts a timer
/// when armed. Every application produces a journal note.
package struct FaultSpec: Sendable, Hashable {
    /// Which way a stall blocks the socket.
    package enum StallDirection: String, Sendable, Hashable, CaseIterable {
        case read, write, both
    }

    /// What goes wrong.
    package enum Kind: Sendable, Hashable {
        /// Close handshake with `code` and `reason`.
        case close(code: Int, reason: String)
        /// Drop the TCP connection without a close frame.
        case abruptClose
        /// Stop reading/writing for `ms` (`nil` = forever: a half-open connection).
        case stall(StallDirection, ms: Double?)
        /// Send the close frame, then wait `ms` before closing TCP.
        case slowClose(ms: Double)
        /// Limit the socket's send rate.
        case bandwidthCap(bytesPerSecond: Int)
        /// Send matching frames as WebSocket fragments of at most `frameBytes` payload bytes.
        case fragment(frameBytes: Int)
        /// Cut matching text frames, keeping about `keepFraction` of their bytes.
        case truncateJSON(keepFraction: Double)
        /// Make matching text frames syntactically invalid JSON.
        case malformedJSON
        /// Ask the protocol engine for a frame of an unknown event type (or use `template`).
        case unknownEvent(eventType: String, template: JSONValue?)
        /// Send matching frames `copies` extra times.
        case duplicate(copies: Int)
        /// Do not send matching frames.
        case drop
        /// Hold `window` matching frames and release them permuted; release early after `holdMs`.
        case reorder(window: Int, holdMs: Double)
        /// Send matching frames `ms` later (later frames keep their order behind them).
        case delay(ms: Double)
        /// Ask the protocol engine to send its error event.
        case injectError(ErrorSpec)
        /// End the session `afterMs` (scaled by the time scale) after arming.
        case sessionExpiry(afterMs: Double)
    }

    /// The names used for ``Kind`` in scenario files.
    package enum KindName: String, Sendable, CaseIterable {
        case close, abruptClose, stall, slowClose, bandwidthCap, fragment, truncateJSON, malformedJSON
        case unknownEvent, duplicate, drop, reorder, delay, injectError, sessionExpiry
    }

    /// Name for triggers' `arm`/`disarm` and for journal notes.
    package var id: String?
    /// What goes wrong.
    package var kind: Kind
    /// Which outbound frames it applies to (`nil`: any frame for frame faults; "on arming"
    /// for transport faults and requests).
    package var match: EventMatcher?
    /// Matching frames to let through untouched before the first application.
    package var skip: Int
    /// How many applications at most.
    package var limit: RepeatLimit
    /// Chance that a candidate application happens (seeded).
    package var probability: Double
    /// Whether the fault is active from session start (else a trigger arms it).
    package var armed: Bool

    /// Creates a fault.
    package init(
        id: String? = nil, kind: Kind, match: EventMatcher? = nil, skip: Int = 0,
        limit: RepeatLimit = .once, probability: Double = 1, armed: Bool = true
    ) {
        self.id = id
        self.kind = kind
        self.match = match
        self.skip = skip
        self.limit = limit
        self.probability = probability
        self.armed = armed
    }

    /// Whether the fault transforms outbound frames (and so lives in the ``FaultStage``).
    package var actsOnFrames: Bool {
        switch kind {
        case .duplicate, .drop, .reorder, .delay, .truncateJSON, .malformedJSON: true
        case .close, .abruptClose, .stall, .slowClose, .bandwidthCap, .fragment, .unknownEvent, .injectError:
            match != nil
        case .sessionExpiry: false
        }
    }

    /// The scenario-file name of the kind.
    package var kindName: KindName {
        switch kind {
        case .close: .close
        case .abruptClose: .abruptClose
        case .stall: .stall
        case .slowClose: .slowClose
        case .bandwidthCap: .bandwidthCap
        case .fragment: .fragment
        case .truncateJSON: .truncateJSON
        case .malformedJSON: .malformedJSON
        case .unknownEvent: .unknownEvent
        case .duplicate: .duplicate
        case .drop: .drop
        case .reorder: .reorder
        case .delay: .delay
        case .injectError: .injectError
        case .sessionExpiry: .sessionExpiry
        }
    }
}
