import CLISupport
import Glibc
import MockServer
import WireSocket

/// `mock-server`: serves both protocols, the control API and the echo route on one port.
@main
enum MockServerCommand {
    static let spec = CommandSpec(
        name: "mock-server",
        abstract: "Mock server for the multimodal-dialog and Qwen realtime WebSocket protocols.",
        options: [
            .value("--host", valueName: "HOST", help: "Address to bind (loopback by default).", default: "127.0.0.1"),
            .value("--port", valueName: "PORT", help: "Port to bind; 0 picks a free port.", default: "8765"),
            .repeated("--api-key", valueName: "KEY", help: "Accept only these API keys (default: any non-empty bearer credential)."),
            .value("--log-level", valueName: "LEVEL", help: "error, warn, info, debug or trace (logs go to stderr).", default: "info"),
            .value("--event-loop", valueName: "LOOP", help: "poll (best timer precision) or libuv (thousands of connections).", default: "poll"),
        ],
        discussion: """
            As soon as the server accepts connections, the first line on stdout is exactly
            `listening ws://HOST:PORT`. SIGINT or SIGTERM stops accepting, closes sessions with 1001
            and exits 0.
            """
    )

    static func main() {
        let arguments = CommandLineRunner.parseOrExit(Array(CommandLine.arguments.dropFirst()), spec: spec)
        var configuration = MockServer.Configuration()
        CommandLineRunner.valueOrExit(spec: spec) {
            configuration.host = arguments.value("--host") ?? "127.0.0.1"
            configuration.port = UInt16(try arguments.int("--port", range: 0...65535) ?? 8765)
            let level = try arguments.choice("--log-level", among: LogLevel.allCases.map(\.rawValue)) ?? "info"
            configuration.logger = Logger(level: LogLevel(rawValue: level)!)
            LibWebSocketsLog.setEnabled(configuration.logger.level >= .debug)
            let loop = try arguments.choice("--event-loop", among: WebSocketServer.EventLoop.allCases.map(\.rawValue)) ?? "poll"
            configuration.eventLoop = WebSocketServer.EventLoop(rawValue: loop)!
            configuration.apiKeys = arguments.values("--api-key")
            if configuration.apiKeys.contains(where: \.isEmpty) {
                throw CommandLineError("--api-key: expected a non-empty key", commandPath: ["mock-server"])
            }
        }

        // Signals are taken by sigwait on this thread; block them before any other thread exists
        // so the lws service thread (and libuv's own handlers) never see them.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)

        let server = MockServer(configuration: configuration)
        do {
            try server.start()
        } catch {
            printError("mock-server: \(error)")
            exit(1)
        }
        printLine("listening \(server.baseURL)")

        var received: Int32 = 0
        sigwait(&signals, &received)
        configuration.logger(.info, "received signal \(received); shutting down")
        server.stop()
        exit(0)
    }

    /// Writes a line to stdout and flushes it (stdout is a pipe for scripts waiting on the ready line).
    static func printLine(_ line: String) {
        var text = line + "\n"
        text.withUTF8 { bytes in _ = write(1, bytes.baseAddress, bytes.count) }
    }

    static func printError(_ line: String) {
        var text = line + "\n"
        text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
    }
}
