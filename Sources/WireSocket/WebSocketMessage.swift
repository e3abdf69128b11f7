/// One complete WebSocket message (all fragments reassembled).
package enum WebSocketMessage: Sendable, Equatable {
    case text([UInt8])
    case binary([UInt8])

    /// The payload bytes, whatever the opcode.
    package var bytes: [UInt8] {
        switch self {
        case .text(let bytes), .binary(let bytes): bytes
        }
    }

    package var isText: Bool { if case .text = self { true } else { false } }

    /// A text message from a Swift string.
    package static func text(_ string: String) -> WebSocketMessage { .text(Array(string.utf8)) }
}

/// Close status codes of RFC 6455 §7.4 that the project uses by name.
package struct CloseCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    package let rawValue: UInt16
    package init(rawValue: UInt16) { self.rawValue = rawValue }
    package init(_ rawValue: UInt16) { self.rawValue = rawValue }

    package static let normal = CloseCode(1000)
    package static let goingAway = CloseCode(1001)
    package static let protocolError = CloseCode(1002)
    package static let unsupportedData = CloseCode(1003)
    package static let noStatus = CloseCode(1005)
    package static let abnormal = CloseCode(1006)
    package static let invalidPayload = CloseCode(1007)
    package static let policyViolation = CloseCode(1008)
    package static let messageTooBig = CloseCode(1009)
    package static let internalError = CloseCode(1011)

    package var description: String { String(rawValue) }
}

/// Errors of the WebSocket layer, carrying libwebsockets' own words where it gave any.
package struct WebSocketError: Error, Sendable, CustomStringConvertible, Equatable {
    package let message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}
