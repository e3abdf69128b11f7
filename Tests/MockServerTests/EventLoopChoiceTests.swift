import MockSessions
import Synchronization
import Testing
import WireSocket

@testable import MockServer

/// The default event loop is libev; where its lws plugin is missing the server says so and
/// serves on poll instead of failing to start.
@Suite("Event loop choice")
struct EventLoopChoiceTests {
    @Test func theDefaultIsLibevAndItRunsHere() {
        #expect(MockServer.Configuration().eventLoop == .libev)
        #expect(WebSocketServer.EventLoop.libev.isAvailable, "the test machine has libwebsockets-evlib-ev")
        #expect(WebSocketServer.EventLoop.poll.isAvailable)
    }

    @Test func aMissingPluginFallsBackToPollWithAWarning() {
        let lines = Mutex<[String]>([])
        let logger = Logger(level: .warn) { line in lines.withLock { $0.append(line) } }
        let chosen = MockServer.resolve(.libev, isAvailable: { $0 == .poll }, logger: logger)
        #expect(chosen == .poll)
        let warning = lines.withLock { $0 }.joined()
        // After the line's timestamp (`2026-12-07T12:34:56.789Z `).
        #expect(warning.dropFirst(25).hasPrefix("WARN the libev event loop is not available"), "\(warning)")
        #expect(warning.contains("libwebsockets-evlib_ev.so is missing: install libwebsockets-evlib-ev"))
        #expect(MockServer.resolve(.libev, isAvailable: { _ in true }, logger: logger) == .libev)
        #expect(lines.withLock { $0.count } == 1)
    }

    @Test func theServedLoopIsWhatTheHealthRouteReports() throws {
        let server = try MockServer(configuration: .init())
        try server.start()
        defer { server.stop() }
        let health = Control.request(server, "GET", "/_mock/health")
        #expect(health.body.contains(#""eventLoop":"libev""#))
    }
}
