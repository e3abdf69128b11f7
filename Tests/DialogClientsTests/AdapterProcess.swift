import Foundation
import WireJSON

/// Runs the built `dialogmock-adapter` (next to the test bundle in `.build/debug`).
enum AdapterProcess {
    static var binary: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("dialogmock-adapter")
    }

    /// Runs the adapter to its end. - Parameter commands: JSON Lines for stdin; nil = EOF at once.
    /// - Returns: the exit status and every stdout line as JSON.
    static func run(arguments: [String], environment: [String: String], commands: [String]?,
                    timeoutSeconds: Double = 90) async throws -> (status: Int32, lines: [JSONValue], log: String, text: String) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: NSTemporaryDirectory())
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let input = Pipe()
        process.standardInput = input
        let collected = Collected()
        output.fileHandleForReading.readabilityHandler = { collected.append(out: $0.availableData) }
        errors.fileHandleForReading.readabilityHandler = { collected.append(err: $0.availableData) }
        try process.run()
        for line in commands ?? [] { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }
        try input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while process.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        if process.isRunning { process.terminate() }
        while process.isRunning { try await Task.sleep(for: .milliseconds(20)) }
        try await Task.sleep(for: .milliseconds(50))
        output.fileHandleForReading.readabilityHandler = nil
        errors.fileHandleForReading.readabilityHandler = nil
        collected.append(out: output.fileHandleForReading.readDataToEndOfFile())
        let text = collected.stdout
        let lines = text.split(separator: "\n").compactMap { try? JSONValue.decode(String($0)) }
        return (process.terminationStatus, lines, collected.stderr, text)
    }

    /// The environment `conformance run` would give the adapter.
    static func environment(url: String, model: String = "qwen3-omni-flash-realtime") -> [String: String] {
        ["MOCK_URL": url, "MOCK_API_KEY": "sk-test", "MOCK_WORKSPACE_ID": "llm-test", "MOCK_APP_ID": "app-test", "MOCK_MODEL": model]
    }
}

/// Output gathered from the pipes' handlers.
private final class Collected: @unchecked Sendable {
    // @unchecked Sendable: every access goes through `lock`.
    private let lock = NSLock()
    private var out = Data()
    private var err = Data()
    func append(out data: Data) { lock.withLock { out.append(data) } }
    func append(err data: Data) { lock.withLock { err.append(data) } }
    var stdout: String { lock.withLock { String(decoding: out, as: UTF8.self) } }
    var stderr: String { lock.withLock { String(decoding: err, as: UTF8.self) } }
}
