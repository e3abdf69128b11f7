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

extension TransportAction: CustomStringConvertible {
    /// How journal notes name the action (`stall write for 500 ms`, `close 4000 "bye"`).
    package var description: String {
        switch self {
        case .close(let code, let reason): "close \(code) \"\(reason)\""
        case .abruptClose: "abrupt close"
        case .stall(let direction, let micros):
            "stall \(direction.rawValue)" + (micros.map { " for \($0 / 1000) ms" } ?? " until the end")
        case .slowClose(let micros): "slow close (TCP \(micros / 1000) ms after the close frame)"
        case .bandwidthCap(let rate): "bandwidth cap \(rate) B/s"
        case .fragment(let bytes): "fragment frames into \(bytes)-byte pieces"
        }
    }
}
