import CLISupport
import Foundation
import MockServer

/// Runs the official SDKs' Python flows (Tests/EndToEndTests/Clients) against a mock.
enum SDKProcess {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let clients = root.appendingPathComponent("Tests/EndToEndTests/Clients")
    static let fixtures = root.appendingPathComponent("Tests/EndToEndTests/Fixtures")
    static let speech = root.appendingPathComponent("Tests/WireAudioTests/Fixtures/speech-16k.wav").path

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The venv's python, created once by `.ci/sdk-venv` (pip from PyPI the first time).
    static let python = Task<Result<String, Failure>, Never> {
        let result = await run(["/bin/bash", root.appendingPathComponent(".ci/sdk-venv").path], timeout: 900)
        guard result.status == 0, let path = result.stdout.split(separator: "\n").last else {
            return .failure(Failure(description: ".ci/sdk-venv failed: \(result.stderr)"))
        }
        return .success(String(path))
    }

    /// Runs `script` with `arguments`; returns the JSON object printed on its last stdout line.
    /// - Parameter apiKey: the key the SDK sends (`DIALOGMOCK_E2E_API_KEY`; the flows' default is `sk-e2e`).
    static func flow(
        _ script: String, _ arguments: [String], timeout: TimeInterval = 90, apiKey: String? = nil
    ) async throws -> [String: Any] {
        let python = try await python.value.get()
        await slots.acquire()
        let result = await runFlow(python, script, arguments, timeout: timeout, apiKey: apiKey)
        await slots.release()
        return try result.get()
    }

    /// At most this many SDK flows at once, whichever suites they come from. The suites are not
    /// `.serialized`: one flow after another per suite left the cores mostly idle while the
    /// flows waited on real-time answers (75 s for 40 CPU-s, the multimodal suite alone 74 s),
    /// and at the start eight flows ran at once; this bound keeps the load below that.
    static let slots = FlowSlots(width: 4)

    private static func runFlow(
        _ python: String, _ script: String, _ arguments: [String], timeout: TimeInterval, apiKey: String?
    ) async -> Result<[String: Any], Failure> {
        var environment: [String: String]?
        if let apiKey {
            environment = ChildProcess.currentEnvironment.merging(["DIALOGMOCK_E2E_API_KEY": apiKey]) { $1 }
        }
        let result = await run(
            [python, clients.appendingPathComponent(script).path] + arguments, timeout: timeout,
            environment: environment)
        guard result.status == 0, let line = result.stdout.split(separator: "\n").last,
            let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        else {
            return .failure(
                Failure(
                    description:
                        "\(script) \(arguments.first ?? "") exited \(result.status)\nstdout: \(result.stdout.suffix(2000))\nstderr: \(result.stderr.suffix(3000))"
                ))
        }
        return .success(object)
    }

    /// Runs a command to its end without blocking a thread of the test runner's pool.
    static func run(
        _ command: [String], timeout: TimeInterval, environment: [String: String]? = nil
    ) async -> (status: Int32, stdout: String, stderr: String) {
        do {
            let result = try await ChildProcess.run(
                command[0], Array(command.dropFirst()), environment: environment,
                timeout: .milliseconds(Int(timeout * 1000)))
            return (result.status, result.stdout, result.stderr)
        } catch {
            return (-1, "", "\(error)")
        }
    }

    /// A mock on 127.0.0.1:0 with a scenario file from Fixtures (or the default).
    static func startMock(scenario: String? = nil) throws -> MockServer {
        var configuration = MockServer.Configuration()
        // The tests validate every frame the mock sent, audio payloads included.
        configuration.journalAudio = true
        if let scenario {
            let path = fixtures.appendingPathComponent(scenario).path
            configuration.scenarioSource = (path, Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        }
        let server = try MockServer(configuration: configuration)
        try server.start()
        return server
    }
}

/// A counting semaphore for async code: `acquire` waits, first come, first served, while
/// `width` holders are in.
actor FlowSlots {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(width: Int) { free = width }

    func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
