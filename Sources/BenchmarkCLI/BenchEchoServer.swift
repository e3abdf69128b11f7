import Dispatch
import EchoFloor
import Glibc
import Synchronization
import WireSocket

/// The server under test: WireSocket with a delegate that echoes every message verbatim, the
/// same behaviour as MockServer's `/_mock/echo`, on 127.0.0.1 and a free port.
final class BenchEchoServer {
    static let path = "/bench/echo"

    let server: WebSocketServer
    let port: UInt16
    private let router: Router

    init(eventLoop: WebSocketServer.EventLoop) throws(WebSocketError) {
        var configuration = WebSocketServer.Configuration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.eventLoop = eventLoop
        router = Router()
        server = WebSocketServer(configuration: configuration, delegate: router)
        port = try server.start()
    }

    /// The CPU-time clock of the service thread, read on that thread (nil if it did not answer).
    func serviceThreadCPUClock() -> clockid_t? {
        let box = Mutex<clockid_t?>(nil)
        let done = DispatchSemaphore(value: 0)
        server.execute {
            let clock = ef_current_thread_cpu_clock()
            box.withLock { $0 = clock }
            done.signal()
        }
        guard done.wait(timeout: .now() + 5) == .success else { return nil }
        return box.withLock { $0 }
    }

    func stop() { server.stop(closeCode: .goingAway, drainMillis: 500) }

    private final class Router: WebSocketServerDelegate {
        func upgrade(_ request: HTTPRequestHead) -> UpgradeDecision {
            guard request.path == BenchEchoServer.path else {
                return .reject(HTTPResponse(status: 404, text: #"{"code":"NotFound"}"#))
            }
            return .accept(EchoHandler(), maxMessageBytes: nil)
        }

        func respond(to request: HTTPRequest) -> HTTPResponse {
            HTTPResponse(status: 404, text: #"{"code":"NotFound"}"#)
        }
    }

    private final class EchoHandler: ConnectionHandler {
        func connectionOpened(_ connection: Connection) {}
        func connection(_ connection: Connection, received message: WebSocketMessage) { connection.send(message) }
        func connectionClosed(_ connection: Connection, peerCode: CloseCode?, peerReason: String) {}
    }
}
