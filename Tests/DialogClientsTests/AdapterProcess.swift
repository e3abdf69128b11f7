import CLISupport
import Foundation
import WireJSON

/// Runs the built `dialogmock-adapter` (next to the test bundle in `.build/debug`).
enum AdapterProcess {
    static var binary: String { ExecutablePath.sibling("dialogmock-adapter") ?? "dialogmock-adapter" }

    /// Runs the adapter to its end. - Parameter commands: JSON Lines for stdin; nil = EOF at once.
    /// - Returns: the exit status and every stdout line as JSON.
    static func run(
        arguments: [String], environment: [String: String], commands: [String]?,
        timeoutSeconds: Double = 90
    ) async throws -> (status: Int32, lines: [JSONValue], log: String, text: String) {
        let result = try await ChildProcess.run(
            binary, arguments, environment: environment, workingDirectory: NSTemporaryDirectory(),
            input: commands.map { $0.map { $0 + "\n" }.joined() },
            timeout: .milliseconds(Int(timeoutSeconds * 1000)))
        let lines = result.stdout.split(separator: "\n").compactMap { try? JSONValue.decode(String($0)) }
        return (result.status, lines, result.stderr, result.stdout)
    }

    /// The environment `conformance run` would give the adapter.
    static func environment(url: String, model: String = "qwen3-omni-flash-realtime") -> [String: String] {
        [
            "MOCK_URL": url, "MOCK_API_KEY": "sk-test", "MOCK_WORKSPACE_ID": "llm-test", "MOCK_APP_ID": "app-test",
            "MOCK_MODEL": model,
        ]
    }
}
