import Synchronization
import WireSocket

/// A test delegate: `/echo` echoes, `/refuse` answers 401 with JSON, `/http` answers HTTP routes.
final class EchoDelegate: WebSocketServerDelegate, ConnectionHandler, @unchecked Sendable {
    // @unchecked Sendable: callbacks run on the service thread; `events` is locked.
    let events = Mutex<[String]>([])
    let cap: Int?

    init(cap: Int? = nil) { self.cap = cap }

    func upgrade(_ request: HTTPRequestHead) -> UpgradeDecision {
        if request.path == "/refuse" {
            return .reject(HTTPResponse(status: 401, text: #"{"code":"InvalidApiKey"}"#))
        }
        events.withLock {
            $0.append(
                "upgrade \(request.path)?\(request.query) auth=\(request.header("authorization") ?? "-") test=\(request.header("x-test-id") ?? "-")"
            )
        }
        return .accept(self, maxMessageBytes: cap)
    }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        HTTPResponse(
            status: 200,
            text: #"{"method":"\#(request.head.method)","path":"\#(request.head.path)","bytes":\#(request.body.count)}"#
        )
    }

    func connectionOpened(_ connection: Connection) {
        events.withLock { $0.append("open \(connection.id)") }
    }

    func connection(_ connection: Connection, received message: WebSocketMessage) {
        if case .text(let bytes) = message, let command = String(validating: bytes, as: UTF8.self),
            command.hasPrefix("cmd:")
        {
            run(command, on: connection)
            return
        }
        connection.send(message)
    }

    func connectionClosed(_ connection: Connection, peerCode: CloseCode?, peerReason: String) {
        events.withLock { $0.append("closed \(connection.id) \(peerCode.map { String($0.rawValue) } ?? "none")") }
    }

    /// The reply to `cmd:fragments`, sent in fragments of 10 bytes: every byte differs from its
    /// neighbours, so a fragment header written over payload that was not sent yet would show.
    static let fragmentedReply = String((0..<95).map { Character(UnicodeScalar(UInt8(33 + $0 % 90))) })

    /// Test commands: close with a code, abort, delayed reply, fragmented reply.
    private func run(_ command: String, on connection: Connection) {
        let parts = command.split(separator: ":")
        switch parts[1] {
        case "close": connection.close(code: CloseCode(UInt16(parts[2])!), reason: "bye")
        case "abort": connection.abort()
        case "later":
            let delay = Int64(parts[2])!
            let scheduledAt = MonotonicClock.nowMicros()
            connection.schedule(afterMicros: delay) {
                connection.send(.text("late \(MonotonicClock.nowMicros() - scheduledAt)"))
            }
        case "fragments":
            connection.fragmentSize = 10
            connection.send(.text(EchoDelegate.fragmentedReply))
            connection.fragmentSize = nil
        default: connection.send(.text("unknown"))
        }
    }
}
