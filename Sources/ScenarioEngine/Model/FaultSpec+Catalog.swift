extension FaultSpec.KindName {
    /// What the kind does, in a line (the dashboard's fault form and `GET /_mock/fault-kinds`).
    package var summary: String {
        switch self {
        case .close: "Close handshake with code and reason; with match, right after the matching frame."
        case .abruptClose: "Drop the TCP connection without a close frame."
        case .stall: "Stop reading, writing or both for ms (or \"forever\": true, a half-open connection)."
        case .slowClose: "Send the close frame now, close TCP ms later."
        case .bandwidthCap: "Throttle all sending to bytesPerSecond."
        case .fragment: "Send frames as WebSocket fragments of frameBytes (with match: only those)."
        case .truncateJSON: "Cut matching text frames, keeping about keepFraction of their bytes."
        case .malformedJSON: "Make matching text frames invalid JSON (a trailing comma)."
        case .unknownEvent: "The engine sends an event type the protocol does not define."
        case .duplicate: "Send matching frames copies extra times."
        case .drop: "Never send matching frames."
        case .reorder: "Hold window matching frames and release them shuffled (early after holdMs)."
        case .delay: "Send matching frames ms later; later frames keep their order behind them."
        case .injectError: "The engine sends its protocol's error event (fatal: then closes)."
        case .sessionExpiry: "End the session afterMs (scaled) after arming."
        }
    }

    /// A fault object of this kind as `POST /_mock/faults` takes it (a test loads every one).
    package var example: String {
        switch self {
        case .close: #"{"kind": "close", "code": 4000, "reason": "bye"}"#
        case .abruptClose: #"{"kind": "abruptClose"}"#
        case .stall: #"{"kind": "stall", "direction": "both", "ms": 3000}"#
        case .slowClose: #"{"kind": "slowClose", "ms": 2000}"#
        case .bandwidthCap: #"{"kind": "bandwidthCap", "bytesPerSecond": 8000}"#
        case .fragment: #"{"kind": "fragment", "frameBytes": 64}"#
        case .truncateJSON: #"{"kind": "truncateJSON", "keepFraction": 0.5}"#
        case .malformedJSON: #"{"kind": "malformedJSON"}"#
        case .unknownEvent: #"{"kind": "unknownEvent", "eventType": "mock.unknown"}"#
        case .duplicate: #"{"kind": "duplicate", "copies": 1}"#
        case .drop: #"{"kind": "drop", "repeat": "every", "match": {"binary": true}}"#
        case .reorder: #"{"kind": "reorder", "window": 4, "holdMs": 500, "match": {"binary": true}}"#
        case .delay: #"{"kind": "delay", "ms": 2500}"#
        case .injectError:
            #"{"kind": "injectError", "error": {"code": 500, "name": "InternalError", "message": "injected", "fatal": false}}"#
        case .sessionExpiry: #"{"kind": "sessionExpiry", "afterMs": 5000}"#
        }
    }
}
