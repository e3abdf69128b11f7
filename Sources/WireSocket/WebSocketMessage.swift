/// One complete WebSocket message (all fragments reassembled).
public enum WebSocketMessage: Sendable, Equatable {
    case text([UInt8])
    case binary([UInt8])

    /// The payload bytes, whatever the opcode.
    public var bytes: [UInt8] {
        switch self {
        case .text(let bytes), .binary(let bytes): bytes
        }
    }

    public var isText: Bool { if case .text = self { true } else { false } }

    /// A text message from a Swift string.
    public static func text(_ string: String) -> WebSocketMessage { .text(Array(string.utf8)) }
}

/// Close status codes of RFC 6455 §7.4 that the project uses by name.
public struct CloseCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    public static let normal = CloseCode(1000)
    public static let goingAway = CloseCode(1001)
    public static let protocolError = CloseCode(1002)
    public static let unsupportedData = CloseCode(1003)
    public static let noStatus = CloseCode(1005)
    public static let abnormal = CloseCode(1006)
    public static let invalidPayload = CloseCode(1007)
    public static let policyViolation = CloseCode(1008)
    public static let messageTooBig = CloseCode(1009)
    public static let internalError = CloseCode(1011)

    public var description: String { String(rawValue) }
}

/// Errors of the WebSocket layer, carrying libwebsockets' own words where it gave any.
public struct WebSocketError: Error, Sendable, CustomStringConvertible, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
